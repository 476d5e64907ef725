/**
 * The night audit: every stay in house is charged each night whose time has
 * come (its date at the stay's check-in time), by the injected clock. A pass
 * claims a batch of stays with a night due, FOR UPDATE SKIP LOCKED, posts
 * their nights and records what it posted per account, in one transaction: two
 * processes never take one stay, and UNIQUE (reservation_id, kind, night)
 * keeps a night posted by a check-out (or a pass that claimed it first) from
 * being posted again. Any number of processes run one; each polls.
 */
import type { Logger } from 'pino';
import { newId } from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { ListSource } from '../db/list-page.ts';
import type { Clock } from '../infra/clock.ts';
import { Poller } from '../infra/poller.ts';
import { unixSeconds } from '../infra/time.ts';
import { dueUnpostedNight, postDueNights, STAY_NIGHTS } from './folio-nights.ts';
import type { ReservationRow } from './objects.ts';

/** Stays per transaction; a pass that fills one runs again at once. */
const BATCH = 200;

export interface NightAuditRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  ran_at: Date;
  reservations: number;
  nights: number;
  amount: number;
  created_at: Date;
}

export const nightAuditObject = (row: NightAuditRow) => ({
  id: row.id,
  object: 'night_audit' as const,
  ran_at: unixSeconds(row.ran_at),
  reservations: row.reservations,
  nights: row.nights,
  amount: row.amount,
  currency: 'TZS' as const,
  livemode: row.livemode,
});

export class NightAudit {
  private readonly poller: Poller;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    intervalMs: number,
    logger: Logger,
  ) {
    this.poller = new Poller(async () => (await this.runBatch()) === BATCH, {
      intervalMs,
      logger,
      failure: 'night audit failed',
    });
  }

  start(): void {
    this.poller.start();
  }

  stop(): Promise<void> {
    return this.poller.stop();
  }

  /** Runs batches until no stay has a night due at the clock's time: for tests that move the clock. */
  async runDue(): Promise<void> {
    await this.poller.drain();
  }

  /** One batch: how many stays it claimed. */
  private runBatch(): Promise<number> {
    const at = this.clock.now();
    return this.database.transaction(async (tx) => {
      const claimed = await tx.query<ReservationRow>(
        `SELECT r.* FROM hospitality_reservations r
         WHERE r.status = 'checked_in' AND EXISTS (SELECT 1 FROM ${STAY_NIGHTS} WHERE ${dueUnpostedNight('$1')})
         ORDER BY r.id LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [at, BATCH],
      );
      await this.audit(tx, claimed.rows, at);
      return claimed.rows.length;
    });
  }

  /** Posts the claimed stays' nights and records, per account, what was posted. */
  private async audit(tx: Queryable, rows: ReservationRow[], at: Date): Promise<void> {
    const tenants = new Map<string, { tenant: Tenant; rows: ReservationRow[] }>();
    for (const row of rows) {
      const key = `${row.merchant_id}/${row.livemode}`;
      if (!tenants.has(key))
        tenants.set(key, { tenant: { merchantId: row.merchant_id, livemode: row.livemode }, rows: [] });
      tenants.get(key)!.rows.push(row);
    }
    for (const { tenant, rows: stays } of tenants.values()) {
      const auditId = newId('nightAudit');
      const posted = await postDueNights(tx, stays, at, { auditId, by: null });
      const nights = [...posted.nights.values()].reduce((a, b) => a + b, 0);
      if (nights === 0) continue;
      await tx.query(
        `INSERT INTO hospitality_night_audits (id, merchant_id, livemode, ran_at, reservations, nights, amount)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [auditId, tenant.merchantId, tenant.livemode, at, posted.nights.size, nights, posted.amount],
      );
    }
  }

  auditsSource(tenant: Tenant): ListSource {
    return {
      table: 'hospitality_night_audits',
      where: 'merchant_id = $1 AND livemode = $2',
      params: [tenant.merchantId, tenant.livemode],
    };
  }
}
