/**
 * The life of a retail order. Every status change goes through
 * `transitionRetailOrder`: the table, and voiding a paid order on its day only.
 */
import { AppError, invalidField } from '../errors.ts';
import { assertTransition, stateMachine, type TransitionTable } from '../state-machine.ts';
import { eastAfricaDate } from '../time.ts';

export type RetailOrderStatus = 'open' | 'paid' | 'partially_refunded' | 'refunded' | 'voided';

export const RETAIL_ORDER_STATUSES = [
  'open',
  'paid',
  'partially_refunded',
  'refunded',
  'voided',
] as const satisfies readonly RetailOrderStatus[];

/**
 * Allowed moves. A paid order may be voided (the sale cancelled as if it never
 * happened) only on the business day it was paid; after that it is refunded.
 * Further partial refunds keep an order partially refunded.
 */
export const RETAIL_ORDER_TRANSITIONS: TransitionTable<RetailOrderStatus> = {
  open: ['paid', 'voided'],
  paid: ['partially_refunded', 'refunded', 'voided'],
  partially_refunded: ['partially_refunded', 'refunded'],
  refunded: [],
  voided: [],
};

/** When the order was paid and when the move happens; needed to void a paid order. */
export interface RetailOrderClock {
  paidAt: Date;
  now: Date;
}

export const RETAIL_ORDER_STATES = stateMachine('retail order', RETAIL_ORDER_TRANSITIONS);

/** Returns the new status, or throws 'state_transition_invalid'. */
export function transitionRetailOrder(
  from: RetailOrderStatus,
  to: RetailOrderStatus,
  clock?: RetailOrderClock,
): RetailOrderStatus {
  assertTransition(RETAIL_ORDER_STATES, from, to);
  if (from === 'paid' && to === 'voided') {
    const sameDay =
      clock !== undefined && eastAfricaDate(clock.paidAt, 'paidAt') === eastAfricaDate(clock.now, 'now');
    if (!sameDay) {
      throw new AppError(
        'state_transition_invalid',
        'A paid order can be voided only on the day it was paid; refund it instead',
        {
          details: { status: "is 'paid' on an earlier day" },
        },
      );
    }
  }
  return to;
}

/** The status after refunds totalling `refundedTotal` of an order of `orderTotal`. */
export function statusAfterRefund(
  orderTotal: number,
  refundedTotal: number,
): 'partially_refunded' | 'refunded' {
  if (!Number.isSafeInteger(refundedTotal) || refundedTotal <= 0 || refundedTotal > orderTotal) {
    throw invalidField(
      'amount_invalid',
      'amount',
      `refunds must total between 1 and the order total (${orderTotal})`,
    );
  }
  return refundedTotal === orderTotal ? 'refunded' : 'partially_refunded';
}
