/** The office's one reading of a typed amount of money ("12,500"). */
import { ApiError } from './api.ts';
import { parseAmount } from './shared.ts';

/**
 * What a person typed as an amount as the integer the API takes. A typo is
 * refused here as the API would refuse it, so the message names the field.
 */
export function typedAmount(
  text: string,
  field = 'amount',
  {
    zero = false,
    reason = 'must be a positive amount, such as 12,500',
    currency = 'TZS',
  }: {
    /** Whether 0 is an amount (a free product's price). */
    zero?: boolean;
    /** Said beside the field. */
    reason?: string;
    currency?: string;
  } = {},
): number {
  const amount = parseAmount(text.trim(), currency);
  if (amount === null || amount < 0 || (amount === 0 && !zero))
    throw new ApiError(400, 'parameter_invalid', `Invalid ${field}`, { [field]: reason });
  return amount;
}
