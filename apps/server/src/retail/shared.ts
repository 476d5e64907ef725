import { AppError, type ErrorDetails } from '@tz/core';

/** Core rules name fields as they are called in code (`lines[2].quantityMilli`); the API names them as sent. */
const WIRE_NAMES: Record<string, string> = {
  productId: 'product',
  variantId: 'variant',
  quantityMilli: 'quantity',
  priceOverride: 'price_override',
  unitPrice: 'unit_price',
  basisPoints: 'basis_points',
  orderDiscount: 'discount',
  paymentId: 'payment',
  taxRateBasisPoints: 'product',
  taxClass: 'product',
  amountDue: 'tenders',
  vatRegion: 'store',
};

export function wireField(field: string): string {
  return field
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .map((part) => WIRE_NAMES[part] ?? part)
    .join('.');
}

/** Runs a core rule; its field errors come back under the request's own field names. */
export function applyRule<T>(rule: () => T, prefix = ''): T {
  try {
    return rule();
  } catch (error) {
    if (!(error instanceof AppError) || !error.details) throw error;
    const details: ErrorDetails = {};
    for (const [field, message] of Object.entries(error.details))
      details[prefix + wireField(field)] = message;
    throw new AppError(error.code, error.message, { details });
  }
}

export const invalid = (code: ConstructorParameters<typeof AppError>[0], field: string, message: string) =>
  new AppError(code, `${field}: ${message}`, { details: { [field]: message } });
