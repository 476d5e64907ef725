import { z } from 'zod';
import {
  currencySchema,
  INVOICE_STATUSES,
  MAX_AMOUNT,
  MAX_INVOICE_DESCRIPTION,
  MAX_INVOICE_LINES,
  MAX_INVOICE_MEMO,
  MAX_INVOICE_QUANTITY,
  MAX_UNIX_SECONDS,
  TAX_CLASSES,
  tanzanianMobileSchema,
  VAT_REGIONS,
} from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { listPage } from '../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import type { InvoiceRow } from '../../invoices/object.ts';
import { INVOICE_LANGUAGES } from '../../invoices/labels.ts';
import { currencyOut, idParams, livemode, metadataSchema, unix } from './schemas.ts';

const lineIn = z
  .strictObject({
    description: z.string().trim().min(1).max(MAX_INVOICE_DESCRIPTION),
    quantity: z.number().int().min(1).max(MAX_INVOICE_QUANTITY).default(1),
    unit_amount: z
      .number()
      .int()
      .min(0)
      .max(MAX_AMOUNT)
      .describe('Price per unit, VAT included, in the smallest currency unit'),
    tax_class: z
      .enum(TAX_CLASSES)
      .default('standard')
      .describe('VAT class: standard (18% mainland, 15% Zanzibar), zero_rated or exempt'),
  })
  .transform((line) => ({
    description: line.description,
    quantity: line.quantity,
    unitAmount: line.unit_amount,
    taxClass: line.tax_class,
  }));

const editable = {
  vat_region: z.enum(VAT_REGIONS).optional().describe('Where the supply is taxed; default mainland'),
  lines: z.array(lineIn).max(MAX_INVOICE_LINES).optional(),
  memo: z.string().max(MAX_INVOICE_MEMO).optional(),
  due_date: z
    .number()
    .int()
    .min(0)
    .max(MAX_UNIX_SECONDS)
    .optional()
    .describe('Unix seconds, in the future. Default: `days_until_due` after now'),
  days_until_due: z.number().int().min(1).max(3650).optional().describe('Default 30'),
  metadata: metadataSchema.optional(),
};

const lineOut = z.object({
  description: z.string(),
  quantity: z.number().int(),
  unit_amount: z.number().int(),
  tax_class: z.enum(TAX_CLASSES),
  tax_rate_basis_points: z.number().int(),
  amount: z.number().int().describe('unit_amount × quantity, VAT included'),
  tax: z.number().int().describe('VAT contained in amount'),
});

export const invoiceSchema = z.object({
  id: z.string().describe('Begins with in_'),
  object: z.literal('invoice'),
  number: z.string().nullable().describe('INV-000123, per merchant and mode, without gaps; null while draft'),
  status: z.enum(INVOICE_STATUSES),
  customer: z.string(),
  subscription: z.string().nullable(),
  currency: currencyOut,
  vat_region: z.enum(VAT_REGIONS),
  lines: z.array(lineOut),
  subtotal: z.number().int().describe('total less VAT'),
  tax: z.number().int(),
  total: z.number().int(),
  tax_breakdown: z.array(
    z.object({
      rate_basis_points: z.number().int(),
      gross: z.number().int(),
      net: z.number().int(),
      tax: z.number().int(),
    }),
  ),
  amount_paid: z.number().int(),
  amount_due: z.number().int(),
  memo: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  due_date: unix,
  hosted_invoice_url: z
    .string()
    .nullable()
    .describe('Absolute URL of the page where the customer sees and pays the invoice; null while draft'),
  payment: z.string().nullable().describe('The latest payment asked for; the one that paid, once paid'),
  livemode,
  created: unix,
  finalized_at: unix.nullable(),
  sent_at: unix.nullable(),
  paid_at: unix.nullable(),
  voided_at: unix.nullable(),
  marked_uncollectible_at: unix.nullable(),
  overdue_at: unix.nullable(),
});

const action = (path: string, summary: string, description: string) => ({
  method: 'POST' as const,
  path: `/invoices/{id}/${path}`,
  tag: 'Invoices',
  summary,
  description,
  auth: 'secret' as const,
  params: idParams,
  response: invoiceSchema,
});

const pdf = {
  method: 'GET' as const,
  tag: 'Invoices',
  auth: 'secret' as const,
  params: idParams,
  query: z.object({ lang: z.enum(INVOICE_LANGUAGES).default('en') }),
  response: z.instanceof(Buffer),
  contentType: 'application/pdf' as const,
};

