import { describe, expect, it } from 'vitest';
import { priceCart } from './pricing.ts';
import type { CartInput, ProductId } from './pricing.ts';
import { vatRateFor } from './tax.ts';
import type { TaxClass } from './tax.ts';

const line = (taxClass: TaxClass, unitPrice = 11_800) => ({
  productId: 'prod_a' as ProductId,
  description: 'Item',
  unitPrice,
  quantityMilli: 1_000,
  taxClass,
});

describe('vatRateFor', () => {
  it.each([
    ['standard', 'mainland', 1_800],
    ['standard', 'zanzibar', 1_500],
    ['zero_rated', 'mainland', 0],
    ['exempt', 'zanzibar', 0],
  ] as const)('gives %s goods in %s a rate of %i basis points', (taxClass, region, rate) => {
    expect(vatRateFor(taxClass, region)).toBe(rate);
  });

  it('refuses an unknown class or region', () => {
    expect(() => vatRateFor('luxury' as TaxClass, 'mainland')).toThrow(
      expect.objectContaining({ code: 'parameter_invalid' }),
    );
    expect(() => vatRateFor('standard', 'pemba' as 'mainland')).toThrow(
      expect.objectContaining({ details: { vatRegion: expect.any(String) } }),
    );
  });
});

describe('priceCart with tax classes', () => {
  it('applies 18% standard VAT on the mainland and 15% in Zanzibar', () => {
    const mainland = priceCart({ currency: 'TZS', vatRegion: 'mainland', lines: [line('standard')] });
    expect(mainland.taxBreakdown).toEqual([
      { rateBasisPoints: 1_800, gross: 11_800, net: 10_000, tax: 1_800 },
    ]);
    expect(mainland.lines[0]).toMatchObject({ taxClass: 'standard', taxRateBasisPoints: 1_800 });
    expect(mainland.vatRegion).toBe('mainland');

    const zanzibar = priceCart({ currency: 'TZS', vatRegion: 'zanzibar', lines: [line('standard', 11_500)] });
    expect(zanzibar.taxBreakdown).toEqual([
      { rateBasisPoints: 1_500, gross: 11_500, net: 10_000, tax: 1_500 },
    ]);
  });

  it('groups zero-rated and exempt goods at 0% beside the standard rate', () => {
    const cart = priceCart({
      currency: 'TZS',
      vatRegion: 'zanzibar',
      lines: [line('standard', 2_300), line('exempt', 1_000), line('zero_rated', 500)],
    });
    expect(cart.taxBreakdown.map((group) => [group.rateBasisPoints, group.gross, group.tax])).toEqual([
      [1_500, 2_300, 300],
      [0, 1_500, 0],
    ]);
  });

  it('needs the region for a tax class, and refuses a class and a rate together', () => {
    const cart: CartInput = { currency: 'TZS', lines: [line('standard')] };
    expect(() => priceCart(cart)).toThrow(
      expect.objectContaining({ details: { vatRegion: expect.any(String) } }),
    );
    expect(() =>
      priceCart({
        currency: 'TZS',
        vatRegion: 'mainland',
        lines: [{ ...line('standard'), taxRateBasisPoints: 1_800 }],
      }),
    ).toThrow(expect.objectContaining({ details: { 'lines[0].taxRateBasisPoints': expect.any(String) } }));
    expect(() =>
      priceCart({ currency: 'TZS', lines: [{ ...line('standard'), taxClass: undefined }] }),
    ).toThrow(expect.objectContaining({ code: 'parameter_missing' }));
  });
});
