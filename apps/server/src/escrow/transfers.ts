import type { Logger } from 'pino';
import { AppError } from '@tz/core';
import { escrowTransferId, escrowTransferOf } from '../providers/clickpesa-rules.ts';
import type { Database } from '../db/database.ts';
import { mayHaveReached } from '../providers/clickpesa-http.ts';
import type { PayoutProvider, ProviderOutcome } from '../providers/provider.ts';
import { SANDBOX_NUMBERS } from '../providers/sandbox.ts';
import type { EventSignal } from '../infra/events.ts';
import { loadSplits, moveSplit, postRelease, saveEscrow, type EscrowRow, type SplitRow } from './store.ts';

/** What the provider says of a transfer from escrow to a phone. */
export type TransferOutcome =
  | { status: 'succeeded'; reference: string }
  | { status: 'failed'; reference: string | null; failureCode: string; failureMessage: string }
  | { status: 'pending'; reference: string | null };

/** Test mode, by number as for payments: …02 fails, …03 stays pending, any other number succeeds. */
export function sandboxTransferOutcome(splitId: string, phone: string): TransferOutcome {
  const reference = `sbx_${splitId.slice(4)}`;
  if (phone === SANDBOX_NUMBERS.insufficientFunds) {
    return {
      status: 'failed',
      reference,
      failureCode: 'transfer_failed',
      failureMessage: 'The provider could not credit the recipient’s wallet',
    };
  }
  return phone === SANDBOX_NUMBERS.staysPending
    ? { status: 'pending', reference }
    : { status: 'succeeded', reference };
}

/**
 * Splits released to a phone leave through the provider: the split is
 * `sending` when the release commits, the transfer is asked for after commit,
 * and its outcome posts the release (or returns the split to `held`) in one
 * transaction of its own. Test mode: the sandbox answers at once. Live mode:
 * the split is sent as a payout of the live payout provider, named by the split
 * and its attempt (`escrowTransferId`: ClickPesa's order reference `esp...`, then
 * `esp...a2` after a failure), so its callbacks and status queries come back
 * here (`applyProviderOutcome`), and only the current attempt's count; see docs/ESCROW.md.
 */
export class EscrowTransfers {
  constructor(
    private readonly database: Database,
    private readonly events: EventSignal,
    private readonly logger: Logger,
    private readonly liveProvider: PayoutProvider | undefined,
  ) {}

  assertCanSend(livemode: boolean): void {
    if (livemode && !this.liveProvider) {
      throw new AppError(
        'provider_unavailable',
        'Live transfers from escrow to mobile money are not configured yet',
        { retryAfter: 3600 },
      );
    }
  }

  /** The after-commit task that sends these splits of one escrow. */
  send(escrow: Pick<EscrowRow, 'livemode' | 'currency'>, splits: readonly SplitRow[]): () => Promise<void> {
    return async () => {
      for (const split of splits) {
        try {
          if (escrow.livemode) await this.sendLive(escrow.currency, split);
          else
            await this.applyOutcome(
              split.id,
              split.transfer_attempt,
              sandboxTransferOutcome(split.id, split.phone!),
            );
        } catch (error) {
          this.logger.error({ err: error }, `escrow transfer of split ${split.id} could not be recorded`);
        }
      }
    };
  }

  /**
   * Asks the live provider to pay the split's current attempt out; its outcome
   * arrives through the payout sink. A provider that refused it, or surely never
   * got it, returns the split to held. One that may hold it (it answered nothing
   * telling, and had no record of it just after) leaves it sending: a failure
   * then, and a release again, could pay twice. The reconciler asks again, and
   * sends the same attempt again if it is still unknown; an attempt keeps its id,
   * so the provider refuses to create it twice.
   */
  private async sendLive(currency: string, split: SplitRow): Promise<void> {
    const provider = this.liveProvider!;
    const transferId = escrowTransferId(split.id, split.transfer_attempt);
    try {
      const { reference } = await provider.sendPayout({
        id: transferId,
        amount: split.amount,
        currency,
        destination: { type: 'mobile_money', phone: split.phone! },
      });
      if (reference)
        await this.database.pool.query(
          `UPDATE escrow_splits SET transfer_reference = $3
           WHERE id = $1 AND transfer_attempt = $2 AND transfer_reference IS NULL`,
          [split.id, split.transfer_attempt, reference],
        );
    } catch (error) {
      if (mayHaveReached(error)) {
        this.logger.error(
          { err: error },
          `escrow transfer ${transferId} may have reached ${provider.name}; left sending`,
        );
        return;
      }
      this.logger.error({ err: error }, `provider ${provider.name} refused escrow transfer ${transferId}`);
      await this.applyProviderOutcome(transferId, {
        status: 'failed',
        reference: null,
        failureCode: 'provider_error',
        failureMessage: 'The provider could not start this transfer',
      });
    }
  }

