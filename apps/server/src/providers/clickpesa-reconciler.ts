import type { Logger } from 'pino';
import { escrowTransferId, PAYOUT_PROVIDER_ERROR, PROVIDER_ERROR } from './clickpesa-rules.ts';
import type { Database } from '../db/database.ts';
import { Poller } from '../infra/poller.ts';
import type { OutcomeSink, PayoutOutcomeSink } from './provider.ts';
import { CLICKPESA, type ClickPesaProvider } from './clickpesa.ts';

export interface ReconcileOptions {
  /** Payments younger than this are left to their callback. */
  minAgeMs: number;
  /** A payment ClickPesa still has no record of after this long never started. */
  giveUpAfterMs: number;
}

const DEFAULTS: ReconcileOptions = { minAgeMs: 120_000, giveUpAfterMs: 900_000 };

/**
 * Asks ClickPesa about live payments still pending after `minAgeMs`, so a lost
 * callback does not leave a payment pending for ever. Safe in every process at
 * once: outcomes are applied idempotently. Returns how many it looked at.
 */
export async function reconcilePendingClickPesa(
  database: Database,
  provider: ClickPesaProvider,
  sink: OutcomeSink,
  logger: Logger,
  options: ReconcileOptions = DEFAULTS,
): Promise<number> {
  const pending = await database.pool.query<{ id: string; age_ms: number }>(
    `SELECT id, (extract(epoch FROM now() - created_at) * 1000)::bigint AS age_ms FROM payments
     WHERE provider = $1 AND livemode AND status = 'pending' AND created_at < now() - make_interval(secs => $2::float8 / 1000)
     ORDER BY seq LIMIT 100`,
    [CLICKPESA, options.minAgeMs],
  );
  for (const payment of pending.rows) {
    try {
      const view = await provider.reconcile(payment.id);
      if (view.state === 'unknown' && payment.age_ms > options.giveUpAfterMs) {
        await sink.applyOutcome(payment.id, {
          status: 'failed',
          reference: null,
          failureCode: PROVIDER_ERROR.code,
          failureMessage: PROVIDER_ERROR.message,
        });
      }
    } catch (error) {
      logger.error({ err: error }, `reconciling ${payment.id} with ClickPesa failed`);
    }
  }
  return pending.rowCount ?? 0;
}

/**
 * The same for live payouts still pending: a final status from ClickPesa is
 * applied; one ClickPesa has no record of after `giveUpAfterMs` was never
 * sent, and fails (its amount returns to the available balance).
 */
export async function reconcilePendingClickPesaPayouts(
  database: Database,
  provider: ClickPesaProvider,
  sink: PayoutOutcomeSink,
  logger: Logger,
  options: ReconcileOptions = DEFAULTS,
): Promise<number> {
  const pending = await database.pool.query<{ id: string; age_ms: number }>(
    `SELECT id, (extract(epoch FROM now() - created_at) * 1000)::bigint AS age_ms FROM payouts
     WHERE provider = $1 AND livemode AND status = 'pending' AND created_at < now() - make_interval(secs => $2::float8 / 1000)
     ORDER BY seq LIMIT 100`,
    [CLICKPESA, options.minAgeMs],
  );
  for (const payout of pending.rows) {
    try {
      const view = await provider.reconcilePayout(payout.id);
      if (view.state === 'unknown' && payout.age_ms > options.giveUpAfterMs) {
        await sink.applyPayoutOutcome(payout.id, {
          status: 'failed',
          reference: null,
          failureCode: PAYOUT_PROVIDER_ERROR.code,
          failureMessage: PAYOUT_PROVIDER_ERROR.message,
        });
      }
    } catch (error) {
      logger.error({ err: error }, `reconciling payout ${payout.id} with ClickPesa failed`);
    }
  }
  return pending.rowCount ?? 0;
}

/** Sends again escrow transfers the payout provider has no record of (EscrowTransfers.resume). */
export interface EscrowTransferResender {
  resume(livemode: boolean, splitIds: readonly string[]): Promise<void>;
}

/**
 * Live escrow transfers still `sending` (sent as payouts named by the split and
 * its current attempt): a final status is applied through the payout sink,
 * which routes it to the escrow; one ClickPesa has no record of (the process
 * stopped before sending it) is sent again under the same order reference.
 */
export async function reconcileSendingEscrowTransfers(
  database: Database,
  provider: ClickPesaProvider,
  transfers: EscrowTransferResender,
  logger: Logger,
): Promise<number> {
  const sending = await database.pool.query<{ id: string; transfer_attempt: number }>(
    `SELECT s.id, s.transfer_attempt FROM escrow_splits s JOIN escrows e ON e.id = s.escrow_id
     WHERE s.status = 'sending' AND e.livemode ORDER BY s.id LIMIT 100`,
  );
  for (const split of sending.rows) {
    const transferId = escrowTransferId(split.id, split.transfer_attempt);
    try {
      const view = await provider.reconcilePayout(transferId);
      if (view.state === 'unknown') await transfers.resume(true, [split.id]);
    } catch (error) {
      logger.error({ err: error }, `reconciling escrow transfer ${transferId} with ClickPesa failed`);
    }
  }
  return sending.rowCount ?? 0;
}

/** Runs the three reconciliations every `intervalMs` (0: never), from `start` until `stop`. */
export class ClickPesaReconciler {
  private readonly poller: Poller;

  constructor(
    database: Database,
    provider: ClickPesaProvider,
    sink: OutcomeSink & PayoutOutcomeSink,
    transfers: EscrowTransferResender,
    logger: Logger,
    private readonly intervalMs: number,
  ) {
    this.poller = new Poller(
      async () => {
        await reconcilePendingClickPesa(database, provider, sink, logger);
        await reconcilePendingClickPesaPayouts(database, provider, sink, logger);
        await reconcileSendingEscrowTransfers(database, provider, transfers, logger);
        return false;
      },
      { intervalMs, logger, failure: 'ClickPesa reconciliation failed' },
    );
  }

  start(): void {
    if (this.intervalMs > 0) this.poller.start();
  }

  stop(): Promise<void> {
    return this.poller.stop();
  }
}
