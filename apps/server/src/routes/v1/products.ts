import { z } from 'zod';
import { defineRoute } from '../../http/route.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { booleanQuery } from './retail/schemas.ts';
import { idParams } from './schemas.ts';
import { productSchema } from './retail/products.ts';

/** /products: the catalogue's products as the API reads them (their changes are under /retail/products). */

const tag = 'Retail';

export const productListFilters = {
  q: z.string().max(100).optional().describe('Exact SKU or barcode, or words of the name or SKU by prefix'),
  category: z.string().max(255).optional(),
  store: z.string().max(255).optional().describe('Only products stocked at this store'),
  active: booleanQuery,
  include_deleted: booleanQuery,
};

export const productRoutes = [
  defineRoute({
    method: 'GET',
    path: '/products',
    tag,
    summary: 'List products',
    description:
      'Newest first. `q` finds the product with that exact SKU or barcode (its own or a variant’s, as a scanner sends it); when no code matches, the products whose name or SKU has words starting with each word of `q`. Deleted products are left out unless `include_deleted=true`.',
    auth: 'secret',
    query: listQuery.extend(productListFilters),
    response: listEnvelope(productSchema),
    handler: ({ query, auth, db, services }) => services.catalog.listProducts(db, auth, query, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/products/{id}',
    tag,
    summary: 'Retrieve a product',
    description: 'Deleted products stay retrievable, so past orders can show what they sold.',
    auth: 'secret',
    params: idParams,
    response: productSchema,
    handler: ({ params, auth, db, services }) => services.catalog.retrieveProduct(db, auth, params.id),
  }),
];
