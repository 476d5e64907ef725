import { z } from 'zod';
import {
  EMPLOYEE_STATUSES,
  EMPLOYMENT_TYPES,
  employeeRecordFields,
  JURISDICTIONS,
  monthSchema,
  PIN_PATTERN,
  RESIDENCIES,
} from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { listPage } from '../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { employeeObject } from '../../tills/employees.ts';
import { booleanQuery } from './retail/schemas.ts';
import { payslipSchema } from './payslip-schema.ts';
import { livemode, unix } from './schemas.ts';

const tag = 'Employees';

/** An employee's id in a path; any id that names none of this merchant's employees is a 404, as on every route. */
export const employeeIdParams = z.object({ id: z.string() });

const personal = 'Personal or pay data: returned to secret keys only, never to a till.';
/** The record as returned: every field present, `null` when not known. */
const employeeRecordSchema = z.object({
  status: z
    .enum(EMPLOYEE_STATUSES)
    .describe('`active` -> `suspended` -> `terminated`, and `suspended` -> `active`; only `active` signs in'),
  phone: z.string().nullable().describe(personal),
  email: z.string().nullable().describe(personal),
  date_of_birth: z.string().nullable().describe(`YYYY-MM-DD. ${personal}`),
  national_id: z.string().nullable().describe(`NIDA number. ${personal}`),
  job_title: z.string().nullable(),
  grade: z.string().nullable(),
  employment_type: z.enum(EMPLOYMENT_TYPES),
  start_date: z.string().nullable().describe('YYYY-MM-DD'),
  end_date: z.string().nullable().describe('YYYY-MM-DD; set to the day of a termination that gave none'),
  basic_salary: z.number().int().nullable().describe(`Monthly, whole TZS. ${personal}`),
  pay_destination: z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('bank'), bank_name: z.string(), account_number: z.string() }),
      z.object({ type: z.literal('mobile_money'), phone: z.string() }),
    ])
    .nullable()
    .describe(personal),
  pension_number: z.string().nullable().describe(`NSSF or ZSSF number. ${personal}`),
  tin: z.string().nullable().describe(personal),
  residency: z.enum(RESIDENCIES),
  heslb_loan: z.boolean().describe(personal),
  heslb_index_number: z.string().nullable().describe(personal),
  jurisdiction: z.enum(JURISDICTIONS),
});

const employeeSchema = z.object({
  id: z.string().describe('Begins with emp_'),
  object: z.literal('employee'),
  name: z.string(),
  role: z.enum(['cashier', 'manager']),
  stores: z.array(z.string()).describe('The stores (store_…) whose tills the employee may sign in to'),
  active: z.boolean(),
  ...employeeRecordSchema.shape,
  livemode,
  created: unix,
  updated: unix,
});

const recordBody = Object.fromEntries(
  Object.entries(employeeRecordFields).map(([field, schema]) => [field, schema.optional()]),
) as { [K in keyof typeof employeeRecordFields]: z.ZodOptional<(typeof employeeRecordFields)[K]> };

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
    params: employeeIdParams,
    response: employeeSchema,
    handler: ({ params, auth, db, services }) => services.employees.retrieve(db, auth, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/employees/{id}/payslip',
    tag,
    summary: 'Preview an employee’s payslip',
    description:
      'The month’s payslip by core’s rules (docs/PEOPLE.md, "A payslip"), computed and not stored: the rates in force that month for the employee’s jurisdiction, and SDL by the headcount employed that month. Every line is whole shillings and `net` is `gross` minus the deductions printed. A month before the first rate set, a month the employee was not employed, or an employee without a `basic_salary` is a 400 `parameter_invalid` saying which.',
    auth: 'secret',
    params: employeeIdParams,
    query: z.strictObject({
      period: monthSchema
        .optional()
        .describe('The month, YYYY-MM; this month in Dar es Salaam when not given'),
    }),
    response: payslipSchema,
    handler: ({ params, query, auth, db, services }) =>
      services.payroll.previewPayslip(db, auth, params.id, query.period),
  }),
  defineRoute({
    method: 'POST',
    path: '/employees',
    tag,
    summary: 'Create an employee',
    description:
      'A cashier or manager who signs in to the tills of the given stores with a PIN, with their record (personal details, job, pay, statutory numbers; docs/PEOPLE.md). A store that is not this account’s is a 400 naming the entry (`stores.1`); a PIN another active employee of those stores has is a 400 `pin_taken`.',
    auth: 'secret',
    status: 201,
    body: z.strictObject({
      name,
      role,
      stores,
      pin,
      active: active.optional().describe('Defaults to true'),
      ...recordBody,
    }),
    response: employeeSchema,
    handler: ({ body, auth, db, services }) => services.employees.create(db, auth, body),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/employees/{id}',
    tag,
    summary: 'Update an employee',
    description:
      'Fields left out keep their value; `stores` replaces the list; a new `pin` replaces the old one on every till at its next sync. Set `active: false` to stop an employee signing in (employees are never deleted): the tills delete the employee and sign them out at their next sync, and a till’s sale made after it is flagged `cashier_inactive`. Making a cashier a manager needs a 6-digit `pin` unless the one on record has 6 digits. A record field given as `null` is cleared.',
    auth: 'secret',
    params: employeeIdParams,
    body: z.strictObject({
      name: name.optional(),
      role: role.optional(),
      stores: stores.optional(),
      pin: pin.optional(),
      active: active.optional(),
      status: z
        .enum(EMPLOYEE_STATUSES)
        .optional()
        .describe(
          'Moves along the employment’s states only (else 400 `state_transition_invalid`): suspending or terminating also stops the employee signing in',
        ),
      ...recordBody,
    }),
    response: employeeSchema,
    handler: ({ params, body, auth, db, services }) => services.employees.update(db, auth, params.id, body),
  }),
];
