import { z } from 'zod';
import { salaryBandSchema, salaryBandsSchema } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { livemode } from './schemas.ts';

const tag = 'Employees';

const bandsResponse = z.object({
  object: z.literal('salary_bands'),
  data: z.array(salaryBandSchema),
  livemode,
});

const finding = z.object({
  employee: z.string(),
  name: z.string(),
  problem: z
    .enum(['below_band', 'above_band', 'no_grade', 'no_band_for_grade', 'no_salary'])
    .describe('Paid below or above the grade’s band, or not checkable: no grade, no band for it, no salary'),
  grade: z.string().nullable(),
  basic_salary: z.number().int().optional(),
  by: z.number().int().optional().describe('Shillings below the minimum or above the maximum'),
});

/** Before the `{id}` routes: `/employees/salary-bands` names no employee. */
export const salaryBandRoutes = [
  defineRoute({
    method: 'GET',
    path: '/employees/salary-bands',
    tag,
    summary: 'Retrieve salary bands',
    description: 'Per grade a minimum and a maximum basic salary, in whole shillings; empty until set.',
    auth: 'secret',
    response: bandsResponse,
    handler: ({ auth, db, services }) => services.salaryBands.retrieve(db, auth),
  }),
  defineRoute({
    method: 'PUT',
    path: '/employees/salary-bands',
    tag,
    summary: 'Replace salary bands',
    description:
      'Replaces the whole set at once: a grade left out has no band any more. Each grade once, `maximum` at least `minimum`, else a 400 `parameter_invalid` naming the field (`bands.1.grade`). Accepts `Idempotency-Key`.',
    auth: 'secret',
    body: z.strictObject({ bands: salaryBandsSchema }),
    response: bandsResponse,
    handler: ({ body, auth, db, services }) => services.salaryBands.replace(db, auth, body.bands),
  }),
  defineRoute({
    method: 'GET',
    path: '/employees/salary-band-check',
    tag,
    summary: 'Check salaries against their bands',
    description:
      'Every employee not terminated who is paid outside their grade’s band, with the shillings `by` which, or who cannot be checked (no grade, a grade with no band, no basic salary); in the order they were added. Empty when all are inside.',
    auth: 'secret',
    response: z.object({ object: z.literal('salary_band_check'), data: z.array(finding), livemode }),
    handler: ({ auth, db, services }) => services.salaryBands.check(db, auth),
  }),
];
