import { z } from 'zod';
import { PRINT_JOB_FAILURE_REASONS, PRINT_JOB_STATUSES } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { listPage } from '../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { printJobObject } from '../../tills/print-jobs.ts';
import { idParams, livemode, unix } from './schemas.ts';

const tag = 'Printers';

export const printJobSchema = z.object({
  id: z.string().describe('Begins with pjob_'),
  object: z.literal('print_job'),
  printer: z.string(),
  till: z.string().describe('The printer’s till, which prints the job'),
  order: z.string().nullable().describe('The order whose stored receipt is printed'),
  text: z.string().nullable(),
  status: z.enum(PRINT_JOB_STATUSES).describe('`pending` until the till reports `printed` or `failed`'),
  failure_reason: z.enum(PRINT_JOB_FAILURE_REASONS).nullable(),
  failure_message: z.string().nullable(),
  livemode,
  created: unix,
  completed_at: unix.nullable(),
});

export const printJobRoutes = [
  defineRoute({
    method: 'GET',
    path: '/print-jobs',
    tag,
    summary: 'List print jobs, newest first',
    description: 'By `printer`, and by `status` (`pending` ones wait for their till).',
    auth: 'secret',
    query: listQuery.extend({
      printer: z.string().max(255).optional(),
      status: z.enum(PRINT_JOB_STATUSES).optional(),
    }),
    response: listEnvelope(printJobSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.printJobs.listSource(auth, query), query, printJobObject),
  }),
  defineRoute({
    method: 'GET',
    path: '/print-jobs/{id}',
    tag,
    summary: 'Retrieve a print job',
    auth: 'secret',
    params: idParams,
    response: printJobSchema,
    handler: ({ params, auth, db, services }) => services.printJobs.retrieve(db, auth, params.id),
  }),
];
