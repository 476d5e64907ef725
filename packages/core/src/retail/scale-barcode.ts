/**
 * Scale labels: the EAN-13 barcodes a shop's weighing scale prints for goods
 * weighed or priced at the counter (GS1 restricted circulation numbers, 20 to
 * 29). A label reads `PP IIIII VVVVV C`: a two-digit prefix that says what the
 * value is (a weight or a price), the item code the scale knows the product
 * by (its PLU), the value, and the EAN-13 check digit; some scales put a
 * price check digit (GS1's "price/weight check digit") between the item code
 * and the value. Which prefixes carry a weight and which a price, how long the
 * item code is and how a product is found by it are the store's setting
 * (`ScaleBarcodeFormat`), as on Loyverse, Odoo and Square.
 *
 * A weight is in thousandths of the product's unit (grams for kg); a price is
 * in the store currency's smallest unit (whole shillings for TZS).
 */
import { z } from 'zod';
import { mulDivHalfUp } from './integer-math.ts';
import type { QuantityUnit } from './pricing.ts';

export const SCALE_PREFIXES = ['20', '21', '22', '23', '24', '25', '26', '27', '28', '29'] as const;
export type ScalePrefix = (typeof SCALE_PREFIXES)[number];

/** How a label's item code finds its product: its `plu`, its SKU, or its barcode with the value as zeros. */
export const SCALE_MATCHES = ['plu', 'sku', 'barcode'] as const;
export type ScaleMatch = (typeof SCALE_MATCHES)[number];

/** A PLU as stored: 1 to 6 digits, no leading zero (`00123` on a label is PLU `123`). */
export const PLU_PATTERN = /^[1-9][0-9]{0,5}$/;

/** A PLU as given: 1 to 6 digits, leading zeros dropped (`"00123"` is stored as `"123"`). */
export const pluSchema = z
  .string({ error: 'must be a string of 1 to 6 digits' })
  .trim()
  .regex(/^[0-9]{1,6}$/, { error: 'must be 1 to 6 digits' })
  .transform((value) => value.replace(/^0+/, ''))
  .refine((value) => PLU_PATTERN.test(value), { error: 'must not be zero' })
  .describe(
    'The item code the store’s scale prints on its labels (1 to 6 digits; leading zeros are dropped); unique per account and mode',
  );

export interface ScaleBarcodeFormat {
  /** Labels starting with one of these carry a weight. */
  weight_prefixes: ScalePrefix[];
  /** Labels starting with one of these carry a price. */
  price_prefixes: ScalePrefix[];
  /** Digits of the item code after the prefix (4 to 6). */
  item_code_digits: number;
  /** Whether a price/weight check digit sits between the item code and the value. */
  price_check_digit: boolean;
  match_by: ScaleMatch;
}

/**
 * What works for a scale printing `21 PPPPP WWWWW C` (weight in grams) or
 * `22 PPPPP $$$$$ C` (price) with nothing set: 20 and 21 carry a weight, 22
 * and 23 a price; 24 to 29 stay ordinary barcodes until the shop says
 * otherwise.
 */
export const DEFAULT_SCALE_BARCODE_FORMAT: ScaleBarcodeFormat = {
  weight_prefixes: ['20', '21'],
  price_prefixes: ['22', '23'],
  item_code_digits: 5,
  price_check_digit: false,
  match_by: 'plu',
};

/** Digits of the value a format leaves: 13 less the prefix, item code, check digits. */
export function valueDigits(format: Pick<ScaleBarcodeFormat, 'item_code_digits' | 'price_check_digit'>) {
  return 13 - 2 - format.item_code_digits - (format.price_check_digit ? 1 : 0) - 1;
}

const prefixList = z
  .array(z.enum(SCALE_PREFIXES, { error: 'must be a two-digit prefix from 20 to 29' }))
  .max(10)
  .refine((list) => new Set(list).size === list.length, { error: 'must not repeat a prefix' });

