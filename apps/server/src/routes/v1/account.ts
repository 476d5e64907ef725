import { accountUpdateSchema } from '@tz/core';
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
    description: 'The merchant of the key or login: its business name, email and default language.',
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
      'Changes the business name, which the back office, invoices and hosted pages show, and the default language (`sw` or `en`: the back office’s until a browser chooses one, and the receipt language a new store starts with), in both modes. Fields left out keep their value. Receipts show each store’s own name and language (`PATCH /retail/stores/{id}`).',
    auth: 'secret',
    body: accountUpdateSchema,
    response: merchant,
    handler: ({ body, auth, db, services }) => services.account.update(db, auth, body),
  }),
];
