import { stateMachine, type TransitionTable } from '../state-machine.ts';

export type PaymentStatus = 'pending' | 'paid' | 'failed' | 'refunded';

export const PAYMENT_TRANSITIONS: TransitionTable<PaymentStatus> = {
  pending: ['paid', 'failed'],
  paid: ['refunded'],
  failed: [],
  refunded: [],
};

export const PAYMENT_STATES = stateMachine('payment', PAYMENT_TRANSITIONS);

/**
 * A payment now in `current` has already been `reported` (it is there, or moved on
 * from there): a repeated or late provider outcome that changes nothing.
 */
export function paymentHasReached(current: PaymentStatus, reported: PaymentStatus): boolean {
  return (
    reported === current || PAYMENT_TRANSITIONS[reported].some((next) => paymentHasReached(current, next))
  );
}

export type CheckoutStatus = 'open' | 'complete' | 'expired';

export const CHECKOUT_TRANSITIONS: TransitionTable<CheckoutStatus> = {
  open: ['complete', 'expired'],
  complete: [],
  expired: [],
};

export const CHECKOUT_STATES = stateMachine('checkout', CHECKOUT_TRANSITIONS);
