/**
 * Cart pricing, shared by the till (offline) and the server, so both reach the
 * same totals to the shilling.
 *
 * Every price is tax-inclusive and an integer in the currency's smallest unit.
 * Quantities are integer thousandths (`quantityMilli`: 1 piece = 1000,
 * 0.750 kg = 750), so nothing is ever a float.
 *
 * Rounding rule (all rounding is half up, on exact integers):
 *  1. gross          = round(unitPrice × quantityMilli / 1000)
 *  2. line discount  = round(gross × basisPoints / 10000), or the given amount
 *     (never above the gross); line subtotal = gross − line discount
 *  3. order discount = round(cart subtotal × basisPoints / 10000), or the given
 *     amount (never above the subtotal), spread over the lines in proportion
 *     to their subtotals by largest remainder, so the shares sum to it exactly
 *     and no line goes below zero; line total = subtotal − share
 *  4. VAT is extracted once per rate from the tax-inclusive total of that
 *     rate's lines: tax = round(gross × rate / (10000 + rate)),
 *     net = gross − tax. Each rate's tax is then spread over its lines by
 *     largest remainder, so line taxes sum to the rate's tax exactly.
 *
 * Hence: the line totals sum to the cart total, and the tax breakdown
 * (net + tax over all rates) sums to the cart total, with no drift.
 */
import { AppError, invalidField } from '../errors.ts';
import type { Id } from '../ids.ts';
import { hasPrefix } from '../ids.ts';
import { MAX_AMOUNT, isCurrency } from '../money.ts';
import type { Currency } from '../money.ts';
import { allocateProportionally, mulDivHalfUp } from './integer-math.ts';
import { vatRateFor, type TaxClass, type VatRegion } from './tax.ts';

export type ProductId = Id<'product'>;
export type VariantId = Id<'variant'>;

/** How a line's quantity is counted; pieces are whole, the others are measured. */
export type QuantityUnit = 'piece' | 'kg' | 'litre' | 'metre';
export const QUANTITY_UNITS = ['piece', 'kg', 'litre', 'metre'] as const satisfies readonly QuantityUnit[];

/**
 * The number of items a cashier and a customer count: pieces one each, and a
 * weighed or measured line (1.25 kg of sugar) one item.
 */
export function itemCount(lines: ReadonlyArray<{ unit: QuantityUnit; quantityMilli: number }>): number {
  return lines.reduce(
    (count, line) => count + (line.unit === 'piece' ? Math.round(line.quantityMilli / 1000) : 1),
    0,
  );
}

/** Largest quantity on one line: one million units. */
export const MAX_QUANTITY_MILLI = 1_000_000_000;

export type Discount =
  { type: 'percent'; /** 1000 = 10% */ basisPoints: number } | { type: 'amount'; amount: number };

/** A cashier's price change; the reason is kept for the audit trail. */
export interface PriceOverride {
  unitPrice: number;
  reason: string;
}

export interface CartLineInput {
  productId: ProductId;
  variantId?: VariantId | undefined;
  description: string;
  /** Catalogue price per unit, tax included. */
  unitPrice: number;
  /** Currency of the catalogue price, when known; must match the cart's. */
  currency?: Currency | undefined;
  /** Defaults to 'piece'. */
  unit?: QuantityUnit | undefined;
  quantityMilli: number;
  /** An explicit rate: 1800 = 18%, 1500 = 15%, 0 = exempt. Give this or `taxClass`. */
  taxRateBasisPoints?: number | undefined;
  /** The catalogue's tax class, resolved against the cart's `vatRegion`. */
  taxClass?: TaxClass | undefined;
  priceOverride?: PriceOverride | undefined;
  discount?: Discount | undefined;
}

export interface CartInput {
  currency: Currency;
  /** Where the sale happens; needed by lines that give a `taxClass`. */
  vatRegion?: VatRegion | undefined;
  lines: readonly CartLineInput[];
  orderDiscount?: Discount | undefined;
}

