import { z } from 'zod';
import { JURISDICTIONS, statutoryRatesSchema } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { statutorySettingsObject } from '../../people/payroll.ts';
import { livemode } from './schemas.ts';

const tag = 'Employees';

const rateSets = z
  .array(statutoryRatesSchema)
  .describe('In effective order: a month reads the latest set in or before it');
const settingsSchema = z.object({
  object: z.literal('statutory_settings'),
  mainland: rateSets,
  zanzibar: rateSets,
  livemode,
});

export const statutoryRoutes = [
  defineRoute({
    method: 'GET',
    path: '/statutory/settings',
    tag,
    summary: 'Retrieve statutory settings',
    description:
      'The rate sets payroll uses, per jurisdiction, each with its `effective_month`: core’s defaults (docs/PEOPLE.md gives their sources) until the first change. Rates are basis points (1,000 is 10 %).',
    auth: 'secret',
    response: settingsSchema,
    handler: async ({ auth, db, services }) =>
      statutorySettingsObject(auth, await services.payroll.settings(db, auth)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/statutory/settings',
    tag,
    summary: 'Update statutory settings',
    description:
      'Puts one jurisdiction’s rate set in from its `effective_month`, replacing the set of that same month if there is one. Sets of earlier months are never changed, so a past month’s payslip recomputes as it was. A bad rate is a 400 `parameter_invalid` naming it (`rates.paye_bands.1.from`). Accepts `Idempotency-Key`.',
    auth: 'secret',
    body: z.strictObject({ jurisdiction: z.enum(JURISDICTIONS), rates: statutoryRatesSchema }),
    response: settingsSchema,
    handler: ({ body, auth, db, services }) =>
      services.payroll.putRates(db, auth, body.jurisdiction, body.rates),
  }),
];
