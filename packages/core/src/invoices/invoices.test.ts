import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { priceCart } from '../retail/pricing.ts';
import type { ProductId } from '../retail/pricing.ts';
import { assertTransition } from '../state-machine.ts';
import { formatInvoiceNumber, INVOICE_STATES, invoiceIsPayable } from './status.ts';
import { invoiceTotals } from './totals.ts';

const fieldOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return Object.keys(error.details ?? {})[0];
    throw error;
  }
  return undefined;
};

describe('invoice totals', () => {
  it('extracts VAT per rate exactly as a till sale of the same goods does', () => {
    const lines = [
      { description: 'A', quantity: 3, unitAmount: 1_001, taxClass: 'standard' as const },
      { description: 'B', quantity: 1, unitAmount: 2_999, taxClass: 'standard' as const },
      { description: 'C', quantity: 2, unitAmount: 700, taxClass: 'zero_rated' as const },
    ];
    for (const region of ['mainland', 'zanzibar'] as const) {
      const invoice = invoiceTotals(lines, region);
      const cart = priceCart({
        currency: 'TZS',
        vatRegion: region,
        lines: lines.map((line) => ({
          productId: 'prod_x' as ProductId,
          description: line.description,
          unitPrice: line.unitAmount,
          quantityMilli: line.quantity * 1000,
          taxClass: line.taxClass,
        })),
      });
      expect(invoice.total).toBe(cart.total);
      expect(invoice.tax).toBe(cart.taxTotal);
      expect(invoice.lines.map((line) => line.tax)).toEqual(cart.lines.map((line) => line.tax));
      expect(invoice.subtotal + invoice.tax).toBe(invoice.total);
    }
    expect(invoiceTotals(lines, 'mainland')).toMatchObject({ total: 7_402, tax: 916 });
  });

  it('names the offending field', () => {
    const line = { description: 'A', quantity: 1, unitAmount: 100, taxClass: 'standard' as const };
    expect(fieldOf(() => invoiceTotals([line, { ...line, quantity: 0 }], 'mainland'))).toBe(
      'lines[1].quantity',
    );
    expect(fieldOf(() => invoiceTotals([{ ...line, unitAmount: 1.5 }], 'mainland'))).toBe(
      'lines[0].unit_amount',
    );
    expect(
      fieldOf(() => invoiceTotals([{ ...line, unitAmount: 999_999_999_999, quantity: 2 }], 'mainland')),
    ).toBe('lines[0]');
    expect(invoiceTotals([], 'mainland')).toMatchObject({ total: 0, tax: 0, subtotal: 0 });
  });
});

describe('invoice states', () => {
  it('moves only through its table', () => {
    expect(() => assertTransition(INVOICE_STATES, 'draft', 'open')).not.toThrow();
    expect(() => assertTransition(INVOICE_STATES, 'uncollectible', 'paid')).not.toThrow();
    expect(() => assertTransition(INVOICE_STATES, 'draft', 'paid')).toThrow(AppError);
    expect(() => assertTransition(INVOICE_STATES, 'void', 'open')).toThrow(AppError);
    expect(() => assertTransition(INVOICE_STATES, 'paid', 'void')).toThrow(AppError);
    expect(
      ['draft', 'open', 'paid', 'void', 'uncollectible'].filter((s) => invoiceIsPayable(s as never)),
    ).toEqual(['open', 'uncollectible']);
    expect(formatInvoiceNumber(123)).toBe('INV-000123');
  });
});
