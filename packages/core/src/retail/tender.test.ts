import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import type { PaymentId } from '../ids.ts';
import { allocateTenders, mobileMoneyTenderProblem } from './tender.ts';
import type { TenderInput, TenderRequest } from './tender.ts';

const paymentId = 'pay_01jabc' as PaymentId;
const cash = (amount: number): TenderInput => ({ method: 'cash', amount });
const mobile = (amount: number): TenderInput => ({
  method: 'mobile_money',
  amount,
  paymentId,
  network: 'mpesa',
});
const card = (amount: number): TenderInput => ({ method: 'card', amount, reference: 'AUTH-8812' });

function request(amountDue: number, tenders: TenderInput[]): TenderRequest {
  return { currency: 'TZS', amountDue, tenders };
}

function appErrorOf(action: () => unknown): AppError {
  try {
    action();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('allocateTenders', () => {
  it('gives change from cash', () => {
    const result = allocateTenders(request(7_500, [cash(10_000)]));
    expect(result).toMatchObject({ cashGiven: 10_000, change: 2_500, tendered: 10_000 });
    expect(result.tenders[0]?.paid).toBe(7_500);
  });

  it('takes mobile money exactly', () => {
    const result = allocateTenders(request(7_500, [mobile(7_500)]));
    expect(result.change).toBe(0);
    expect(result.tenders[0]).toMatchObject({ method: 'mobile_money', amount: 7_500, paid: 7_500 });
  });

  it('lets cash cover what mobile money and card leave, wherever the cash is listed', () => {
    const result = allocateTenders(request(20_000, [cash(10_000), mobile(5_000), card(8_000)]));
    expect(result.tenders.map((tender) => tender.paid)).toEqual([7_000, 5_000, 8_000]);
    expect(result.change).toBe(3_000);
  });

  it('spreads change-giving over several cash tenders in order', () => {
    const result = allocateTenders(request(1_500, [cash(1_000), cash(1_000)]));
    expect(result.tenders.map((tender) => tender.paid)).toEqual([1_000, 500]);
    expect(result.change).toBe(500);
  });

  it('refuses mobile money or card above what is due', () => {
    const overMobile = appErrorOf(() => allocateTenders(request(5_000, [mobile(5_001)])));
    expect(overMobile.code).toBe('tender_exceeds_due');
    expect(overMobile.details).toHaveProperty(['tenders[0].amount']);
    const overTogether = appErrorOf(() =>
      allocateTenders(request(5_000, [cash(1_000), card(3_000), mobile(2_500)])),
    );
    expect(overTogether.details).toHaveProperty(['tenders[2].amount']);
  });

  it('refuses tenders short of the total', () => {
    const error = appErrorOf(() => allocateTenders(request(5_000, [mobile(2_000), cash(2_500)])));
    expect(error.code).toBe('tender_insufficient');
    expect(error.details).toEqual({ tenders: 'short by 500' });
    expect(appErrorOf(() => allocateTenders(request(1, []))).code).toBe('tender_insufficient');
  });

  it('settles a zero total with no tenders', () => {
    expect(allocateTenders(request(0, []))).toMatchObject({ change: 0, tenders: [] });
  });

  it('refuses bad tenders, naming the field', () => {
    expect(appErrorOf(() => allocateTenders(request(100, [cash(0)]))).details).toHaveProperty([
      'tenders[0].amount',
    ]);
    expect(appErrorOf(() => allocateTenders(request(100, [cash(10.5)]))).code).toBe('amount_invalid');
    const wrongId = appErrorOf(() =>
      allocateTenders(
        request(100, [{ method: 'mobile_money', amount: 100, paymentId: 'ord_1' as PaymentId }]),
      ),
    );
    expect(wrongId.details).toHaveProperty(['tenders[0].paymentId']);
    const noReference = appErrorOf(() =>
      allocateTenders(request(100, [{ method: 'card', amount: 100, reference: '' }])),
    );
    expect(noReference.code).toBe('parameter_missing');
    const otherCurrency = appErrorOf(() =>
      allocateTenders(request(100, [{ method: 'cash', amount: 100, currency: 'KES' }])),
    );
    expect(otherCurrency.code).toBe('currency_mismatch');
    expect(otherCurrency.details).toHaveProperty(['tenders[0].currency']);
  });

  const tenderArb: fc.Arbitrary<TenderInput> = fc.oneof(
    fc.integer({ min: 1, max: 100_000 }).map(cash),
    fc.integer({ min: 1, max: 100_000 }).map(mobile),
    fc.integer({ min: 1, max: 100_000 }).map(card),
  );

  it('pays exactly what is due, with change only from cash, or refuses', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300_000 }),
        fc.array(tenderArb, { maxLength: 5 }),
        (amountDue, tenders) => {
          const nonCash = tenders.filter((t) => t.method !== 'cash').reduce((s, t) => s + t.amount, 0);
          const everything = tenders.reduce((s, t) => s + t.amount, 0);
          let result;
          try {
            result = allocateTenders(request(amountDue, tenders));
          } catch (error) {
            expect(error).toBeInstanceOf(AppError);
            const code = (error as AppError).code;
            if (nonCash > amountDue) expect(code).toBe('tender_exceeds_due');
            else {
              expect(code).toBe('tender_insufficient');
              expect(everything).toBeLessThan(amountDue);
            }
            return;
          }
          expect(nonCash).toBeLessThanOrEqual(amountDue);
          expect(everything).toBeGreaterThanOrEqual(amountDue);
          expect(result.tenders.reduce((s, t) => s + t.paid, 0)).toBe(amountDue);
          expect(result.change).toBe(everything - amountDue);
          expect(result.change).toBeLessThanOrEqual(result.cashGiven);
          for (const tender of result.tenders) {
            expect(tender.paid).toBeGreaterThanOrEqual(0);
            expect(tender.paid).toBeLessThanOrEqual(tender.amount);
            if (tender.method !== 'cash') expect(tender.paid).toBe(tender.amount);
          }
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

describe('a mobile money tender’s payment', () => {
  const paid = { status: 'paid', currency: 'TZS', amount: 5_000 };

  it('pays when it is paid, in the order’s currency, unused, for its own amount', () => {
    expect(mobileMoneyTenderProblem(paid, 'TZS', 5_000)).toBeNull();
    expect(mobileMoneyTenderProblem(paid, 'TZS', undefined)).toBeNull();
  });

  it('says what is wrong, the first thing first', () => {
    const problem = (payment: Partial<typeof paid> & { used?: boolean }, amount?: number) =>
      mobileMoneyTenderProblem({ ...paid, ...payment }, 'TZS', amount);
    expect(problem({ status: 'pending', currency: 'KES' })).toMatchObject({
      code: 'payment_not_paid',
      field: 'payment',
    });
    expect(problem({ currency: 'KES', used: true })).toMatchObject({ code: 'currency_mismatch' });
    expect(problem({ used: true }, 4_000)).toMatchObject({ code: 'payment_already_used' });
    expect(problem({}, 4_000)).toEqual({
      code: 'amount_invalid',
      field: 'amount',
      message: "must equal the payment's amount (5000)",
    });
  });
});
