import { AppError } from './errors.ts';
import { stateMachine, type TransitionTable } from './state-machine.ts';

/**
 * An escrow holds a paid payment's net until its splits are released. It is
 * `held` until a split is released, `partially_released` while others are
 * still held (or on their way to a phone), `released` when every split is, and
 * `refunded` once what was not released went back to the payer.
 */
export type EscrowStatus = 'held' | 'partially_released' | 'released' | 'refunded';

export const ESCROW_TRANSITIONS: TransitionTable<EscrowStatus> = {
  // An escrow stays held, or partially released, while its splits move (to a phone, back to held).
  held: ['held', 'partially_released', 'released', 'refunded'],
  partially_released: ['partially_released', 'released', 'refunded'],
  released: [],
  refunded: [],
};

/**
 * A split is `held` until released. A split to another merchant moves to
 * `released` at once; one to a phone is `sending` while the provider transfers
 * it, then `released`, or back to `held` when the transfer fails (it can be
 * released again or refunded). `refunded` splits went back to the payer.
 */
export type EscrowSplitStatus = 'held' | 'sending' | 'released' | 'refunded';

export const ESCROW_SPLIT_TRANSITIONS: TransitionTable<EscrowSplitStatus> = {
  held: ['sending', 'released', 'refunded'],
  sending: ['released', 'held'],
  released: [],
  refunded: [],
};

export const ESCROW_STATES = stateMachine('escrow', ESCROW_TRANSITIONS);
export const ESCROW_SPLIT_STATES = stateMachine('escrow split', ESCROW_SPLIT_TRANSITIONS);

/** The escrow's status that its splits imply (before any refund). */
export function escrowStatusOf(splits: readonly { status: EscrowSplitStatus }[]): EscrowStatus {
  const released = splits.filter((split) => split.status === 'released').length;
  if (released === 0) return 'held';
  return released === splits.length ? 'released' : 'partially_released';
}

/**
 * The splits and the platform fee must add up to the held amount exactly: a
 * 400 naming the fee when it alone is too much, otherwise the last split.
 */
export function assertSplitsAddUp(held: number, platformFee: number, amounts: readonly number[]): void {
  const total = amounts.reduce((sum, amount) => sum + amount, platformFee);
  if (total === held) return;
  const field = platformFee >= held ? 'platform_fee' : `splits.${amounts.length - 1}.amount`;
  const message = `The splits and platform_fee add up to ${total}; the held amount (the payment's net) is ${held}`;
  throw new AppError('amount_invalid', message, {
    details: { [field]: `splits and platform_fee must add up to ${held}, not ${total}` },
  });
}
