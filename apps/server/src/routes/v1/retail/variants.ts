import { z } from 'zod';
import { defineRoute } from '../../../http/route.ts';
import { barcodes, code, name } from './schemas.ts';
import { idParams } from '../schemas.ts';
import { price, variantSchema } from './products.ts';

/** /retail/variants/{id}: one variant of a product. */

const tag = 'Retail';

export const variantPatchBody = z.strictObject({
  name: name.optional(),
  sku: code.nullable().optional(),
  barcodes: barcodes.optional(),
  price: price.optional(),
  active: z.boolean().optional(),
});

export const variantRoutes = [
  defineRoute({
    method: 'PATCH',
    path: '/retail/variants/{id}',
    tag,
    summary: 'Update a variant',
    auth: 'secret',
    params: idParams,
    body: variantPatchBody,
    response: variantSchema,
    handler: ({ params, body, auth, db, services }) =>
      services.catalog.updateVariant(db, auth, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/retail/variants/{id}',
    tag,
    summary: 'Delete a variant',
    description: 'Archives the variant and frees its SKU and barcodes.',
    auth: 'secret',
    params: idParams,
    response: variantSchema,
    handler: ({ params, auth, db, services }) => services.catalog.deleteVariant(db, auth, params.id),
  }),
];
