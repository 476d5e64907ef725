import { z } from 'zod';
import { RECEIPT_LANGUAGES, VAT_REGIONS, currencySchema, scaleBarcodeFormatSchema } from '@tz/core';
import { defineRoute } from '../../../http/route.ts';
import { listPage } from '../../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../../http/list.ts';
import { storeObject, type StoreRow } from '../../../retail/stores.ts';
import { booleanQuery, lines, name, text } from './schemas.ts';
import { stockLevelSchema } from './stock-adjustments.ts';
import { currencyOut, idParams, livemode, unix } from '../schemas.ts';

/** /retail/stores, /retail/stores/{id}/stock and /retail/store (the default store). */

const tag = 'Retail';

const tin = z
  .string()
  .regex(/^\d{3}-?\d{3}-?\d{3}$/, { error: 'must be the 9-digit TIN, e.g. 123-456-789' })
  .transform((value) => value.replace(/-/g, '').replace(/^(\d{3})(\d{3})(\d{3})$/, '$1-$2-$3'));

const vrn = z
  .string()
  .regex(/^\d{2}-?\d{6}-?[A-Za-z]$/, { error: 'must be the VRN, e.g. 40-012345-A' })
  .transform((value) =>
    value
      .replace(/-/g, '')
      .toUpperCase()
      .replace(/^(\d{2})(\d{6})([A-Z])$/, '$1-$2-$3'),
  );

const scaleBarcodeFormat = scaleBarcodeFormatSchema;

const storeFields = {
  address_lines: lines(4).optional(),
  phone: text(40).nullable().optional(),
  tin: tin.nullable().optional().describe('Taxpayer Identification Number, printed on receipts'),
  vrn: vrn.nullable().optional().describe('VAT Registration Number, printed on receipts'),
  vat_region: z
    .enum(VAT_REGIONS)
    .optional()
    .describe('mainland (18% standard VAT, the default) or zanzibar (15%)'),
  currency: currencySchema.optional().describe('Defaults to TZS'),
  receipt_header: lines(6).optional(),
  receipt_footer: lines(6).optional(),
  receipt_language: z
    .enum(RECEIPT_LANGUAGES)
    .optional()
    .describe('Defaults to the account’s default_language (sw, Swahili, unless changed)'),
  default: z.boolean().optional().describe('Makes this the default store'),
  scale_barcodes: scaleBarcodeFormat
    .optional()
    .describe(
      'How this store’s scale labels read: EAN-13 codes starting with a prefix from 20 to 29 that carry a weight or a price (replaces the whole setting)',
    ),
};

export const storeCreateBody = z.strictObject({ name, ...storeFields });

export const storePatchBody = z.strictObject({ name: name.optional(), ...storeFields });

export const storeSchema = z.object({
  id: z.string().describe('Begins with store_'),
  object: z.literal('store'),
  name: z.string(),
  address_lines: z.array(z.string()),
  phone: z.string().nullable(),
  tin: z.string().nullable(),
  vrn: z.string().nullable(),
  vat_region: z.enum(VAT_REGIONS),
  currency: currencyOut,
  receipt_header: z.array(z.string()),
  receipt_footer: z.array(z.string()),
  receipt_language: z.enum(RECEIPT_LANGUAGES),
  default: z.boolean(),
  receipt_prefix: z.string().describe('Prefix of receipt numbers the server gives for this store (S01...)'),
  scale_barcodes: scaleBarcodeFormatSchema,
  livemode,
  created: unix,
  updated: unix,
});

export const stockListFilters = { low: booleanQuery, product: z.string().max(255).optional() };

export const storeRoutes = [
  defineRoute({
    method: 'GET',
    path: '/retail/stores',
    tag,
    summary: 'List stores',
    auth: 'secret',
    query: listQuery,
    response: listEnvelope(storeSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.stores.listSource(auth), query, (row: StoreRow) => storeObject(row)),
  }),
  defineRoute({
    method: 'POST',
    path: '/retail/stores',
    tag,
    summary: 'Create a store',
    description: 'The first store of an account becomes its default store.',
    auth: 'secret',
    status: 201,
    body: storeCreateBody,
    response: storeSchema,
    handler: ({ body, auth, db, services }) => services.stores.create(db, auth, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/retail/stores/{id}',
    tag,
    summary: 'Retrieve a store',
    auth: 'secret',
    params: idParams,
    response: storeSchema,
    handler: ({ params, auth, db, services }) => services.stores.retrieve(db, auth, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/retail/stores/{id}',
    tag,
    summary: 'Update a store',
    auth: 'secret',
    params: idParams,
    body: storePatchBody,
    response: storeSchema,
    handler: ({ params, body, auth, db, services }) => services.stores.update(db, auth, params.id, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/retail/store',
    tag,
    summary: 'Retrieve the default store',
    description: 'A 404 until the account has a store: `PATCH /retail/store` creates it.',
    auth: 'secret',
    response: storeSchema,
    handler: async ({ auth, db, services }) => storeObject(await services.stores.existingDefault(db, auth)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/retail/store',
    tag,
    summary: 'Update the default store',
    description: 'Created, named after the business, on first use.',
    auth: 'secret',
    body: storePatchBody,
    response: storeSchema,
    handler: ({ body, auth, db, services }) => services.stores.updateDefault(db, auth, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/retail/stores/{id}/stock',
    tag,
    summary: 'List a store’s stock levels',
    description: '`low=true` keeps the items at or below their reorder level, or below zero.',
    auth: 'secret',
    params: idParams,
    query: listQuery.extend(stockListFilters),
    response: listEnvelope(stockLevelSchema),
    handler: async ({ params, query, auth, db, services }) => {
      await services.stores.retrieve(db, auth, params.id);
      return services.stock.list(db, auth, params.id, query, query);
    },
  }),
];
