import { z } from 'zod';
import {
  PAPER_WIDTHS,
  PRINTER_CODE_PAGES,
  PRINTER_COMMAND_SETS,
  PRINTER_STATUSES,
  printerConnectionSchema,
} from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { listPage } from '../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { printerObject } from '../../tills/printers.ts';
import { booleanQuery } from './retail/schemas.ts';
import { idParams, livemode, unix } from './schemas.ts';

const tag = 'Printers';

const paperWidth = z
  .union([z.literal(58), z.literal(80)], { error: `must be ${PAPER_WIDTHS.join(' or ')} (mm)` })
  .describe('Paper roll width in mm');
const commandSet = z
  .enum(PRINTER_COMMAND_SETS)
  .describe('`epson` (ESC/POS, most printers) or `star` (Star Line Mode)');
const codePage = z
  .enum(PRINTER_CODE_PAGES)
  .describe('The printer’s character table; PC850 is not available on Star printers. Null: PC437.');

const printerSchema = z.object({
  id: z.string().describe('Begins with prn_'),
  object: z.literal('printer'),
  till: z.string().describe('The till (till_…) the printer is attached to; it prints the printer’s jobs'),
  name: z.string(),
  connection: z.string().describe('`tcp://HOST:PORT`, `usb://VID:PID` or `usb`'),
  paper_width: z.union([z.literal(58), z.literal(80)]),
  command_set: z.enum(PRINTER_COMMAND_SETS),
  code_page: z.enum(PRINTER_CODE_PAGES).nullable(),
  status: z.enum(PRINTER_STATUSES).describe('As its till last reported; `unknown` until then'),
  status_since: unix.nullable().describe('When the till first reported the current status'),
  deleted: z.boolean(),
  livemode,
  created: unix,
  updated: unix,
});

const name = z.string().trim().min(1, { error: 'is required' }).max(100);

export const printerRoutes = [
  defineRoute({
    method: 'GET',
    path: '/printers',
    tag,
    summary: 'List printers',
    description: 'Deleted printers are left out unless `include_deleted=true`.',
    auth: 'secret',
    query: listQuery.extend({ till: z.string().max(255).optional(), include_deleted: booleanQuery }),
    response: listEnvelope(printerSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.printers.listSource(auth, query), query, printerObject),
  }),
  defineRoute({
    method: 'GET',
    path: '/printers/{id}',
    tag,
    summary: 'Retrieve a printer',
    auth: 'secret',
    params: idParams,
    response: printerSchema,
    handler: ({ params, auth, db, services }) => services.printers.retrieve(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/printers',
    tag,
    summary: 'Create a printer',
    description:
      'A receipt printer attached to a till (not a revoked one). The till receives it at its next sync and prints the printer’s jobs. `connection` is stored in one spelling (`tcp://10.0.0.5` becomes `tcp://10.0.0.5:9100`).',
    auth: 'secret',
    status: 201,
    body: z.strictObject({
      till: z.string().min(1).max(255),
      name,
      connection: printerConnectionSchema,
      paper_width: paperWidth.optional().describe('Defaults to 80'),
      command_set: commandSet.optional().describe('Defaults to epson'),
      code_page: codePage.nullable().optional(),
    }),
    response: printerSchema,
    handler: ({ body, auth, db, services }) =>
      services.printers.create(
        db,
        auth,
        { ...body, paper_width: body.paper_width ?? 80, command_set: body.command_set ?? 'epson' },
        services.printerAllowance,
      ),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/printers/{id}',
    tag,
    summary: 'Update a printer',
    description: 'Fields left out keep their value; `code_page: null` goes back to PC437.',
    auth: 'secret',
    params: idParams,
    body: z.strictObject({
      name: name.optional(),
      connection: printerConnectionSchema.optional(),
      paper_width: paperWidth.optional(),
      command_set: commandSet.optional(),
      code_page: codePage.nullable().optional(),
    }),
    response: printerSchema,
    handler: ({ params, body, auth, db, services }) =>
      services.printers.update(db, auth, params.id, body, services.printerAllowance),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/printers/{id}',
    tag,
    summary: 'Delete a printer',
    description:
      'The printer leaves its till at the next sync; it stays retrievable with `deleted: true`. Jobs still waiting for it fail with `offline`. Deleting again changes nothing.',
    auth: 'secret',
    params: idParams,
    response: printerSchema,
    handler: ({ params, auth, db, services }) => services.printers.delete(db, auth, params.id),
  }),
];
