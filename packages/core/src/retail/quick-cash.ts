/**
 * The quick-cash buttons of the payment dialog: the exact amount due, then the
 * next round amounts a customer is likely to hand over (the next multiple of
 * each step at or above the amount), smallest first, each once, at most
 * `QUICK_CASH_MAX` in all.
 *
 * Steps are per currency, in its smallest unit; a currency without steps gets
 * the exact amount alone.
 */
import type { Currency } from '../money.ts';

/** Tanzanian shilling notes and the round sums of them customers hand over. */
export const QUICK_CASH_STEPS: Partial<Record<Currency, readonly number[]>> = {
  TZS: [1_000, 2_000, 5_000, 10_000, 20_000],
};

export const QUICK_CASH_MAX = 5;

const MAX_AMOUNT = 999_999_999_999;

export function quickCashAmounts(due: number, currency: Currency): number[] {
  if (!Number.isSafeInteger(due) || due <= 0) return [];
  const amounts = [due];
  for (const step of QUICK_CASH_STEPS[currency] ?? []) {
    const next = Math.ceil(due / step) * step;
    if (next <= MAX_AMOUNT && !amounts.includes(next)) amounts.push(next);
  }
  return amounts.sort((a, b) => a - b).slice(0, QUICK_CASH_MAX);
}
