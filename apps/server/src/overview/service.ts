/**
 * GET /v1/overview: per currency, for the merchant's today, last 7 and last 30
 * calendar days (in its time zone), the volume, fees, net, refunds, payouts
 * (created, paid, failed) and payment counts, beside the balance. Windows are
 * [start of the first day, start of the day after the last) computed by
 * PostgreSQL in the merchant's time zone, so a payment at 23:59:59 local time
 * belongs to its own day. Payments' money and counts are read from the
 * quarter-hour totals the database keeps with each write (migration
 * `overview_totals`): a month is a few thousand rows however busy it was.
 */
import type { Queryable } from '../db/database.ts';
import type { Actor, Tenant } from '../actor.ts';
import type { LedgerService } from '../ledger/service.ts';
import { unixSeconds } from '../infra/time.ts';
import { seriesOf, type DayHourSum } from './series.ts';

export const WINDOW_NAMES = ['today', 'last_7_days', 'last_30_days'] as const;
type WindowName = (typeof WINDOW_NAMES)[number];
const WINDOW_DAYS: Record<WindowName, number> = { today: 1, last_7_days: 7, last_30_days: 30 };
const PAYMENT_STATUSES = ['pending', 'paid', 'failed', 'refunded'] as const;

interface Bounds {
  date: string;
  time_zone: string;
  end: Date;
  starts: Record<WindowName, Date>;
}

/** Sums of one window in one currency, as every term below reports them. */
interface WindowRow {
  window: WindowName;
  currency: string;
}

