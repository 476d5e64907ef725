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
import { exactInteger, type Queryable } from '../db/database.ts';
import type { Actor } from '../actor.ts';
import { BALANCE_SUMS, balanceObject } from '../ledger/service.ts';
import { unixSeconds } from '../infra/time.ts';
import { daysEndingOn, seriesOf } from './series.ts';

export const WINDOW_NAMES = ['today', 'last_7_days', 'last_30_days'] as const;
type WindowName = (typeof WINDOW_NAMES)[number];
const WINDOW_DAYS: Record<WindowName, number> = { today: 1, last_7_days: 7, last_30_days: 30 };
const PAYMENT_STATUSES = ['pending', 'paid', 'failed', 'refunded'] as const;

/** The ledger's money on one local day of the month, sums as text (null where nothing fell). */
interface LedgerDayRow {
  currency: string;
  day: string;
  gross: string | null;
  fees: string;
  net: string;
  refund_count: string | null;
  refunded: string | null;
}

/** Payments' gross by hour of the local day, summed over each window. */
interface GrossHourRow {
  currency: string;
  hour: number;
  gross: Record<WindowName, string | null>;
}

/** Per window: payments by status, payouts created, paid and failed (count and amount). */
type PerWindow = Record<WindowName, number>;
interface StatusCount {
  currency: string;
  status: (typeof PAYMENT_STATUSES)[number];
  count: PerWindow;
}
interface PayoutSum {
  currency: string;
  kind: 'created' | 'paid' | 'failed';
  count: PerWindow;
  amount: PerWindow;
}

/**
 * An aggregate over each window, as text: `{ today, last_7_days, last_30_days }` (null where
 * nothing fell), by an instant (`local`: a wall-clock time in the merchant's time zone).
 */
const PER_WINDOW = (column: string, aggregate: string, local = false) => {
  const since = (days: number) =>
    local ? `(b.day - ${days})::timestamp` : days === 0 ? 'b.today' : 'b.last_7_days';
  return `json_build_object('today', (${aggregate} FILTER (WHERE ${column} >= ${since(0)}))::text,
     'last_7_days', (${aggregate} FILTER (WHERE ${column} >= ${since(6)}))::text, 'last_30_days', (${aggregate})::text)`;
};

/**
 * Everything the overview reads, in one statement (one round trip, one plan): the day and each
 * window's start in the merchant's time zone; the ledger's money by local hour and payments'
 * counts, from the quarter-hour totals (the money summed by local day, and payments' gross by hour
 * of the day in each window); payouts from their rows (a merchant has few); the
 * balance. Windows are [start of the first day, start of the day after the last), computed by
 * PostgreSQL in the merchant's time zone, so a payment at 23:59:59 local time belongs to its own
 * day; a local hour lies within one local day, so each window is a run of whole hours.
 * The sums leave as text in JSON, so that each is read exactly (`exactInteger`) or not at all.
 */
const OVERVIEW_SQL = `WITH b AS MATERIALIZED (
    SELECT to_char(day, 'YYYY-MM-DD') AS date, day, m.time_zone,
      ((day + 1)::timestamp AT TIME ZONE m.time_zone) AS stop,
      (day::timestamp AT TIME ZONE m.time_zone) AS today,
      ((day - 6)::timestamp AT TIME ZONE m.time_zone) AS last_7_days,
      ((day - 29)::timestamp AT TIME ZONE m.time_zone) AS last_30_days
    FROM merchants m, LATERAL (SELECT coalesce($3::date, (now() AT TIME ZONE m.time_zone)::date) AS day) d
    WHERE m.id = $1
  ), ledger_hours AS MATERIALIZED (
    -- The month's ledger money by local hour: each quarter's time zone worked out once.
    SELECT t.currency, t.type, date_trunc('hour', t.quarter AT TIME ZONE b.time_zone) AS local_hour,
      sum(t.count) AS count, sum(t.amount) AS amount, sum(t.fee) AS fee, sum(t.net) AS net
    FROM b, ledger_quarter_totals t
    WHERE t.merchant_id = $1 AND t.livemode = $2 AND t.type IN ('payment', 'refund')
      AND t.quarter >= b.last_30_days AND t.quarter < b.stop
    GROUP BY 1, 2, 3
  )
  SELECT b.date, b.time_zone, b.stop AS end, b.today, b.last_7_days, b.last_30_days,
    (SELECT coalesce(json_agg(x), '[]') FROM (
       SELECT currency, to_char(local_hour::date, 'YYYY-MM-DD') AS day,
         (sum(amount) FILTER (WHERE type = 'payment'))::text AS gross, sum(fee)::text AS fees, sum(net)::text AS net,
         (sum(count) FILTER (WHERE type = 'refund'))::text AS refund_count,
         (0 - sum(amount) FILTER (WHERE type = 'refund'))::text AS refunded
       FROM ledger_hours GROUP BY 1, local_hour::date) x) AS ledger_days,
    (SELECT coalesce(json_agg(x), '[]') FROM (
       SELECT currency, date_part('hour', local_hour)::int AS hour, ${PER_WINDOW('local_hour', 'sum(amount)', true)} AS gross
       FROM ledger_hours WHERE type = 'payment' GROUP BY 1, 2) x) AS gross_hours,
    (SELECT coalesce(json_agg(x), '[]') FROM (
       SELECT p.currency, p.status, ${PER_WINDOW('p.quarter', 'sum(p.count)')} AS count
       FROM payment_quarter_counts p
       WHERE p.merchant_id = $1 AND p.livemode = $2 AND p.quarter >= b.last_30_days AND p.quarter < b.stop
       GROUP BY 1, 2) x) AS counts,
    (SELECT coalesce(json_agg(x), '[]') FROM (
       SELECT x.currency, x.kind, ${PER_WINDOW('x.at', 'count(*)')} AS count,
         ${PER_WINDOW('x.at', 'sum(x.amount)')} AS amount
       FROM (
         SELECT currency, amount, 'created' AS kind, created_at AS at FROM payouts WHERE merchant_id = $1 AND livemode = $2
         UNION ALL SELECT currency, amount, 'paid', paid_at FROM payouts WHERE merchant_id = $1 AND livemode = $2
         UNION ALL SELECT currency, amount, 'failed', failed_at FROM payouts WHERE merchant_id = $1 AND livemode = $2
       ) x
       WHERE x.at >= b.last_30_days AND x.at < b.stop
       GROUP BY 1, 2) x) AS payouts,
    (SELECT coalesce(json_agg(x), '[]') FROM (SELECT account, currency, total::text FROM (${BALANCE_SUMS}) s) x) AS balance
  FROM b`;

