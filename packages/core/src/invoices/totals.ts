/**
 * An invoice's totals. Unit amounts are tax-inclusive, like every price on the
 * platform, and VAT is extracted by the cart's rule (`extractVat`), with each
 * line's tax class resolved against the invoice's VAT region by core's VAT
 * rules, so an invoice and a till sale of the same goods show the same tax.
 */
import { invalidField } from '../errors.ts';
import { MAX_AMOUNT } from '../money.ts';
import { mulDivHalfUp } from '../retail/integer-math.ts';
import { extractVat, type TaxBreakdownLine } from '../retail/pricing.ts';
import { vatRateFor, type TaxClass, type VatRegion } from '../retail/tax.ts';

export interface InvoiceLineInput {
  description: string;
  /** Whole units. */
  quantity: number;
  /** Price per unit, tax included, in the currency's smallest unit. */
  unitAmount: number;
  taxClass: TaxClass;
}

export interface InvoiceLine extends InvoiceLineInput {
  taxRateBasisPoints: number;
  /** unitAmount × quantity, tax included. */
  amount: number;
  /** VAT contained in `amount`. */
  tax: number;
}

export interface InvoiceTotals {
  lines: InvoiceLine[];
  /** Sum of line amounts less their VAT. */
  subtotal: number;
  tax: number;
  /** What the customer owes: subtotal + tax. */
  total: number;
  taxBreakdown: TaxBreakdownLine[];
}

export const MAX_INVOICE_LINES = 100;
export const MAX_INVOICE_QUANTITY = 1_000_000;
/** Characters in a line's description, and in the memo: with the line count, what one PDF may cost. */
export const MAX_INVOICE_DESCRIPTION = 500;
export const MAX_INVOICE_MEMO = 2000;

/** Prices an invoice's lines; throws an AppError naming the offending field (`lines[2].quantity`). */
export function invoiceTotals(lines: readonly InvoiceLineInput[], region: VatRegion): InvoiceTotals {
  if (lines.length > MAX_INVOICE_LINES) {
    throw invalidField('parameter_invalid', 'lines', `at most ${MAX_INVOICE_LINES} lines`);
  }
  const amounts = lines.map((line, index) => {
    const at = `lines[${index}]`;
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1 || line.quantity > MAX_INVOICE_QUANTITY) {
      throw invalidField(
        'quantity_invalid',
        `${at}.quantity`,
        `must be a whole number from 1 to ${MAX_INVOICE_QUANTITY}`,
      );
    }
    if (!Number.isSafeInteger(line.unitAmount) || line.unitAmount < 0 || line.unitAmount > MAX_AMOUNT) {
      throw invalidField('amount_invalid', `${at}.unit_amount`, `must be an integer from 0 to ${MAX_AMOUNT}`);
    }
    // In BigInt: a large unit amount times a large quantity passes 2^53 before the bound is checked.
    const amount = mulDivHalfUp(line.unitAmount, line.quantity, 1);
    if (amount > MAX_AMOUNT) {
      throw invalidField('amount_invalid', at, `the line amount must be at most ${MAX_AMOUNT}`);
    }
    return amount;
  });
  const total = amounts.reduce((sum, amount) => sum + amount, 0);
  if (total > MAX_AMOUNT)
    throw invalidField('amount_invalid', 'lines', `the total must be at most ${MAX_AMOUNT}`);
  const rates = lines.map((line, index) => vatRateFor(line.taxClass, region, `lines[${index}].tax_class`));
  const { lineTaxes, taxBreakdown } = extractVat(amounts, rates);
  const tax = lineTaxes.reduce((sum, value) => sum + value, 0);
  return {
    lines: lines.map((line, index) => ({
      description: line.description,
      quantity: line.quantity,
      unitAmount: line.unitAmount,
      taxClass: line.taxClass,
      taxRateBasisPoints: rates[index] ?? 0,
      amount: amounts[index] ?? 0,
      tax: lineTaxes[index] ?? 0,
    })),
    subtotal: total - tax,
    tax,
    total,
    taxBreakdown,
  };
}
