import { z } from 'zod';
import { tanzanianMobileSchema } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { listPage } from '../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { customerObject } from '../../customers/service.ts';
import { idParams, livemode, metadataSchema, unix } from './schemas.ts';

const customerSchema = z.object({
  id: z.string().describe('Begins with cus_'),
  object: z.literal('customer'),
  name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  description: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  livemode,
  created: unix,
});

export const customerRoutes = [
  defineRoute({
    method: 'POST',
    path: '/customers',
    tag: 'Customers',
    summary: 'Create a customer',
    auth: 'secret',
    status: 201,
    body: z.strictObject({
      name: z.string().trim().min(1).max(200).optional(),
      email: z.email({ error: 'must be an email address' }).max(254).optional(),
      phone: tanzanianMobileSchema.optional(),
      description: z.string().max(500).optional(),
      metadata: metadataSchema.optional(),
    }),
    response: customerSchema,
    handler: ({ body, auth, db, services }) => services.customers.create(db, auth, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/customers',
    tag: 'Customers',
    summary: 'List customers',
    auth: 'secret',
    query: listQuery.extend({
      email: z.string().max(254).optional(),
      phone: tanzanianMobileSchema.optional(),
    }),
    response: listEnvelope(customerSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.customers.listSource(auth, query), query, customerObject),
  }),
  defineRoute({
    method: 'GET',
    path: '/customers/{id}',
    tag: 'Customers',
    summary: 'Retrieve a customer',
    auth: 'secret',
    params: idParams,
    response: customerSchema,
    handler: ({ params, auth, db, services }) => services.customers.retrieve(db, auth, params.id),
  }),
];
