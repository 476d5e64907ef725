import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { canTransition } from '../state-machine.ts';
import {
  RETAIL_ORDER_STATUSES,
  RETAIL_ORDER_STATES,
  RETAIL_ORDER_TRANSITIONS,
  statusAfterRefund,
  transitionRetailOrder,
} from './order-status.ts';
import type { RetailOrderStatus } from './order-status.ts';

const allowed: [RetailOrderStatus, RetailOrderStatus][] = [
  ['open', 'paid'],
  ['open', 'voided'],
  ['paid', 'partially_refunded'],
  ['paid', 'refunded'],
  ['partially_refunded', 'partially_refunded'],
  ['partially_refunded', 'refunded'],
];

describe('retail order transitions', () => {
  it.each(allowed)('allows %s -> %s', (from, to) => {
    expect(transitionRetailOrder(from, to)).toBe(to);
  });

  it('refuses every move not in the table', () => {
    for (const from of RETAIL_ORDER_STATUSES) {
      for (const to of RETAIL_ORDER_STATUSES) {
        if (RETAIL_ORDER_TRANSITIONS[from].includes(to)) continue;
        expect(canTransition(RETAIL_ORDER_STATES, from, to)).toBe(false);
        expect(() => transitionRetailOrder(from, to)).toThrow(
          expect.objectContaining({ code: 'state_transition_invalid', details: { status: `is '${from}'` } }),
        );
      }
    }
  });

  it('never leaves refunded or voided', () => {
    expect(RETAIL_ORDER_TRANSITIONS.refunded).toEqual([]);
    expect(RETAIL_ORDER_TRANSITIONS.voided).toEqual([]);
  });

  it('voids a paid order on the day it was paid, in East Africa Time', () => {
    // 23:30 EAT on the 25th and 00:10 EAT on the 26th are different business days
    const paidAt = new Date('2026-11-25T20:30:00Z');
    expect(transitionRetailOrder('paid', 'voided', { paidAt, now: new Date('2026-11-25T20:59:00Z') })).toBe(
      'voided',
    );
    expect(() =>
      transitionRetailOrder('paid', 'voided', { paidAt, now: new Date('2026-11-25T21:10:00Z') }),
    ).toThrow(AppError);
    expect(() => transitionRetailOrder('paid', 'voided')).toThrow(
      expect.objectContaining({ code: 'state_transition_invalid' }),
    );
  });

  it('names the status after a refund', () => {
    expect(statusAfterRefund(10_000, 2_500)).toBe('partially_refunded');
    expect(statusAfterRefund(10_000, 10_000)).toBe('refunded');
    expect(() => statusAfterRefund(10_000, 10_001)).toThrow(
      expect.objectContaining({ code: 'amount_invalid' }),
    );
    expect(() => statusAfterRefund(10_000, 0)).toThrow(AppError);
  });
});