/** The day (the merchant's today unless given) and each window's start, in the merchant's time zone. */
async function boundsOf(db: Queryable, tenant: Tenant, date: string | undefined): Promise<Bounds> {
  const found = await db.query<{
    date: string;
    time_zone: string;
    end: Date;
    today: Date;
    last_7_days: Date;
    last_30_days: Date;
  }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS date, m.time_zone,
       ((day + 1)::timestamp AT TIME ZONE m.time_zone) AS end,
       (day::timestamp AT TIME ZONE m.time_zone) AS today,
       ((day - 6)::timestamp AT TIME ZONE m.time_zone) AS last_7_days,
       ((day - 29)::timestamp AT TIME ZONE m.time_zone) AS last_30_days
     FROM merchants m, LATERAL (SELECT coalesce($2::date, (now() AT TIME ZONE m.time_zone)::date) AS day) d
     WHERE m.id = $1`,
    [tenant.merchantId, date ?? null],
  );
  const row = found.rows[0]!;
  return {
    date: row.date,
    time_zone: row.time_zone,
    end: row.end,
    starts: { today: row.today, last_7_days: row.last_7_days, last_30_days: row.last_30_days },
  };
}

/** `t.<column> >= w.start` joined to one row per window: each row counted in every window it falls in. */
const WINDOWS_SQL = `(VALUES ('today', $3::timestamptz), ('last_7_days', $4::timestamptz), ('last_30_days', $5::timestamptz)) AS w(name, start)`;

const windowParams = (tenant: Tenant, bounds: Bounds) => [
  tenant.merchantId,
  tenant.livemode,
  bounds.starts.today,
  bounds.starts.last_7_days,
  bounds.starts.last_30_days,
  bounds.end,
];

/** Money moved by payments and refunds, from the ledger's quarter-hour totals, by when it moved (paid or refunded). */
function ledgerSums(db: Queryable, params: unknown[]) {
  return db.query<
    WindowRow & { gross: number; fees: number; net: number; refund_count: number; refunded: number }
  >(
    `SELECT w.name AS window, t.currency,
       coalesce(sum(t.amount) FILTER (WHERE t.type = 'payment'), 0)::bigint AS gross,
       coalesce(sum(t.fee), 0)::bigint AS fees,
       coalesce(sum(t.net), 0)::bigint AS net,
       coalesce(sum(t.count) FILTER (WHERE t.type = 'refund'), 0)::int AS refund_count,
       coalesce(-sum(t.amount) FILTER (WHERE t.type = 'refund'), 0)::bigint AS refunded
     FROM ledger_quarter_totals t JOIN ${WINDOWS_SQL} ON t.quarter >= w.start
     WHERE t.merchant_id = $1 AND t.livemode = $2 AND t.type IN ('payment', 'refund')
       AND t.quarter >= $5 AND t.quarter < $6
     GROUP BY w.name, t.currency`,
    params,
  );
}

/** Payments' gross by local day and hour over the longest window, for each window's series. */
function grossByDayAndHour(db: Queryable, tenant: Tenant, bounds: Bounds) {
  return db.query<DayHourSum & { currency: string }>(
    `SELECT t.currency, to_char(t.quarter AT TIME ZONE $5, 'YYYY-MM-DD') AS day,
       extract(hour FROM t.quarter AT TIME ZONE $5)::int AS hour, sum(t.amount)::bigint AS amount
     FROM ledger_quarter_totals t
     WHERE t.merchant_id = $1 AND t.livemode = $2 AND t.type = 'payment'
       AND t.quarter >= $3 AND t.quarter < $4
     GROUP BY 1, 2, 3`,
    [tenant.merchantId, tenant.livemode, bounds.starts.last_30_days, bounds.end, bounds.time_zone],
  );
}

/** Payments made in the window, by their status now (from their quarter-hour counts). */
function paymentCounts(db: Queryable, params: unknown[]) {
  return db.query<WindowRow & { status: (typeof PAYMENT_STATUSES)[number]; count: number }>(
    `SELECT w.name AS window, p.currency, p.status, sum(p.count)::int AS count
     FROM payment_quarter_counts p JOIN ${WINDOWS_SQL} ON p.quarter >= w.start
     WHERE p.merchant_id = $1 AND p.livemode = $2 AND p.quarter >= $5 AND p.quarter < $6
     GROUP BY w.name, p.currency, p.status`,
    params,
  );
}

interface PayoutRow extends WindowRow {
  count: number;
  amount: number;
  paid_count: number;
  paid_amount: number;
  failed_count: number;
  failed_amount: number;
}

/** Payouts created, paid and failed in the window, each by when that happened. */
function payoutSums(db: Queryable, params: unknown[]) {
  const at = (kind: string, column: string) =>
    `SELECT currency, amount, '${kind}' AS kind, ${column} AS at FROM payouts
     WHERE merchant_id = $1 AND livemode = $2 AND ${column} >= $5 AND ${column} < $6`;
  const sums = (kind: string, prefix: string) =>
    `count(*) FILTER (WHERE x.kind = '${kind}')::int AS ${prefix}count,
     coalesce(sum(x.amount) FILTER (WHERE x.kind = '${kind}'), 0)::bigint AS ${prefix}amount`;
  return db.query<PayoutRow>(
    `SELECT w.name AS window, x.currency, ${sums('created', '')}, ${sums('paid', 'paid_')}, ${sums('failed', 'failed_')}
     FROM (${at('created', 'created_at')} UNION ALL ${at('paid', 'paid_at')} UNION ALL ${at('failed', 'failed_at')}) x
       JOIN ${WINDOWS_SQL} ON x.at >= w.start
     GROUP BY w.name, x.currency`,
    params,
  );
}

export class OverviewService {
  constructor(private readonly ledger: LedgerService) {}

  async of(db: Queryable, tenant: Actor, options: { date?: string | undefined }) {
    const bounds = await boundsOf(db, tenant, options.date);
    const params = windowParams(tenant, bounds);
    const [ledger, counts, payouts, balance, hourly] = await Promise.all([
      ledgerSums(db, params),
      paymentCounts(db, params),
      payoutSums(db, params),
      this.ledger.balance(db, tenant),
      grossByDayAndHour(db, tenant, bounds),
    ]);
    const currencies = new Set<string>();
    for (const rows of [ledger.rows, counts.rows, payouts.rows])
      for (const r of rows) currencies.add(r.currency);
    for (const list of [balance.available, balance.pending, balance.referral])
      for (const r of list) currencies.add(r.currency);
    const amountIn = (list: Array<{ amount: number; currency: string }>, currency: string) =>
      list.find((r) => r.currency === currency)?.amount ?? 0;

    const windowOf = (name: WindowName, currency: string) => {
      const match = (r: WindowRow) => r.window === name && r.currency === currency;
      const sums = ledger.rows.find(match);
      const payout = payouts.rows.find(match);
      const statuses = Object.fromEntries(
        PAYMENT_STATUSES.map((status) => [
          status,
          counts.rows.find((r) => match(r) && r.status === status)?.count ?? 0,
        ]),
      ) as Record<(typeof PAYMENT_STATUSES)[number], number>;
      const series = seriesOf(
        hourly.rows.filter((r) => r.currency === currency),
        bounds.date,
        WINDOW_DAYS[name],
      );
      return {
        gross: sums?.gross ?? 0,
        fees: sums?.fees ?? 0,
        net: sums?.net ?? 0,
        refunds: { count: sums?.refund_count ?? 0, amount: sums?.refunded ?? 0 },
        payouts: {
          count: payout?.count ?? 0,
          amount: payout?.amount ?? 0,
          paid: { count: payout?.paid_count ?? 0, amount: payout?.paid_amount ?? 0 },
          failed: { count: payout?.failed_count ?? 0, amount: payout?.failed_amount ?? 0 },
        },
        payments: { ...statuses, total: Object.values(statuses).reduce((a, b) => a + b, 0) },
        gross_by_hour: series.by_hour,
        gross_by_day: series.by_day.map((day) => ({ date: day.date, gross: day.amount })),
      };
    };

    return {
      object: 'overview' as const,
      date: bounds.date,
      time_zone: bounds.time_zone,
      livemode: tenant.livemode,
      windows: Object.fromEntries(
        WINDOW_NAMES.map((name) => [
          name,
          { from: unixSeconds(bounds.starts[name]), to: unixSeconds(bounds.end) },
        ]),
      ) as Record<WindowName, { from: number; to: number }>,
      currencies: [...currencies].sort().map((currency) => ({
        currency,
        balance: {
          available: amountIn(balance.available, currency),
          pending: amountIn(balance.pending, currency),
          referral: amountIn(balance.referral, currency),
        },
        ...(Object.fromEntries(WINDOW_NAMES.map((name) => [name, windowOf(name, currency)])) as Record<
          WindowName,
          ReturnType<typeof windowOf>
        >),
      })),
    };
  }
}
