/**
 * A pulled product, or one of its variants, as the till offers it for sale.
 * Pure, so the server-side tests price what the till would.
 */
import type { PullDocument } from '@tz/core';
import type { CatalogueItem } from '../api.ts';

export function catalogueItem(
  product: PullDocument<'products'>,
  variant: PullDocument<'variants'> | null,
  onHandMilli: number | null,
  hasVariants = false,
): CatalogueItem {
  return {
    productId: product.id,
    variantId: variant?.id ?? null,
    name: variant ? `${product.name} ${variant.name}` : product.name,
    sku: variant?.sku ?? product.sku,
    barcodes: variant ? variant.barcodes : product.barcodes,
    price: variant ? variant.price : product.price,
    currency: product.currency,
    unit: product.unit,
    taxClass: product.tax_rate,
    category: product.category,
    trackStock: product.track_stock,
    onHandMilli,
    // Only a product itself can have variants; a variant is always sold as itself.
    hasVariants: variant === null && hasVariants,
  };
}