export interface PricedLine {
  productId: ProductId;
  variantId?: VariantId;
  description: string;
  unit: QuantityUnit;
  quantityMilli: number;
  taxRateBasisPoints: number;
  /** The tax class the rate came from, when the line gave one. */
  taxClass?: TaxClass;
  /** Catalogue price per unit. */
  listUnitPrice: number;
  /** Price charged per unit: the override when there is one. */
  unitPrice: number;
  priceOverride?: PriceOverride;
  discountRule?: Discount;
  /** unitPrice × quantity, rounded. */
  gross: number;
  lineDiscount: number;
  /** gross − lineDiscount. */
  subtotal: number;
  /** This line's share of the order discount. */
  orderDiscount: number;
  /** subtotal − orderDiscount, tax included: what the customer pays for the line. */
  total: number;
  /** VAT contained in `total`. */
  tax: number;
  /** total − tax. */
  net: number;
}

export interface TaxBreakdownLine {
  rateBasisPoints: number;
  /** Tax-inclusive total of the lines at this rate. */
  gross: number;
  net: number;
  tax: number;
}

export interface PricedCart {
  currency: Currency;
  /** The region tax classes were resolved against, when the cart gave one. */
  vatRegion?: VatRegion;
  lines: PricedLine[];
  /** Sum of line gross amounts, before any discount. */
  grossTotal: number;
  lineDiscountTotal: number;
  /** Sum of line subtotals: after line discounts, before the order discount. */
  subtotal: number;
  orderDiscountRule?: Discount;
  orderDiscount: number;
  /** subtotal − orderDiscount, tax included. */
  total: number;
  taxTotal: number;
  netTotal: number;
  /** One entry per rate present, highest rate first. */
  taxBreakdown: TaxBreakdownLine[];
}

const isWholeNumber = (value: unknown): value is number => Number.isSafeInteger(value);

function requireAmount(value: number, field: string, what: string): void {
  if (!isWholeNumber(value) || value < 0) {
    throw invalidField(
      'amount_invalid',
      field,
      `${what} must be a non-negative integer in the currency's smallest unit`,
    );
  }
  if (value > MAX_AMOUNT)
    throw invalidField('amount_invalid', field, `${what} must be at most ${MAX_AMOUNT}`);
}

function requireBasisPoints(
  value: number,
  field: string,
  code: 'discount_invalid' | 'parameter_invalid',
): void {
  if (!isWholeNumber(value) || value < 0 || value > 10_000) {
    throw invalidField(code, field, 'must be an integer number of basis points from 0 to 10000');
  }
}

/** The discount an order or line gets from its rule, checked against what it applies to. */
function discountAmount(rule: Discount | undefined, base: number, field: string): number {
  if (rule === undefined) return 0;
  switch (rule.type) {
    case 'percent':
      requireBasisPoints(rule.basisPoints, `${field}.basisPoints`, 'discount_invalid');
      return mulDivHalfUp(base, rule.basisPoints, 10_000);
    case 'amount':
      if (!isWholeNumber(rule.amount) || rule.amount < 0) {
        throw invalidField('discount_invalid', `${field}.amount`, 'must be a non-negative integer');
      }
      if (rule.amount > base) {
        throw invalidField(
          'discount_invalid',
          `${field}.amount`,
          `must not exceed the amount it discounts (${base})`,
        );
      }
      return rule.amount;
    default:
      throw invalidField('discount_invalid', `${field}.type`, "must be 'percent' or 'amount'");
  }
}

interface LineBeforeOrderDiscount {
  input: CartLineInput;
  unit: QuantityUnit;
  taxRateBasisPoints: number;
  unitPrice: number;
  gross: number;
  lineDiscount: number;
  subtotal: number;
}

