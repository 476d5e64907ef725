import { z } from 'zod';
import { SHIFT_STATUSES, TENDER_METHODS } from '@tz/core';
import { defineRoute } from '../../../http/route.ts';
import { listPage } from '../../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../../http/list.ts';
import { type ShiftRow } from '../../../tills/shifts.ts';
import { currencyOut, idParams, livemode, unix } from '../schemas.ts';

const tag = 'Retail';
const amount = z.number().int();

const zReportSchema = z
  .object({
    order_count: amount.describe('Sales rung up in the shift, voided ones left out'),
    voided_count: amount,
    sales_total: amount.describe('What the tenders paid, all methods, before refunds'),
    refunds_total: amount,
    expected_total: amount,
    counted_total: amount.nullable().describe('Of the methods counted; null when none was'),
    difference_total: amount.nullable().describe('counted − expected over the methods counted'),
    no_sale_count: amount.describe('Times the cash drawer was opened with no sale'),
    lines: z.array(
      z.object({
        method: z.enum(TENDER_METHODS),
        taken: amount.describe('Handed over at the counter (cash before change)'),
        change: amount.describe('Cash given back as change'),
        sales: amount.describe('taken − change'),
        refunds: amount.describe('Refunds of the shift’s sales: cash first, up to the cash a sale took'),
        float: amount.describe('Cash: the opening float'),
        pay_ins: amount,
        pay_outs: amount,
        desk: amount.describe(
          'Cash: taken at the front desk into this drawer (deposits, folio payments in shillings)',
        ),
        expected: amount.describe('float + sales − refunds + pay_ins − pay_outs + desk'),
        counted: amount.nullable(),
        difference: amount.nullable().describe('counted − expected: positive is over, negative short'),
      }),
    ),
    cashiers: z
      .array(
        z.object({
          cashier: z
            .string()
            .nullable()
            .describe('The employee (emp_…) who rang the sales up; null when unnamed'),
          order_count: amount,
          sales: amount.describe('What the tenders paid to their sales, less change'),
          refunds: amount.describe('Refunds of their sales recorded by the close'),
          no_sales: amount.describe('Times they opened the drawer with no sale'),
          desk_cash: amount.describe('Cash they took at the front desk'),
        }),
      )
      .describe(
        'A shift is the till’s drawer: every cashier who signs in while it is open sells into it. Their parts, in the order they first sold (then those who only opened the drawer with no sale)',
      ),
  })
  .describe('The Z report');

const shiftSchema = z.object({
  id: z.string().describe('Begins with shift_; made by the till'),
  object: z.literal('shift'),
  till: z.string(),
  store: z.string(),
  cashier: z.string().describe('The employee (emp_…) who opened it and counted its float'),
  status: z.enum(SHIFT_STATUSES),
  currency: currencyOut,
  opening_float: amount,
  opened_at: unix.describe('On the till’s clock'),
  closed_at: unix.nullable(),
  cash_movements: z.array(
    z.object({ kind: z.enum(['pay_in', 'pay_out']), amount, reason: z.string(), at: unix }),
  ),
  no_sales: z
    .array(
      z.object({
        cashier: z.string().describe('The employee (emp_…) who opened the drawer'),
        approved_by: z
          .string()
          .nullable()
          .describe('The manager whose PIN approved it; null when none was asked'),
        reason: z.string(),
        at: unix.describe('On the till’s clock'),
      }),
    )
    .describe('Each time the cash drawer was opened with no sale (moves no money)'),
  counted: z.array(z.object({ method: z.enum(TENDER_METHODS), amount })).nullable(),
  expected_cash: amount.nullable(),
  counted_cash: amount.nullable(),
  report: zReportSchema.nullable(),
  livemode,
  created: unix,
});

export const shiftRoutes = [
  defineRoute({
    method: 'GET',
    path: '/retail/shifts',
    tag,
    summary: 'List shifts',
    description:
      'Newest first. Shifts are opened, moved and closed by tills (over sync). `report` is the Z report kept at close, null while the shift is open (retrieve the shift for its running figures).',
    auth: 'secret',
    query: listQuery.extend({
      till: z.string().max(255).optional(),
      status: z.enum(SHIFT_STATUSES).optional(),
    }),
    response: listEnvelope(shiftSchema),
    handler: async ({ query, auth, db, services }) => {
      const page = await listPage(db, services.shifts.listSource(auth, query), query, (row: ShiftRow) => row);
      return { ...page, data: await services.shifts.listObjects(db, page.data) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/retail/shifts/{id}',
    tag,
    summary: 'Retrieve a shift',
    description:
      'With its Z report: expected against counted, by tender, from the orders the till rang up in the shift, refunds of them, and the cash paid in and out. A closed shift shows the report as computed at close; an open one the running figures (nothing counted yet).',
    auth: 'secret',
    params: idParams,
    response: shiftSchema,
    handler: ({ params, auth, db, services }) => services.shifts.retrieve(db, auth, params.id),
  }),
];
