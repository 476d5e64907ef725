import { z } from 'zod';
import { defineRoute } from '../../http/route.ts';
import { printJobSchema } from './print-jobs.ts';

const tag = 'Printers';

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
    handler: ({ body, auth, db, services }) => services.printJobs.create(db, auth, body),
  }),
];
