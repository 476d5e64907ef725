/** A sale's lines, priced from the catalogue: refused or, for a till's sale, flagged where the catalogue changed. */
import {
  type CartLineInput,
  type Currency,
  type Discount,
  type OrderFlag,
  type OrderLineInput,
  type ProductId,
  type TaxClass,
  type VariantId,
  type WireDiscount,
} from '@tz/core';
import { invalid } from '../shared.ts';
import type { SoldItem } from '../stock.ts';
import type { CatalogItem } from './load.ts';

export const coreDiscount = (discount: WireDiscount | undefined): Discount | undefined =>
  discount === undefined
    ? undefined
    : discount.type === 'percent'
      ? { type: 'percent', basisPoints: discount.basis_points }
      : { type: 'amount', amount: discount.amount };

export interface ResolvedLine {
  cart: CartLineInput;
  sku: string | null;
  taxClass: TaxClass;
  sold: SoldItem;
  flags: OrderFlag[];
}

/**
 * Prices a line from the catalogue. What changed in the catalogue since the
 * sale refuses an API key's line; a till's sale already happened (`asFact`),
 * so it stands at the till's price, flagged.
 */
export function resolveLine(
  line: OrderLineInput,
  index: number,
  catalog: ReadonlyMap<string, CatalogItem>,
  currency: Currency,
  asFact: boolean,
): ResolvedLine {
  const at = `lines.${index}`;
  const flags: OrderFlag[] = [];
  const product = catalog.get(line.product);
  if (!product) throw invalid('product_unknown', `${at}.product`, 'is not a product of this account');
  if (product.deleted && !asFact) throw invalid('product_unknown', `${at}.product`, 'is deleted');
  if (asFact && product.unavailable) flags.push('product_unavailable');
  if (product.currency !== currency) {
    throw invalid(
      'currency_mismatch',
      `${at}.product`,
      `is priced in ${product.currency} but the order is in ${currency}`,
    );
  }
  const live = product.variants.filter((variant) => !variant.deleted);
  let variant: CatalogItem['variants'][number] | undefined;
  if (line.variant !== undefined) {
    variant = (asFact ? product.variants : live).find((candidate) => candidate.id === line.variant);
    if (!variant) {
      throw invalid(
        'parameter_invalid',
        `${at}.variant`,
        asFact ? 'is not a variant of this product' : 'is not a live variant of this product',
      );
    }
    if (asFact && variant.unavailable) flags.push('product_unavailable');
  } else if (live.length > 0) {
    if (!asFact)
      throw invalid('parameter_missing', `${at}.variant`, 'is required: this product is sold by variant');
    // Variants were added since the till sold the product as one item.
    flags.push('product_unavailable');
  }
  const catalogPrice = variant?.price ?? product.price;
  let unitPrice = catalogPrice;
  if (line.unit_price !== undefined && line.unit_price !== catalogPrice) {
    if (!asFact) {
      throw invalid(
        'price_changed',
        `${at}.unit_price`,
        `is ${line.unit_price} but the catalogue price is ${catalogPrice}`,
      );
    }
    unitPrice = line.unit_price;
    flags.push('price_changed');
  }
  const cart: CartLineInput = {
    productId: product.id as ProductId,
    variantId: variant?.id as VariantId | undefined,
    description: variant ? `${product.name} ${variant.name}` : product.name,
    unitPrice,
    currency: product.currency,
    unit: product.unit,
    quantityMilli: line.quantity_milli,
    taxClass: product.tax_rate,
    discount: coreDiscount(line.discount),
  };
  if (line.price_override) {
    cart.priceOverride = { unitPrice: line.price_override.unit_price, reason: line.price_override.reason };
  }
  return {
    cart,
    sku: variant?.sku ?? product.sku,
    taxClass: product.tax_rate,
    sold: {
      productId: product.id,
      variantId: variant?.id ?? null,
      quantityMilli: line.quantity_milli,
      unit: product.unit,
      trackStock: product.track_stock,
    },
    flags,
  };
}
