import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planRefund, remainingRefundLines, statusAfterRefundPlan } from './refund.ts';
import type { RefundableLine } from './refund.ts';

const makeLine = (overrides: Partial<RefundableLine> = {}): RefundableLine => ({
  unit: 'piece',
  quantityMilli: 3_000,
  total: 10_000,
  tax: 1_525,
  refundedQuantityMilli: 0,
  ...overrides,
});

describe('planRefund', () => {
  it('returns a proportional share of what was paid for the line, tax included', () => {
    const plan = planRefund([makeLine()], [{ line: 0, quantityMilli: 1_000 }]);
    expect(plan).toEqual({
      lines: [{ line: 0, quantityMilli: 1_000, amount: 3_333, tax: 508 }],
      amount: 3_333,
      tax: 508,
    });
  });

  it('returns exactly the line total over refunds made in several steps', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 10 }),
        (total, pieces, steps) => {
          let line = makeLine({ quantityMilli: pieces * 1_000, total, tax: Math.floor(total / 7) });
          let amount = 0;
          let tax = 0;
          for (const step of steps) {
            const left = (line.quantityMilli - line.refundedQuantityMilli) / 1_000;
            if (left === 0) break;
            const quantityMilli = Math.min(step, left) * 1_000;
            const plan = planRefund([line], [{ line: 0, quantityMilli }]);
            amount += plan.amount;
            tax += plan.tax;
            line = { ...line, refundedQuantityMilli: line.refundedQuantityMilli + quantityMilli };
          }
          const rest = remainingRefundLines([line]);
          if (rest.length > 0) {
            const plan = planRefund([line], rest);
            amount += plan.amount;
            tax += plan.tax;
          }
          expect(amount).toBe(line.total);
          expect(tax).toBe(line.tax);
        },
      ),
    );
  });

  it('refuses unknown or repeated lines, bad quantities and more than is left, naming the request line', () => {
    const lines = [makeLine(), makeLine({ unit: 'kg', quantityMilli: 750, refundedQuantityMilli: 500 })];
    const fails = (request: Parameters<typeof planRefund>[1], field: string, code: string) =>
      expect(() => planRefund(lines, request)).toThrow(
        expect.objectContaining({ code, details: { [field]: expect.any(String) } }),
      );
    fails([], 'lines', 'parameter_missing');
    fails([{ line: 2, quantityMilli: 1_000 }], 'lines[0].line', 'parameter_invalid');
    fails(
      [
        { line: 0, quantityMilli: 1_000 },
        { line: 0, quantityMilli: 1_000 },
      ],
      'lines[1].line',
      'parameter_invalid',
    );
    fails([{ line: 0, quantityMilli: 0 }], 'lines[0].quantityMilli', 'quantity_invalid');
    fails([{ line: 0, quantityMilli: 1_500 }], 'lines[0].quantityMilli', 'quantity_invalid');
    fails([{ line: 1, quantityMilli: 251 }], 'lines[0].quantityMilli', 'quantity_invalid');
    expect(planRefund(lines, [{ line: 1, quantityMilli: 250 }]).lines[0]?.quantityMilli).toBe(250);
  });
});

describe('remainingRefundLines', () => {
  it('lists what is left on each line and skips fully refunded lines', () => {
    expect(
      remainingRefundLines([
        makeLine({ refundedQuantityMilli: 3_000 }),
        makeLine({ refundedQuantityMilli: 1_000 }),
      ]),
    ).toEqual([{ line: 1, quantityMilli: 2_000 }]);
  });
});

describe('statusAfterRefundPlan', () => {
  it('is refunded only when every line, free ones included, is wholly given back', () => {
    const lines = [makeLine(), makeLine({ total: 0, tax: 0, quantityMilli: 1_000 })];
    const first = planRefund(lines, [{ line: 0, quantityMilli: 3_000 }]);
    expect(statusAfterRefundPlan(lines, first)).toBe('partially_refunded');
    expect(statusAfterRefundPlan(lines, planRefund(lines, remainingRefundLines(lines)))).toBe('refunded');
  });
});
