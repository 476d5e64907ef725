import { z } from 'zod';
import { PIN_PATTERN } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { listPage } from '../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { employeeObject } from '../../tills/employees.ts';
import { booleanQuery } from './retail/schemas.ts';
import { idParams, livemode, unix } from './schemas.ts';

const tag = 'Employees';

const employeeSchema = z.object({
  id: z.string().describe('Begins with emp_'),
  object: z.literal('employee'),
  name: z.string(),
  role: z.enum(['cashier', 'manager']),
  stores: z.array(z.string()).describe('The stores (store_…) whose tills the employee may sign in to'),
  active: z.boolean(),
  livemode,
  created: unix,
  updated: unix,
});

const name = z.string().trim().min(1, { error: 'is required' }).max(100);
const role = z.enum(['cashier', 'manager']);
const stores = z
  .array(z.string().min(1).max(255))
  .min(1, { error: 'name at least one store' })
  .max(100)
  .refine((ids) => new Set(ids).size === ids.length, { error: 'names a store twice' })
  .describe('Store ids (store_…) of this account');
const pin = z
  .string()
  .regex(PIN_PATTERN, { error: 'must be 4 to 6 digits' })
  .describe(
    'Write-only: 4 to 6 digits, 6 for a manager (else 400 `parameter_invalid`), stored hashed (PBKDF2-SHA256) and never returned; each till of the stores gets a verifier salted for it alone and checks the PIN offline. Unique among the active employees of the same stores.',
  );
const active = z.boolean().describe('Deactivate instead of deleting: an inactive employee cannot sign in');

export const employeeRoutes = [
  defineRoute({
    method: 'GET',
    path: '/employees',
    tag,
    summary: 'List employees',
    auth: 'secret',
    query: listQuery.extend({ store: z.string().max(255).optional(), active: booleanQuery }),
    response: listEnvelope(employeeSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.employees.listSource(auth, query), query, employeeObject),
  }),
  defineRoute({
    method: 'GET',
    path: '/employees/{id}',
    tag,
    summary: 'Retrieve an employee',
    auth: 'secret',
    params: idParams,
    response: employeeSchema,
    handler: ({ params, auth, db, services }) => services.employees.retrieve(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/employees',
    tag,
    summary: 'Create an employee',
    description:
      'A cashier or manager who signs in to the tills of the given stores with a PIN. A store that is not this account’s is a 400 naming the entry (`stores.1`); a PIN another active employee of those stores has is a 400 `pin_taken`.',
    auth: 'secret',
    status: 201,
    body: z.strictObject({ name, role, stores, pin, active: active.optional().describe('Defaults to true') }),
    response: employeeSchema,
    handler: ({ body, auth, db, services }) => services.employees.create(db, auth, body),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/employees/{id}',
    tag,
    summary: 'Update an employee',
    description:
      'Fields left out keep their value; `stores` replaces the list; a new `pin` replaces the old one on every till at its next sync. Set `active: false` to stop an employee signing in (employees are never deleted): the tills delete the employee and sign them out at their next sync, and a till’s sale made after it is flagged `cashier_inactive`. Making a cashier a manager needs a 6-digit `pin` unless the one on record has 6 digits.',
    auth: 'secret',
    params: idParams,
    body: z.strictObject({
      name: name.optional(),
      role: role.optional(),
      stores: stores.optional(),
      pin: pin.optional(),
      active: active.optional(),
    }),
    response: employeeSchema,
    handler: ({ params, body, auth, db, services }) => services.employees.update(db, auth, params.id, body),
  }),
];
