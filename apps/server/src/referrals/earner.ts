/**
 * The background job that credits referral earnings. A referred merchant's paid
 * payment queues a row in `referral_earnings_due` with the payment's own
 * transaction; a poller in every server process claims due rows (FOR UPDATE
 * SKIP LOCKED, with a lease so a crashed process's claim lapses) and credits
 * each in one short transaction: the ledger's `referral_earning` moves the
 * referrer's share from `platform_fees` (posted on the referred merchant) to the
 * referrer's `merchant_referral`, the earning is recorded for GET /v1/referrals,
 * and the due row is deleted. The due row's lock and UNIQUE (type, source_id)
 * on the ledger make each payment's earning post once, however many pollers run.
 */
import type { Logger } from 'pino';
import { referralEarning, type Currency } from '@tz/core';
import { write, type Database } from '../db/database.ts';
import type { EventSignal } from '../infra/events.ts';
import { postLedgerEntry } from '../ledger/service.ts';
import { Poller } from '../infra/poller.ts';

const POLL_INTERVAL_MS = 1_000;
const CLAIM_LEASE_SECONDS = 30;
const BATCH = 100;

interface DueRow {
  payment_id: string;
  referred_id: string;
  referrer_id: string;
  livemode: boolean;
  currency: Currency;
  fee: number;
}

export class ReferralEarner {
  private readonly poller: Poller;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly database: Database,
    private readonly events: EventSignal,
    logger: Logger,
  ) {
    this.poller = new Poller(async () => (await this.creditAll(), false), {
      intervalMs: POLL_INTERVAL_MS,
      logger,
      failure: 'referral earning failed',
    });
  }

  start(): void {
    // A paid payment commits an event: credit its earning without waiting for the poll.
    this.unsubscribe = this.events.subscribe(() => this.poller.wake());
    this.poller.start();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.poller.stop();
  }

  /** Credits everything due, a batch at a time; the number credited. */
  async creditAll(): Promise<number> {
    let credited = 0;
    for (;;) {
      const claimed = await this.database.pool.query<{ payment_id: string }>(
        `UPDATE referral_earnings_due SET due_at = now() + make_interval(secs => $1)
         WHERE payment_id IN (SELECT payment_id FROM referral_earnings_due WHERE due_at <= now()
                              ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING payment_id`,
        [CLAIM_LEASE_SECONDS, BATCH],
      );
      for (const { payment_id } of claimed.rows) if (await this.credit(payment_id)) credited += 1;
      if (claimed.rows.length < BATCH) return credited;
    }
  }

  /** One payment's earning, in one transaction; false if another process has it or credited it. */
  private credit(paymentId: string): Promise<boolean> {
    return this.database.transaction(async (tx) => {
      const found = await tx.query<DueRow>(
        `SELECT d.payment_id, p.merchant_id AS referred_id, m.referred_by AS referrer_id, p.livemode, p.currency, p.fee
         FROM referral_earnings_due d
         JOIN payments p ON p.id = d.payment_id
         JOIN merchants m ON m.id = p.merchant_id
         WHERE d.payment_id = $1 FOR UPDATE OF d SKIP LOCKED`,
        [paymentId],
      );
      const due = found.rows[0];
      if (!due) return false;
      const amount = referralEarning(due.fee);
      const transactionId = await postLedgerEntry(tx, {
        merchantId: due.referrer_id,
        livemode: due.livemode,
        type: 'referral_earning',
        sourceId: due.payment_id,
        currency: due.currency,
        amount,
        fee: 0,
        description: `Referral earning on ${due.payment_id}`,
        postings: [
          { account: 'platform_fees', currency: due.currency, amount: -amount, merchantId: due.referred_id },
          { account: 'merchant_referral', currency: due.currency, amount },
        ],
      });
      await write(
        tx,
        `INSERT INTO referral_earnings (merchant_id, livemode, payment_id, referred_id, currency, fee, amount, transaction_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          due.referrer_id,
          due.livemode,
          due.payment_id,
          due.referred_id,
          due.currency,
          due.fee,
          amount,
          transactionId,
        ],
      );
      await write(tx, 'DELETE FROM referral_earnings_due WHERE payment_id = $1', [due.payment_id]);
      return true;
    });
  }
}