  /**
   * Sends again the splits a stopped process left `sending`: in test mode all of
   * them; in live mode those `ids` names (the payout provider has no record
   * of them). Each is sent as its current attempt: the same order reference
   * keeps a repeat from paying twice.
   */
  async resume(livemode = false, ids?: readonly string[]): Promise<void> {
    try {
      const found = await this.database.pool.query<SplitRow & { currency: EscrowRow['currency'] }>(
        `SELECT s.*, e.currency FROM escrow_splits s JOIN escrows e ON e.id = s.escrow_id
         WHERE s.status = 'sending' AND e.livemode = $1 AND ($2::text[] IS NULL OR s.id = ANY($2))`,
        [livemode, ids ?? null],
      );
      for (const split of found.rows) await this.send({ livemode, currency: split.currency }, [split])();
    } catch (error) {
      this.logger.error({ err: error }, 'escrow transfers could not be resumed');
    }
  }

  /**
   * A payout provider's outcome for a transfer it was sent as (callback or status
   * query), by the transfer id (`escrowTransferId`: the split and the attempt).
   */
  applyProviderOutcome(transferId: string, outcome: ProviderOutcome): Promise<void> {
    const transfer = escrowTransferOf(transferId);
    if (!transfer) throw new Error(`${transferId} names no escrow transfer`);
    return this.applyOutcome(
      transfer.splitId,
      transfer.attempt,
      outcome.status === 'paid' ? { status: 'succeeded', reference: outcome.reference } : outcome,
    );
  }

  /**
   * Applies the outcome of one attempt at a split's transfer. A repeated or late
   * one (the split is no longer sending), or one of an earlier attempt (the split
   * failed and was released again since), changes nothing.
   */
  async applyOutcome(splitId: string, attempt: number, outcome: TransferOutcome): Promise<void> {
    if (outcome.status === 'pending') return;
    const changed = await this.database.transaction(async (tx) => {
      const found = await tx.query<EscrowRow>(
        `SELECT e.* FROM escrows e JOIN escrow_splits s ON s.escrow_id = e.id WHERE s.id = $1 FOR UPDATE OF e`,
        [splitId],
      );
      const escrow = found.rows[0];
      if (!escrow) return false;
      const splits = await loadSplits(tx, [escrow.id]);
      const split = splits.find((s) => s.id === splitId)!;
      if (split.transfer_attempt !== attempt) {
        // An earlier attempt was settled as failed; its success now would mean money went out twice.
        if (outcome.status === 'succeeded')
          this.logger.error(
            {
              err: new Error(
                `attempt ${attempt} of ${splitId} reported paid; the split is at attempt ${split.transfer_attempt}`,
              ),
            },
            `escrow transfer ${escrowTransferId(splitId, attempt)} succeeded after it was settled as failed`,
          );
        return false;
      }
      if (split.status !== 'sending') return false;
      if (outcome.status === 'succeeded') {
        await postRelease(tx, escrow, split);
        await moveSplit(tx, split, 'released', { reference: outcome.reference });
        await saveEscrow(tx, escrow, splits, 'escrow.released');
      } else {
        await moveSplit(tx, split, 'held', {
          reference: outcome.reference,
          failureCode: outcome.failureCode,
          failureMessage: outcome.failureMessage,
        });
      }
      return true;
    });
    if (changed) this.events.notify();
  }
}
