import { z } from 'zod';
import { amountSchema, currencySchema } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { currencyOut, idParams, livemode, metadataSchema, unix } from './schemas.ts';

const lineItem = z.strictObject({
  name: z.string().min(1).max(200),
  amount: amountSchema.describe('Unit price in the smallest currency unit'),
  quantity: z.number().int().min(1).max(10_000).default(1),
});

const checkoutSchema = z.object({
  id: z.string().describe('Begins with cs_'),
  object: z.literal('checkout'),
  amount: z.number().int(),
  currency: currencyOut,
  line_items: z.array(z.object({ name: z.string(), amount: z.number().int(), quantity: z.number().int() })),
  description: z.string().nullable(),
  customer: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  status: z.enum(['open', 'complete', 'expired']),
  payment: z.string().nullable(),
  checkout_url: z.string().describe('Absolute URL of the hosted payment page'),
  success_url: z.string().nullable(),
  cancel_url: z.string().nullable(),
  livemode,
  created: unix,
  expires_at: unix,
  completed_at: unix.nullable(),
});

const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2000);

export const checkoutRoutes = [
  defineRoute({
    method: 'POST',
    path: '/checkout',
    tag: 'Checkout',
    summary: 'Create a checkout',
    description:
      'A hosted payment page at `checkout_url` where the customer enters a phone number and pays. Give `amount`, or `line_items` whose total becomes the amount. Publishable keys may call this.',
    auth: 'publishable',
    status: 201,
    body: z
      .strictObject({
        amount: amountSchema.optional(),
        currency: currencySchema,
        line_items: z.array(lineItem).min(1).max(100).optional(),
        description: z.string().max(500).optional(),
        customer: z.string().max(255).optional(),
        metadata: metadataSchema.optional(),
        success_url: url.optional(),
        cancel_url: url.optional(),
      })
      .refine((b) => (b.amount === undefined) !== (b.line_items === undefined), {
        error: 'give either amount or line_items',
        path: ['amount'],
      }),
    response: checkoutSchema,
    handler: ({ body, auth, db, services }) => services.checkouts.create(db, auth, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/checkout/{id}',
    tag: 'Checkout',
    summary: 'Retrieve a checkout',
    description: 'Publishable keys may read only the checkouts they created.',
    auth: 'publishable',
    params: idParams,
    response: checkoutSchema,
    handler: ({ params, auth, db, services }) => services.checkouts.retrieve(db, auth, params.id),
  }),
];
