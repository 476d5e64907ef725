import { AppError } from '@tz/core';
import type { Database } from '../db/database.ts';
import { SANDBOX_NUMBERS } from '../providers/sandbox.ts';
import { notifyEventsWritten } from './events.ts';
import {
  loadSplits,
  moveSplit,
  postRelease,
  saveEscrow,
  type EscrowRow,
  type SplitRow,
} from './escrow-store.ts';

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
 * transaction of its own. Only the sandbox sends for now, so live mode refuses
 * before anything moves.
 */
export class EscrowTransfers {
  constructor(
    private readonly database: Database,
    private readonly log: (error: unknown, message: string) => void,
  ) {}

  assertCanSend(livemode: boolean): void {
    if (livemode) {
      throw new AppError(
        'provider_unavailable',
        'Live transfers from escrow to mobile money are not available yet',
        {
          retryAfter: 3600,
        },
      );
    }
  }

  /** The after-commit task that sends these splits (test mode: the sandbox answers at once). */
  send(splits: readonly SplitRow[]): () => Promise<void> {
    return async () => {
      for (const split of splits) {
        try {
          await this.applyOutcome(split.id, sandboxTransferOutcome(split.id, split.phone!));
        } catch (error) {
          this.log(error, `escrow transfer of split ${split.id} could not be recorded`);
        }
      }
    };
  }

  /** Sends again the test-mode splits a stopped process left `sending` (applying an outcome twice is harmless). */
  async resume(): Promise<void> {
    try {
      const found = await this.database.pool.query<SplitRow>(
        `SELECT s.* FROM escrow_splits s JOIN escrows e ON e.id = s.escrow_id
         WHERE s.status = 'sending' AND NOT e.livemode`,
      );
      await this.send(found.rows)();
    } catch (error) {
      this.log(error, 'escrow transfers could not be resumed');
    }
  }

  /** Applies a transfer's outcome; a repeated or late one (the split is no longer sending) changes nothing. */
  async applyOutcome(splitId: string, outcome: TransferOutcome): Promise<void> {
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
    if (changed) notifyEventsWritten();
  }
}
