/** The office's one reading of a typed amount of money ("12,500"): core's, as the catalogue CSV reads it. */
import { AMOUNT_PROBLEMS, readAmount } from '@tz/core';
import { ApiError } from './api.ts';

/**
 * What a person typed as an amount as the integer the API takes. A typo is
 * refused here as the API would refuse it, so the message names the field.
 */
export function typedAmount(
  text: string,
  field = 'amount',
  {
    zero = false,
    reason,
    currency = 'TZS',
  }: {
    /** Whether 0 is an amount (a free product's price). */
    zero?: boolean;
    /** Said beside the field, in place of core's reason. */
    reason?: string;
    currency?: string;
  } = {},
): number {
  const read = readAmount(text, currency);
  if ('amount' in read && (read.amount > 0 || zero)) return read.amount;
  const why = 'problem' in read ? AMOUNT_PROBLEMS[read.problem] : 'must be more than 0';
  throw new ApiError(400, 'parameter_invalid', `Invalid ${field}`, { [field]: reason ?? why });
}
