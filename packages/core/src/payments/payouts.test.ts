import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { isBalanced, payoutPostings } from '../ledger.ts';
import { assertTransition } from '../state-machine.ts';
import { PAYOUT_STATES, paymentsCoveredByPayouts } from './payouts.ts';

describe('payout states', () => {
  it('move pending to paid or failed, and nowhere after', () => {
    expect(() => assertTransition(PAYOUT_STATES, 'pending', 'paid')).not.toThrow();
    expect(() => assertTransition(PAYOUT_STATES, 'pending', 'failed')).not.toThrow();
    for (const [from, to] of [
      ['paid', 'failed'],
      ['failed', 'paid'],
      ['paid', 'pending'],
    ] as const)
      expect(() => assertTransition(PAYOUT_STATES, from, to)).toThrow(AppError);
  });
});

describe('payout postings', () => {
  it('balance, and a payout followed by its reversal leaves every account as it was', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), (amount) => {
        const all = [
          ...payoutPostings('payout', 'TZS', amount),
          ...payoutPostings('payout_reversal', 'TZS', amount),
        ];
        expect(isBalanced(payoutPostings('payout', 'TZS', amount))).toBe(true);
        expect(isBalanced(payoutPostings('payout_paid', 'TZS', amount))).toBe(true);
        const net = new Map<string, number>();
        for (const p of all) net.set(p.account, (net.get(p.account) ?? 0) + p.amount);
        expect([...net.values()].every((v) => v === 0)).toBe(true);
      }),
    );
  });
});

describe('which payments the paid payouts cover', () => {
  it('covers the oldest whole payments the money reaches, never skipping one', () => {
    const awaiting = [
      { id: 'a', net: 9_850 },
      { id: 'b', net: 19_700 },
      { id: 'c', net: 4_925 },
    ];
    expect(paymentsCoveredByPayouts(awaiting, 9_849)).toEqual([]);
    expect(paymentsCoveredByPayouts(awaiting, 9_850)).toEqual(['a']);
    expect(paymentsCoveredByPayouts(awaiting, 29_549)).toEqual(['a']);
    expect(paymentsCoveredByPayouts(awaiting, 29_550)).toEqual(['a', 'b']);
    expect(paymentsCoveredByPayouts(awaiting, 10 ** 9)).toEqual(['a', 'b', 'c']);
  });

  it('is always a prefix whose nets fit, and the next one would not', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 100_000 }), { maxLength: 30 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        (nets, money) => {
          const awaiting = nets.map((net, i) => ({ id: String(i), net }));
          const covered = paymentsCoveredByPayouts(awaiting, money);
          expect(covered).toEqual(awaiting.slice(0, covered.length).map((p) => p.id));
          const used = nets.slice(0, covered.length).reduce((a, b) => a + b, 0);
          expect(used).toBeLessThanOrEqual(money);
          if (covered.length < nets.length) expect(used + nets[covered.length]!).toBeGreaterThan(money);
        },
      ),
    );
  });
});