export const scaleBarcodeFormatSchema = z
  .strictObject({
    weight_prefixes: prefixList.describe('Label prefixes whose value is a weight (thousandths of the unit)'),
    price_prefixes: prefixList.describe(
      'Label prefixes whose value is a price (the currency’s smallest unit)',
    ),
    item_code_digits: z
      .number({ error: 'must be 4, 5 or 6' })
      .int({ error: 'must be 4, 5 or 6' })
      .min(4, { error: 'must be 4, 5 or 6' })
      .max(6, { error: 'must be 4, 5 or 6' })
      .describe('Digits of the item code after the prefix'),
    price_check_digit: z
      .boolean()
      .describe('Whether a price/weight check digit sits between the item code and the value'),
    match_by: z
      .enum(SCALE_MATCHES)
      .describe(
        '`plu`: the product whose `plu` is the item code; `sku`: whose SKU is (digits, leading zeros ignored); `barcode`: whose barcode is the label with the value as zeros',
      ),
  })
  .superRefine((format, ctx) => {
    for (const prefix of format.price_prefixes) {
      if (format.weight_prefixes.includes(prefix)) {
        ctx.addIssue({
          code: 'custom',
          path: ['price_prefixes'],
          message: `${prefix} is already a weight prefix: a prefix means weight or price, not both`,
        });
      }
    }
    const digits = valueDigits(format);
    const allowed = format.price_check_digit ? [4, 5] : [4, 5, 6];
    // An item code of the wrong length is said once, by its own rule.
    if ([4, 5, 6].includes(format.item_code_digits) && !allowed.includes(digits)) {
      ctx.addIssue({
        code: 'custom',
        path: ['item_code_digits'],
        message: `leaves ${digits} digits for the value; ${format.price_check_digit ? 'with a price check digit the value must have 4 or 5' : 'it must have 4 to 6'}`,
      });
    }
  });

// ------------------------------------------------------------ check digits

const digitsOf = (text: string) => [...text].map(Number);

/** The EAN-13 check digit of its first twelve digits (weights 1 and 3 from the left). */
export function ean13CheckDigit(first12: string): number {
  const sum = digitsOf(first12).reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 1 : 3), 0);
  return (10 - (sum % 10)) % 10;
}

/** Thirteen digits whose last is their check digit. */
export function isValidEan13(code: string): boolean {
  return /^[0-9]{13}$/.test(code) && ean13CheckDigit(code.slice(0, 12)) === Number(code[12]);
}

/** GS1's weighting factor tables for the price/weight check digit, digit → product. */
const WEIGHTING = {
  '2-': [0, 2, 4, 6, 8, 9, 1, 3, 5, 7],
  '3': [0, 3, 6, 9, 2, 5, 8, 1, 4, 7],
  '5+': [0, 5, 1, 6, 2, 7, 3, 8, 4, 9],
  '5-': [0, 5, 9, 4, 8, 3, 7, 2, 6, 1],
} as const;

/**
 * The price/weight check digit of a 4- or 5-digit value (GS1 General
 * Specifications, "check digit calculation for price/weight fields"). Four
 * digits: weights 2-, 2-, 3, 5-, the products summed, times 3, the units
 * digit. Five digits: weights 5+, 2-, 5-, 5+, 2-, the products summed, taken
 * from the next multiple of ten, and the digit whose 5- product that is.
 */
export function priceCheckDigit(value: string): number {
  const digits = digitsOf(value);
  if (digits.length === 4) {
    const factors = ['2-', '2-', '3', '5-'] as const;
    const sum = digits.reduce((total, digit, index) => total + WEIGHTING[factors[index]!][digit]!, 0);
    return (sum * 3) % 10;
  }
  if (digits.length === 5) {
    const factors = ['5+', '2-', '5-', '5+', '2-'] as const;
    const sum = digits.reduce((total, digit, index) => total + WEIGHTING[factors[index]!][digit]!, 0);
    const wanted = (10 - (sum % 10)) % 10;
    return WEIGHTING['5-'].indexOf(wanted as (typeof WEIGHTING)['5-'][number]);
  }
  throw new RangeError('a price check digit covers 4 or 5 digits');
}

