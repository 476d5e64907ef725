import { z } from 'zod';
import {
  QUANTITY_UNITS,
  TAX_CLASSES,
  currencySchema,
  metadataSchema,
  pluSchema,
  priceSchema,
  referenceSchema,
} from '@tz/core';
import { defineRoute } from '../../../http/route.ts';
import { barcodes, code, count, name, text } from './schemas.ts';
import { currencyOut, idParams, livemode, unix } from '../schemas.ts';

/** /retail/products: the catalogue's products with their variants. */

const tag = 'Retail';

const taxRate = z
  .enum(TAX_CLASSES)
  .describe(
    '`standard` is 18% VAT on the mainland and 15% in Zanzibar (the selling store’s `vat_region`); `zero_rated` and `exempt` carry none',
  );

export const unit = z
  .enum(QUANTITY_UNITS)
  .describe('`piece` sells whole units; `kg`, `litre` and `metre` sell in thousandths');

export const price = priceSchema;

const reference = referenceSchema;

const cost = priceSchema.describe('What the shop pays for it, in the currency’s smallest unit');

export const variantInput = z.strictObject({
  name,
  sku: code.optional(),
  barcodes: barcodes.optional(),
  price: price.optional().describe('Defaults to the product’s price'),
  active: z.boolean().optional(),
});

/** A product's place on the till's Favourites tiles (docs/RETAIL.md, "Tiles at the till"). */
const favouritePosition = z
  .number({ error: 'must be a whole number from 1 to 999' })
  .int({ error: 'must be a whole number from 1 to 999' })
  .min(1, { error: 'must be a whole number from 1 to 999' })
  .max(999, { error: 'must be a whole number from 1 to 999' })
  .describe('Its place on the till’s Favourites tiles, 1 first');

export const productCreateBody = z.strictObject({
  name,
  description: text(1000).optional(),
  sku: code.optional(),
  barcodes: barcodes.optional(),
  price,
  cost: cost.optional(),
  currency: currencySchema.optional().describe('Defaults to TZS'),
  tax_rate: taxRate.optional().describe('Defaults to standard'),
  category: reference.optional(),
  unit: unit.optional().describe('Defaults to piece'),
  track_stock: z
    .boolean()
    .optional()
    .describe('Defaults to true; untracked items (services) never move stock'),
  active: z
    .boolean()
    .optional()
    .describe('Inactive products stay in the catalogue but are not offered for sale'),
  variants: z.array(variantInput).max(100).optional(),
  metadata: metadataSchema.optional(),
  plu: pluSchema.optional(),
  favourite_position: favouritePosition.optional(),
});

export const productPatchBody = z.strictObject({
  name: name.optional(),
  description: text(1000).nullable().optional(),
  sku: code.nullable().optional(),
  barcodes: barcodes.optional().describe('Replaces the product’s barcodes'),
  price: price.optional(),
  cost: cost.nullable().optional(),
  currency: currencySchema.optional(),
  tax_rate: taxRate.optional(),
  category: reference.nullable().optional(),
  unit: unit.optional(),
  track_stock: z.boolean().optional(),
  active: z.boolean().optional(),
  metadata: metadataSchema.optional(),
  plu: pluSchema.nullable().optional(),
  favourite_position: favouritePosition.nullable().optional(),
});

export const variantSchema = z.object({
  id: z.string().describe('Begins with var_'),
  object: z.literal('variant'),
  product: z.string(),
  name: z.string(),
  sku: z.string().nullable(),
  barcodes: z.array(z.string()),
  price: count,
  active: z.boolean(),
  deleted: z.boolean(),
  livemode,
  created: unix,
  updated: unix,
});

export const productSchema = z.object({
  id: z.string().describe('Begins with prod_'),
  object: z.literal('product'),
  name: z.string(),
  description: z.string().nullable(),
  sku: z.string().nullable(),
  barcodes: z.array(z.string()),
  price: count,
  cost: count
    .nullable()
    .describe('What the shop pays for it, in the currency’s smallest unit; null when not known'),
  currency: currencyOut,
  tax_rate: z.enum(TAX_CLASSES),
  category: z.string().nullable(),
  unit: z.enum(QUANTITY_UNITS),
  track_stock: z.boolean(),
  active: z.boolean(),
  plu: z
    .string()
    .nullable()
    .describe('The item code on the store’s scale labels (see the store’s `scale_barcodes`)'),
  favourite_position: z
    .number()
    .int()
    .nullable()
    .describe('Its place on the till’s Favourites tiles, 1 first; null: not among them'),
  deleted: z
    .boolean()
    .describe('Deleted products are archived: kept for past orders, gone from the catalogue'),
  variants: z.array(variantSchema).describe('Live variants'),
  metadata: z.record(z.string(), z.string()),
  livemode,
  created: unix,
  updated: unix,
});

export const retailProductRoutes = [
  defineRoute({
    method: 'POST',
    path: '/retail/products',
    tag,
    summary: 'Create a product',
    description:
      'SKUs, barcodes (of products and variants alike) and PLUs are unique per account and mode: a clash is a 400 (`sku_taken`, `barcode_taken`, `plu_taken`) naming the field.',
    auth: 'secret',
    status: 201,
    body: productCreateBody,
    response: productSchema,
    handler: ({ body, auth, db, services }) =>
      services.catalog.createProduct(db, auth, {
        ...body,
        currency: body.currency ?? 'TZS',
        tax_rate: body.tax_rate ?? 'standard',
        unit: body.unit ?? 'piece',
        track_stock: body.track_stock ?? true,
        active: body.active ?? true,
      }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/retail/products/{id}',
    tag,
    summary: 'Update a product',
    description:
      'Fields left out keep their value; `null` clears `sku`, `description`, `category`, `plu`, `favourite_position` or `cost`.',
    auth: 'secret',
    params: idParams,
    body: productPatchBody,
    response: productSchema,
    handler: ({ params, body, auth, db, services }) =>
      services.catalog.updateProduct(db, auth, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/retail/products/{id}',
    tag,
    summary: 'Delete a product',
    description:
      'Archives the product: it leaves the catalogue and frees its SKU and barcodes, but past orders keep it. Returns the product with `deleted: true`.',
    auth: 'secret',
    params: idParams,
    response: productSchema,
    handler: ({ params, auth, db, services }) => services.catalog.deleteProduct(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/retail/products/{id}/variants',
    tag,
    summary: 'Add a variant to a product',
    auth: 'secret',
    status: 201,
    params: idParams,
    body: variantInput,
    response: variantSchema,
    handler: ({ params, body, auth, db, services }) => services.catalog.addVariant(db, auth, params.id, body),
  }),
];
