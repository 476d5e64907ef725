import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EAST_AFRICA_OFFSET_MS } from '../time.ts';
import { billingPeriod, periodBoundary, type BillingCycle } from './period.ts';

/** A moment given as East Africa wall time. */
const eat = (iso: string): Date => new Date(`${iso}+03:00`);
const monthly: BillingCycle = { interval: 'month', intervalCount: 1 };

describe('billing periods', () => {
  it('rolls a 31 January anchor to the last day of shorter months and back to the 31st', () => {
    const anchor = eat('2027-01-31T10:00:00');
    const starts = [0, 1, 2, 3, 4, 12, 13].map((n) => periodBoundary(anchor, monthly, n));
    expect(starts).toEqual([
      eat('2027-01-31T10:00:00'),
      eat('2027-02-28T10:00:00'),
      eat('2027-03-31T10:00:00'),
      eat('2027-04-30T10:00:00'),
      eat('2027-05-31T10:00:00'),
      eat('2028-01-31T10:00:00'),
      eat('2028-02-29T10:00:00'),
    ]);
  });

  it('counts month ends in East Africa Time, not UTC', () => {
    // 00:30 on 31 January in Dar es Salaam is still 30 January in UTC.
    const anchor = eat('2027-01-31T00:30:00');
    expect(periodBoundary(anchor, monthly, 2)).toEqual(eat('2027-03-31T00:30:00'));
  });

  it('keeps a 29 February yearly anchor on 28 February in common years', () => {
    const anchor = eat('2028-02-29T09:00:00');
    const yearly: BillingCycle = { interval: 'year', intervalCount: 1 };
    expect([1, 4].map((n) => periodBoundary(anchor, yearly, n))).toEqual([
      eat('2029-02-28T09:00:00'),
      eat('2032-02-29T09:00:00'),
    ]);
  });

  it('steps days, weeks and multi-month intervals', () => {
    const anchor = eat('2027-11-30T12:00:00');
    expect(periodBoundary(anchor, { interval: 'day', intervalCount: 3 }, 2)).toEqual(
      eat('2027-12-06T12:00:00'),
    );
    expect(periodBoundary(anchor, { interval: 'week', intervalCount: 2 }, 1)).toEqual(
      eat('2027-12-14T12:00:00'),
    );
    expect(billingPeriod(anchor, { interval: 'month', intervalCount: 3 }, 0)).toEqual({
      start: eat('2027-11-30T12:00:00'),
      end: eat('2028-02-29T12:00:00'),
    });
  });

  it('never drifts: each boundary keeps the anchor’s time and, where the month has it, its day', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2100-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 120 }),
        (anchor, intervalCount, n) => {
          const cycle: BillingCycle = { interval: 'month', intervalCount };
          const local = (d: Date) => new Date(d.getTime() + EAST_AFRICA_OFFSET_MS);
          const boundary = local(periodBoundary(anchor, cycle, n));
          const start = local(anchor);
          expect(boundary.getUTCHours()).toBe(start.getUTCHours());
          expect(boundary.getUTCMinutes()).toBe(start.getUTCMinutes());
          const lastDay = new Date(
            Date.UTC(boundary.getUTCFullYear(), boundary.getUTCMonth() + 1, 0),
          ).getUTCDate();
          expect(boundary.getUTCDate()).toBe(Math.min(start.getUTCDate(), lastDay));
          const months =
            (boundary.getUTCFullYear() - start.getUTCFullYear()) * 12 +
            boundary.getUTCMonth() -
            start.getUTCMonth();
          expect(months).toBe(n * intervalCount);
          expect(periodBoundary(anchor, cycle, n + 1).getTime()).toBeGreaterThan(
            periodBoundary(anchor, cycle, n).getTime(),
          );
        },
      ),
    );
  });
});