function priceLine(
  input: CartLineInput,
  index: number,
  currency: Currency,
  vatRegion: VatRegion | undefined,
): LineBeforeOrderDiscount {
  const at = `lines[${index}]`;
  if (!hasPrefix('product', input.productId)) {
    throw invalidField('parameter_invalid', `${at}.productId`, 'must be a product id (prod_...)');
  }
  if (input.variantId !== undefined && !hasPrefix('variant', input.variantId)) {
    throw invalidField('parameter_invalid', `${at}.variantId`, 'must be a variant id (var_...)');
  }
  if (input.description.trim() === '')
    throw invalidField('parameter_missing', `${at}.description`, 'is required');
  if (input.currency !== undefined && input.currency !== currency) {
    throw invalidField(
      'currency_mismatch',
      `${at}.currency`,
      `is ${input.currency} but the cart is in ${currency}`,
    );
  }

  const unit = input.unit ?? 'piece';
  if (!QUANTITY_UNITS.includes(unit)) {
    throw invalidField('parameter_invalid', `${at}.unit`, `must be one of ${QUANTITY_UNITS.join(', ')}`);
  }
  const quantity = input.quantityMilli;
  if (!isWholeNumber(quantity) || quantity <= 0) {
    throw invalidField(
      'quantity_invalid',
      `${at}.quantityMilli`,
      'must be greater than zero, in thousandths of a unit',
    );
  }
  if (quantity > MAX_QUANTITY_MILLI) {
    throw invalidField(
      'quantity_invalid',
      `${at}.quantityMilli`,
      `must be at most ${MAX_QUANTITY_MILLI / 1000} units`,
    );
  }
  if (unit === 'piece' && quantity % 1000 !== 0) {
    throw invalidField('quantity_invalid', `${at}.quantityMilli`, 'pieces must be whole');
  }
  const taxRateBasisPoints = lineTaxRate(input, at, vatRegion);

  requireAmount(input.unitPrice, `${at}.unitPrice`, 'the unit price');
  let unitPrice = input.unitPrice;
  if (input.priceOverride !== undefined) {
    requireAmount(input.priceOverride.unitPrice, `${at}.priceOverride.unitPrice`, 'the override price');
    if (input.priceOverride.reason.trim() === '') {
      throw invalidField(
        'parameter_missing',
        `${at}.priceOverride.reason`,
        'a price override needs a reason',
      );
    }
    unitPrice = input.priceOverride.unitPrice;
  }

  const gross = mulDivHalfUp(unitPrice, quantity, 1000);
  if (gross > MAX_AMOUNT)
    throw invalidField('amount_invalid', at, `the line amount must be at most ${MAX_AMOUNT}`);
  const lineDiscount = discountAmount(input.discount, gross, `${at}.discount`);
  return { input, unit, taxRateBasisPoints, unitPrice, gross, lineDiscount, subtotal: gross - lineDiscount };
}

/** A line's rate: the explicit one, or its tax class in the cart's region (never both). */
function lineTaxRate(input: CartLineInput, at: string, vatRegion: VatRegion | undefined): number {
  if (input.taxClass !== undefined) {
    if (input.taxRateBasisPoints !== undefined) {
      throw invalidField(
        'parameter_invalid',
        `${at}.taxRateBasisPoints`,
        'give a tax rate or a tax class, not both',
      );
    }
    if (vatRegion === undefined) {
      throw invalidField('parameter_missing', 'vatRegion', 'is required to resolve a tax class');
    }
    return vatRateFor(input.taxClass, vatRegion, `${at}.taxClass`);
  }
  if (input.taxRateBasisPoints === undefined) {
    throw invalidField('parameter_missing', `${at}.taxRateBasisPoints`, 'give a tax rate or a tax class');
  }
  requireBasisPoints(input.taxRateBasisPoints, `${at}.taxRateBasisPoints`, 'parameter_invalid');
  return input.taxRateBasisPoints;
}

/**
 * VAT extracted from tax-inclusive line totals (rule 4 above): once per rate
 * from the sum of that rate's lines, then spread over them by largest
 * remainder. Invoices use it too, so both reach the same tax to the shilling.
 */
