import { z } from 'zod';
import { defineRoute } from '../../http/route.ts';
import { merchant } from './merchants.ts';

/** /account: the business of the caller's key or login, in both modes. */

const tag = 'Merchants';

export const accountRoutes = [
  defineRoute({
    method: 'GET',
    path: '/account',
    tag,
    summary: 'Retrieve the account',
    description: 'The merchant of the key or login: its business name and email.',
    auth: 'secret',
    response: merchant,
    handler: ({ auth, db, services }) => services.account.retrieve(db, auth),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/account',
    tag,
    summary: 'Update the account',
    description:
      'Changes the business name, which the back office, invoices and hosted pages show, in both modes. Receipts show each store’s own name (`PATCH /retail/stores/{id}`).',
    auth: 'secret',
    body: z.strictObject({ business_name: z.string().trim().min(1, { error: 'is required' }).max(200) }),
    response: merchant,
    handler: ({ body, auth, db, services }) => services.account.update(db, auth, body),
  }),
];
