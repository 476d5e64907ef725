import { z } from 'zod';
import { defineRoute } from '../../../http/route.ts';
import { listPage } from '../../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../../http/list.ts';
import { categoryObject, type CategoryRow } from '../../../retail/catalog-objects.ts';
import { includeDeletedFilter, name, text } from './schemas.ts';
import { idParams, livemode, unix } from '../schemas.ts';

/** /retail/categories: how the catalogue is grouped. */

const tag = 'Retail';

export const categoryCreateBody = z.strictObject({ name, description: text(1000).optional() });

export const categoryPatchBody = z.strictObject({
  name: name.optional(),
  description: text(1000).nullable().optional(),
});

export const categorySchema = z.object({
  id: z.string().describe('Begins with cat_'),
  object: z.literal('category'),
  name: z.string(),
  description: z.string().nullable(),
  deleted: z.boolean(),
  livemode,
  created: unix,
  updated: unix,
});

export const categoryRoutes = [
  defineRoute({
    method: 'GET',
    path: '/retail/categories',
    tag,
    summary: 'List categories',
    auth: 'secret',
    query: listQuery.extend(includeDeletedFilter),
    response: listEnvelope(categorySchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.catalog.categoriesSource(auth, query), query, (row: CategoryRow) =>
        categoryObject(row),
      ),
  }),
  defineRoute({
    method: 'POST',
    path: '/retail/categories',
    tag,
    summary: 'Create a category',
    auth: 'secret',
    status: 201,
    body: categoryCreateBody,
    response: categorySchema,
    handler: ({ body, auth, db, services }) => services.catalog.createCategory(db, auth, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/retail/categories/{id}',
    tag,
    summary: 'Retrieve a category',
    auth: 'secret',
    params: idParams,
    response: categorySchema,
    handler: ({ params, auth, db, services }) => services.catalog.retrieveCategory(db, auth, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/retail/categories/{id}',
    tag,
    summary: 'Update a category',
    auth: 'secret',
    params: idParams,
    body: categoryPatchBody,
    response: categorySchema,
    handler: ({ params, body, auth, db, services }) =>
      services.catalog.updateCategory(db, auth, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/retail/categories/{id}',
    tag,
    summary: 'Delete a category',
    description:
      'Archives the category; its products keep it, so reports can still group by it. New products cannot use it.',
    auth: 'secret',
    params: idParams,
    response: categorySchema,
    handler: ({ params, auth, db, services }) => services.catalog.deleteCategory(db, auth, params.id),
  }),
];