export function extractVat(
  totals: readonly number[],
  rates: readonly number[],
): { lineTaxes: number[]; taxBreakdown: TaxBreakdownLine[] } {
  // Group line indexes by rate, highest rate first, for a stable breakdown.
  const distinct = [...new Set(rates)].sort((a, b) => b - a);
  const lineTaxes = totals.map(() => 0);
  const taxBreakdown = distinct.map((rate): TaxBreakdownLine => {
    const members = rates.flatMap((lineRate, index) => (lineRate === rate ? [index] : []));
    const gross = sum(members.map((index) => at(totals, index)));
    const tax = mulDivHalfUp(gross, rate, 10_000 + rate);
    const shares = allocateProportionally(
      tax,
      members.map((index) => at(totals, index)),
    );
    members.forEach((lineIndex, position) => {
      lineTaxes[lineIndex] = at(shares, position);
    });
    return { rateBasisPoints: rate, gross, net: gross - tax, tax };
  });
  return { lineTaxes, taxBreakdown };
}

/** Prices a cart; throws an AppError naming the offending field. An empty cart prices to zero. */
export function priceCart(cart: CartInput): PricedCart {
  if (!isCurrency(cart.currency))
    throw invalidField('currency_invalid', 'currency', 'is not a supported currency');
  const currency = cart.currency;
  const lines = cart.lines.map((line, index) => priceLine(line, index, currency, cart.vatRegion));

  const grossTotal = sum(lines.map((line) => line.gross));
  const lineDiscountTotal = sum(lines.map((line) => line.lineDiscount));
  const subtotal = grossTotal - lineDiscountTotal;
  if (subtotal > MAX_AMOUNT)
    throw invalidField('amount_invalid', 'lines', `the cart total must be at most ${MAX_AMOUNT}`);

  const orderDiscount = discountAmount(cart.orderDiscount, subtotal, 'orderDiscount');
  const orderShares = allocateProportionally(
    orderDiscount,
    lines.map((line) => line.subtotal),
  );
  const totals = lines.map((line, index) => line.subtotal - at(orderShares, index));

  const { lineTaxes, taxBreakdown } = extractVat(
    totals,
    lines.map((line) => line.taxRateBasisPoints),
  );

  const pricedLines = lines.map((line, index): PricedLine => {
    const total = at(totals, index);
    const tax = at(lineTaxes, index);
    const { input } = line;
    const priced: PricedLine = {
      productId: input.productId,
      description: input.description,
      unit: line.unit,
      quantityMilli: input.quantityMilli,
      taxRateBasisPoints: line.taxRateBasisPoints,
      listUnitPrice: input.unitPrice,
      unitPrice: line.unitPrice,
      gross: line.gross,
      lineDiscount: line.lineDiscount,
      subtotal: line.subtotal,
      orderDiscount: at(orderShares, index),
      total,
      tax,
      net: total - tax,
    };
    if (input.variantId !== undefined) priced.variantId = input.variantId;
    if (input.taxClass !== undefined) priced.taxClass = input.taxClass;
    if (input.priceOverride !== undefined) priced.priceOverride = { ...input.priceOverride };
    if (input.discount !== undefined) priced.discountRule = { ...input.discount };
    return priced;
  });

  const total = subtotal - orderDiscount;
  const taxTotal = sum(taxBreakdown.map((group) => group.tax));
  const result: PricedCart = {
    currency,
    lines: pricedLines,
    grossTotal,
    lineDiscountTotal,
    subtotal,
    orderDiscount,
    total,
    taxTotal,
    netTotal: total - taxTotal,
    taxBreakdown,
  };
  if (cart.orderDiscount !== undefined) result.orderDiscountRule = { ...cart.orderDiscount };
  if (cart.vatRegion !== undefined) result.vatRegion = cart.vatRegion;
  return result;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** Index into an array built alongside another; a miss is a bug, not input. */
function at(values: readonly number[], index: number): number {
  const value = values[index];
  if (value === undefined) throw new AppError('internal_error', `pricing index ${index} out of range`);
  return value;
}
