import { assertTransition, type TransitionTable } from '../state-machine.ts';

export type PaymentStatus = 'pending' | 'paid' | 'failed' | 'refunded';

export const PAYMENT_TRANSITIONS: TransitionTable<PaymentStatus> = {
  pending: ['paid', 'failed'],
  paid: ['refunded'],
  failed: [],
  refunded: [],
};

export function assertPaymentTransition(from: PaymentStatus, to: PaymentStatus): void {
  assertTransition('payment', PAYMENT_TRANSITIONS, from, to);
}

export type CheckoutStatus = 'open' | 'complete' | 'expired';

export const CHECKOUT_TRANSITIONS: TransitionTable<CheckoutStatus> = {
  open: ['complete', 'expired'],
  complete: [],
  expired: [],
};

export function assertCheckoutTransition(from: CheckoutStatus, to: CheckoutStatus): void {
  assertTransition('checkout', CHECKOUT_TRANSITIONS, from, to);
}
