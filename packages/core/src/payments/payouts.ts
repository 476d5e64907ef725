import { stateMachine, type TransitionTable } from '../state-machine.ts';

export type PayoutStatus = 'pending' | 'paid' | 'failed';

export const PAYOUT_TRANSITIONS: TransitionTable<PayoutStatus> = {
  pending: ['paid', 'failed'],
  paid: [],
  failed: [],
};

export const PAYOUT_STATES = stateMachine('payout', PAYOUT_TRANSITIONS);

/** Where a payout goes: a mobile money wallet or a bank account. */
export type PayoutMethod = 'mobile_money' | 'bank';

/** What a payment says about its money and payouts (the spec's `payout_status`). */
export type PaymentPayoutStatus = 'not_applicable' | 'pending' | 'paid';

export interface AwaitingPayout {
  id: string;
  net: number;
}

/**
 * Which payments awaiting payout the payouts paid so far have covered. Payments
 * are paid out in the order they were paid (`awaiting`, oldest first): each is
 * covered once `unassigned` (money paid out and not yet matched to a payment)
 * reaches its net and that of every earlier one; a payment is never split, and
 * an earlier payment not yet covered holds back the later ones.
 */
export function paymentsCoveredByPayouts(awaiting: readonly AwaitingPayout[], unassigned: number): string[] {
  const covered: string[] = [];
  let left = unassigned;
  for (const payment of awaiting) {
    if (payment.net > left) break;
    left -= payment.net;
    covered.push(payment.id);
  }
  return covered;
}
