import { z } from 'zod';
import { PRINT_JOB_FAILURE_REASONS, PRINT_JOB_STATUSES } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { createPrintJob, retrievePrintJob } from '../../tills/print-jobs.ts';
import { idParams, livemode, unix } from './schemas.ts';

const tag = 'Printers';

const printJobSchema = z.object({
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

export const printRoutes = [
  defineRoute({
    method: 'POST',
    path: '/print',
    tag,
    summary: 'Print',
    description:
      'Sends an order’s receipt (as stored with the order, so a reprint is the same receipt) or plain text to a printer. The job is `pending` until the printer’s till pulls it, prints it and reports back (`print_job.printed` or `print_job.failed`); a till that is offline prints it when it reconnects. A job for a revoked till’s printer fails at once with `till_revoked`.',
    auth: 'secret',
    status: 201,
    body: z
      .strictObject({
        printer: z.string().min(1).max(255).describe('A printer (prn_…) of this account'),
        order: z.string().min(1).max(255).optional().describe('An order (ord_…): prints its receipt'),
        text: z.string().min(1).max(20_000).optional().describe('Plain text, printed as given'),
      })
      .superRefine((value, ctx) => {
        if ((value.order === undefined) === (value.text === undefined)) {
          ctx.addIssue({ code: 'custom', path: ['order'], message: 'give order or text (one of them)' });
        }
      }),
    response: printJobSchema,
    handler: ({ body, auth, db }) => createPrintJob(db, auth, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/print-jobs/{id}',
    tag,
    summary: 'Retrieve a print job',
    auth: 'secret',
    params: idParams,
    response: printJobSchema,
    handler: ({ params, auth, db }) => retrievePrintJob(db, auth, params.id),
  }),
];