// ------------------------------------------------------------------ labels

export interface ScaleLabel {
  kind: 'weight' | 'price';
  /** The item code as printed (`00123`). */
  itemCode: string;
  /** Thousandths of the product's unit for a weight; the currency's smallest unit for a price. */
  value: number;
  /** The label with its value (and price check digit) as zeros and the check digit made again: Odoo's product barcode. */
  baseBarcode: string;
}

export type ScaleLabelParse =
  | { ok: true; label: ScaleLabel }
  | { ok: false; problem: 'check_digit' | 'price_check_digit' | 'value_zero' };

/**
 * Reads a scanned code as a scale label of this format: null when it is not
 * one (not 13 digits, or its prefix carries neither a weight nor a price), so
 * it is an ordinary barcode; a problem when it is one but cannot be trusted.
 */
export function parseScaleBarcode(code: string, format: ScaleBarcodeFormat): ScaleLabelParse | null {
  if (!/^2[0-9]{12}$/.test(code)) return null;
  const prefix = code.slice(0, 2) as ScalePrefix;
  const kind = format.weight_prefixes.includes(prefix)
    ? 'weight'
    : format.price_prefixes.includes(prefix)
      ? 'price'
      : null;
  if (kind === null) return null;
  if (!isValidEan13(code)) return { ok: false, problem: 'check_digit' };
  const itemEnd = 2 + format.item_code_digits;
  const valueStart = itemEnd + (format.price_check_digit ? 1 : 0);
  const valueText = code.slice(valueStart, 12);
  if (format.price_check_digit && priceCheckDigit(valueText) !== Number(code[itemEnd])) {
    return { ok: false, problem: 'price_check_digit' };
  }
  const value = Number(valueText);
  if (value === 0) return { ok: false, problem: 'value_zero' };
  const zeroed = code.slice(0, itemEnd) + '0'.repeat(12 - itemEnd);
  return {
    ok: true,
    label: {
      kind,
      itemCode: code.slice(2, itemEnd),
      value,
      baseBarcode: zeroed + String(ean13CheckDigit(zeroed)),
    },
  };
}

/** An item code or a numeric SKU as a PLU (`00123` → `123`); null when it is not digits or all zeros. */
export function pluKey(code: string): string | null {
  if (!/^[0-9]{1,13}$/.test(code)) return null;
  const key = code.replace(/^0+/, '');
  return key === '' ? null : key;
}

export type LabelQuantity =
  | { ok: true; quantityMilli: number }
  | { ok: false; problem: 'weight_on_piece' | 'price_not_whole_pieces' | 'quantity_zero' };

/**
 * The quantity a label sells of a product, in thousandths. A weight is the
 * quantity. A price is divided by the unit price: for goods by weight,
 * rounded to the nearest thousandth, halves up (`(2·price·1000 + unit) ÷
 * (2·unit)` in integers), which gives back the grams the scale weighed when
 * the scale and the catalogue agree on the price per kg; for pieces it must
 * be a whole number of them. A weight on a product sold by the piece, or a
 * price below half a thousandth's worth, sells nothing.
 */
export function labelQuantityMilli(
  label: Pick<ScaleLabel, 'kind' | 'value'>,
  product: { unit: QuantityUnit; price: number },
): LabelQuantity {
  if (label.kind === 'weight') {
    return product.unit === 'piece'
      ? { ok: false, problem: 'weight_on_piece' }
      : { ok: true, quantityMilli: label.value };
  }
  if (product.price <= 0) return { ok: false, problem: 'quantity_zero' };
  if (product.unit === 'piece') {
    return label.value % product.price === 0
      ? { ok: true, quantityMilli: (label.value / product.price) * 1000 }
      : { ok: false, problem: 'price_not_whole_pieces' };
  }
  const quantityMilli = mulDivHalfUp(label.value, 1000, product.price);
  return quantityMilli === 0 ? { ok: false, problem: 'quantity_zero' } : { ok: true, quantityMilli };
}