export const invoiceRoutes = [
  defineRoute({
    method: 'POST',
    path: '/invoices',
    tag: 'Invoices',
    summary: 'Create an invoice',
    description:
      'Creates a `draft` for a customer. Lines are priced VAT included; VAT is extracted per tax class in `vat_region` by the same rules as a till sale. A draft has no number until it is finalised.',
    auth: 'secret',
    status: 201,
    body: z.strictObject({
      customer: z.string().min(1).max(255),
      currency: currencySchema,
      ...editable,
    }),
    response: invoiceSchema,
    handler: ({ body, auth, db, services }) => services.invoices.create(db, auth, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/invoices',
    tag: 'Invoices',
    summary: 'List invoices',
    auth: 'secret',
    query: listQuery.extend({
      status: z.enum(INVOICE_STATUSES).optional(),
      customer: z.string().max(255).optional(),
      subscription: z.string().max(255).optional(),
    }),
    response: listEnvelope(invoiceSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.invoices.listSource(auth, query), query, (row: InvoiceRow) =>
        services.invoices.toObject(row),
      ),
  }),
  defineRoute({
    method: 'GET',
    path: '/invoices/{id}',
    tag: 'Invoices',
    summary: 'Retrieve an invoice',
    auth: 'secret',
    params: idParams,
    response: invoiceSchema,
    handler: ({ params, auth, db, services }) => services.invoices.retrieve(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/invoices/{id}',
    tag: 'Invoices',
    summary: 'Update a draft invoice',
    description: 'Only drafts can be edited. `lines`, when given, replace all the lines.',
    auth: 'secret',
    params: idParams,
    body: z.strictObject(editable),
    response: invoiceSchema,
    handler: ({ params, body, auth, db, services }) => services.invoices.update(db, auth, params.id, body),
  }),
  defineRoute({
    ...action(
      'finalize',
      'Finalise a draft invoice',
      'Moves a draft to `open` and gives it the next number (`INV-000001`, per merchant and mode, without gaps). Refused for a total of 0 or a due date in the past.',
    ),
    handler: ({ params, auth, db, services }) => services.invoices.finalize(db, auth, params.id),
  }),
  defineRoute({
    ...action(
      'void',
      'Void an invoice',
      'A draft, open or uncollectible invoice becomes `void` and can no longer be paid. Refused while a payment for it awaits approval.',
    ),
    handler: ({ params, auth, db, services }) => services.invoices.void(db, auth, params.id),
  }),
  defineRoute({
    ...action(
      'mark_uncollectible',
      'Mark an invoice uncollectible',
      'Writes an open invoice off. It can still be paid (then it becomes `paid`) or voided.',
    ),
    handler: ({ params, auth, db, services }) => services.invoices.markUncollectible(db, auth, params.id),
  }),
  defineRoute({
    ...action(
      'send',
      'Send an invoice',
      'There is no email or SMS channel: sending finalises a draft, records `sent_at` and emits `invoice.sent` carrying `hosted_invoice_url`, for your own channel to deliver. Refused for paid and void invoices.',
    ),
    handler: ({ params, auth, db, services }) => services.invoices.send(db, auth, params.id),
  }),
  defineRoute({
    ...action(
      'pay',
      'Charge an invoice by mobile money',
      'Pushes a USSD prompt for the amount due to `phone` (default: the customer’s phone), through the same payment path as POST /v1/payments; `payment` names the new payment. The invoice becomes `paid` when the payment is paid. Refused for drafts, paid and void invoices, and while another payment for it is pending.',
    ),
    body: z.strictObject({ phone: tanzanianMobileSchema.optional() }),
    handler: async ({ params, body, auth, db, services, afterCommit }) =>
      (await services.invoiceCollection.pay(db, auth, params.id, body, afterCommit)).invoice,
  }),
  defineRoute({
    ...pdf,
    path: '/invoices/{id}/pdf',
    summary: 'The invoice as a PDF',
    description:
      'Lines, VAT by rate, totals, amount due, memo and the hosted page’s URL. `lang` is `en` (default) or `sw`. Drafts have none. Rendered once and kept until what it shows changes (paid, void, written off); 503 `service_unavailable` with `Retry-After` while too many documents are being rendered.',
    handler: ({ params, query, auth, db, services }) =>
      services.invoices.document(db, auth, params.id, 'invoice', query.lang),
  }),
  defineRoute({
    ...pdf,
    path: '/invoices/{id}/receipt/pdf',
    summary: 'The receipt of a paid invoice as a PDF',
    description:
      'What was paid, when and by which payment. 400 `payment_not_paid` until the invoice is paid. `lang` is `en` (default) or `sw`. Rendered once and kept; 503 `service_unavailable` with `Retry-After` while too many documents are being rendered.',
    handler: ({ params, query, auth, db, services }) =>
      services.invoices.document(db, auth, params.id, 'receipt', query.lang),
  }),
];