interface OverviewRow {
  date: string;
  time_zone: string;
  end: Date;
  today: Date;
  last_7_days: Date;
  last_30_days: Date;
  ledger_days: LedgerDayRow[];
  gross_hours: GrossHourRow[];
  counts: Array<{
    currency: string;
    status: StatusCount['status'];
    count: Record<WindowName, string | null>;
  }>;
  payouts: Array<{
    currency: string;
    kind: PayoutSum['kind'];
    count: Record<WindowName, string | null>;
    amount: Record<WindowName, string | null>;
  }>;
  balance: Array<{ account: string; currency: string; total: string }>;
}

const exact = (text: string | null) => (text === null ? 0 : exactInteger(text));
const perWindow = (sums: Record<WindowName, string | null>): PerWindow => ({
  today: exact(sums.today),
  last_7_days: exact(sums.last_7_days),
  last_30_days: exact(sums.last_30_days),
});

export class OverviewService {
  async of(db: Queryable, tenant: Actor, options: { date?: string | undefined }) {
    const found = await db.query<OverviewRow>({
      name: 'overview_read',
      text: OVERVIEW_SQL,
      values: [tenant.merchantId, tenant.livemode, options.date ?? null],
    });
    const row = found.rows[0]!;
    const counts: StatusCount[] = row.counts.map((r) => ({ ...r, count: perWindow(r.count) }));
    const payouts: PayoutSum[] = row.payouts.map((r) => ({
      ...r,
      count: perWindow(r.count),
      amount: perWindow(r.amount),
    }));
    const balance = balanceObject(
      row.balance.map((r) => ({ ...r, total: exact(r.total) })),
      tenant.livemode,
    );
    const starts: Record<WindowName, Date> = {
      today: row.today,
      last_7_days: row.last_7_days,
      last_30_days: row.last_30_days,
    };
    const days = row.ledger_days.map((r) => ({
      currency: r.currency,
      day: r.day,
      gross: exact(r.gross),
      fees: exact(r.fees),
      net: exact(r.net),
      refundCount: exact(r.refund_count),
      refunded: exact(r.refunded),
    }));
    const grossHours = row.gross_hours.map((r) => ({
      currency: r.currency,
      hour: r.hour,
      gross: perWindow(r.gross),
    }));

    const currencies = new Set<string>();
    for (const rows of [days, counts, payouts]) for (const r of rows) currencies.add(r.currency);
    for (const list of [balance.available, balance.pending, balance.referral])
      for (const r of list) currencies.add(r.currency);
    const amountIn = (list: Array<{ amount: number; currency: string }>, currency: string) =>
      list.find((r) => r.currency === currency)?.amount ?? 0;

    const windowOf = (name: WindowName, currency: string) => {
      const first = daysEndingOn(row.date, WINDOW_DAYS[name])[0]!;
      const inWindow = days.filter((day) => day.currency === currency && day.day >= first);
      const sum = (pick: (day: (typeof days)[number]) => number) =>
        inWindow.reduce((total, day) => total + pick(day), 0);
      const payout = (kind: PayoutSum['kind']) => {
        const found = payouts.find((r) => r.currency === currency && r.kind === kind);
        return { count: found?.count[name] ?? 0, amount: found?.amount[name] ?? 0 };
      };
      const statuses = Object.fromEntries(
        PAYMENT_STATUSES.map((status) => [
          status,
          counts.find((r) => r.currency === currency && r.status === status)?.count[name] ?? 0,
        ]),
      ) as Record<(typeof PAYMENT_STATUSES)[number], number>;
      const series = seriesOf(
        inWindow.map((day) => ({ day: day.day, amount: day.gross })),
        grossHours
          .filter((r) => r.currency === currency)
          .map((r) => ({ hour: r.hour, amount: r.gross[name] })),
        row.date,
        WINDOW_DAYS[name],
      );
      return {
        gross: sum((day) => day.gross),
        fees: sum((day) => day.fees),
        net: sum((day) => day.net),
        refunds: { count: sum((day) => day.refundCount), amount: sum((day) => day.refunded) },
        payouts: { ...payout('created'), paid: payout('paid'), failed: payout('failed') },
        payments: { ...statuses, total: Object.values(statuses).reduce((a, b) => a + b, 0) },
        gross_by_hour: series.by_hour,
        gross_by_day: series.by_day.map((day) => ({ date: day.date, gross: day.amount })),
      };
    };

    return {
      object: 'overview' as const,
      date: row.date,
      time_zone: row.time_zone,
      livemode: tenant.livemode,
      windows: Object.fromEntries(
        WINDOW_NAMES.map((name) => [name, { from: unixSeconds(starts[name]), to: unixSeconds(row.end) }]),
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
