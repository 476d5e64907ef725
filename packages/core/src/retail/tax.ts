/**
 * How a product is taxed. A catalogue stores the class, not a rate, because
 * the standard VAT rate depends on where the store is: 18% on the mainland,
 * 15% in Zanzibar. Zero-rated and exempt goods both carry no VAT; they are
 * kept apart because tax returns report them separately.
 */
import { invalidField } from '../errors.ts';

/** VAT in basis points: 18% on the mainland, 15% in Zanzibar. Exempt goods are 0. */
export type VatRegion = 'mainland' | 'zanzibar';
export const STANDARD_VAT_RATE: Record<VatRegion, number> = { mainland: 1800, zanzibar: 1500 };

export type TaxClass = 'standard' | 'zero_rated' | 'exempt';
export const TAX_CLASSES = ['standard', 'zero_rated', 'exempt'] as const satisfies readonly TaxClass[];
export const VAT_REGIONS = ['mainland', 'zanzibar'] as const satisfies readonly VatRegion[];
/** Where a store or an invoice is taxed when it does not say. */
export const DEFAULT_VAT_REGION: VatRegion = 'mainland';

/** The VAT rate in basis points for a product of `taxClass` sold in `region`. */
export function vatRateFor(taxClass: TaxClass, region: VatRegion, field = 'taxClass'): number {
  if (!VAT_REGIONS.includes(region)) {
    throw invalidField('parameter_invalid', 'vatRegion', `must be one of ${VAT_REGIONS.join(', ')}`);
  }
  switch (taxClass) {
    case 'standard':
      return STANDARD_VAT_RATE[region];
    case 'zero_rated':
    case 'exempt':
      return 0;
    default:
      throw invalidField('parameter_invalid', field, `must be one of ${TAX_CLASSES.join(', ')}`);
  }
}
