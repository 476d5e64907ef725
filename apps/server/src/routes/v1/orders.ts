import { z } from 'zod';
import {
  ORDER_FLAGS,
  QUANTITY_UNITS,
  RETAIL_ORDER_STATUSES,
  TAX_CLASSES,
  VAT_REGIONS,
  refundOrderCommand,
  voidOrderCommand,
} from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { count } from './retail/schemas.ts';
import { currencyOut, idParams, livemode, unix } from './schemas.ts';
import { receiptDocumentSchema } from '@tz/core/receipt-schema';

/** /orders: reading, refunding and voiding orders (a sale is recorded by POST /retail/orders). */

const tag = 'Retail';

export const orderListFilters = {
  store: z.string().max(255).optional(),
  status: z.enum(RETAIL_ORDER_STATUSES).optional(),
  customer: z.string().max(255).optional(),
  receipt_number: z.string().max(40).optional(),
  till: z.string().max(255).optional().describe('The till (till_…) that rang it up'),
  cashier: z.string().max(255).optional().describe('The employee (emp_…) who sold it at the till'),
};

const receiptDocument = receiptDocumentSchema.describe(
  'The printer-independent receipt (ReceiptDocument of the shared core): render it with @tz/printers (renderReceipt) or on the till',
);

const discountOut = z
  .union([
    z.object({ type: z.literal('percent'), basis_points: count }),
    z.object({ type: z.literal('amount'), amount: count }),
  ])
  .nullable();

export const orderSchema = z.object({
  id: z.string().describe('Begins with ord_'),
  object: z.literal('order'),
  status: z.enum(RETAIL_ORDER_STATUSES),
  store: z.string(),
  till: z
    .string()
    .nullable()
    .describe('A till’s sale: the till (till_…); an API key’s order: the till name it gave'),
  cashier: z
    .string()
    .nullable()
    .describe('A till’s sale: the employee (emp_…); an API key’s order: the cashier name it gave'),
  shift: z.string().nullable().describe('The till’s shift (shift_…) the sale was rung up in'),
  client_order_id: z.string().nullable(),
  receipt_number: z.string(),
  currency: currencyOut,
  vat_region: z.enum(VAT_REGIONS),
  customer: z.string().nullable(),
  lines: z.array(
    z.object({
      line: count,
      product: z.string(),
      variant: z.string().nullable(),
      description: z.string(),
      sku: z.string().nullable(),
      unit: z.enum(QUANTITY_UNITS),
      quantity_milli: count,
      list_unit_price: count,
      unit_price: count,
      price_override: z.object({ unit_price: count, reason: z.string() }).nullable(),
      discount: discountOut,
      gross: count,
      line_discount: count,
      subtotal: count,
      order_discount: count,
      total: count.describe('What the customer paid for the line, tax included'),
      tax_rate: z.enum(TAX_CLASSES).nullable(),
      tax_rate_basis_points: count,
      tax: count,
      net: count,
      refunded_quantity_milli: count,
      refunded_amount: count,
    }),
  ),
  gross_total: count,
  line_discount_total: count,
  subtotal: count,
  discount: discountOut,
  order_discount: count,
  total: count,
  tax_total: count,
  net_total: count,
  tax_breakdown: z.array(z.object({ rate_basis_points: count, gross: count, net: count, tax: count })),
  tenders: z.array(
    z.object({
      method: z.enum(['cash', 'mobile_money', 'card', 'room']),
      amount: count,
      paid: count.describe('The part that went to the order; cash above it came back as change'),
      payment: z.string().nullable(),
      reservation: z.string().nullable().describe('A sale charged to a room: the stay, whose folio has it'),
      network: z.string().nullable(),
      reference: z.string().nullable(),
    }),
  ),
  amount_tendered: count,
  change_due: count,
  refunded_amount: count,
  refunds: z.array(
    z.object({
      id: z.string().describe('Begins with oref_'),
      object: z.literal('order_refund'),
      amount: count,
      tax: count,
      lines: z.array(z.object({ line: count, quantity_milli: count, amount: count, tax: count })),
      restocked: z.boolean(),
      reason: z.string().nullable(),
      created: unix,
    }),
  ),
  receipt: receiptDocument,
  metadata: z.record(z.string(), z.string()),
  void_reason: z.string().nullable(),
  flags: z
    .array(z.enum(ORDER_FLAGS))
    .describe(
      'What differed when a till’s sale reached the server, which records it anyway: `price_changed` (sold at the till’s price), `product_unavailable` (deleted or made inactive since), `stock_short` (took stock below zero), `customer_unknown` (dropped), `cashier_inactive` (sold after the cashier was deactivated: for review). Always empty for an API key’s order',
    ),
  livemode,
  created: unix,
  paid_at: unix.nullable(),
  voided_at: unix.nullable(),
});

export const orderRoutes = [
  defineRoute({
    method: 'GET',
    path: '/orders',
    tag,
    summary: 'List orders',
    auth: 'secret',
    query: listQuery.extend(orderListFilters),
    response: listEnvelope(orderSchema),
    handler: ({ query, auth, db, services }) => services.orders.list(db, auth, query, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/orders/{id}',
    tag,
    summary: 'Retrieve an order',
    auth: 'secret',
    params: idParams,
    response: orderSchema,
    handler: ({ params, auth, db, services }) => services.orders.retrieve(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/orders/{id}/refund',
    tag,
    summary: 'Refund an order, in full or in part',
    description:
      'Gives back each named line’s proportional share of what was paid (everything not yet refunded when `lines` is absent) and, unless `restock` is false, puts the goods back on hand. Several partial refunds add up exactly to the order total.',
    auth: 'secret',
    params: idParams,
    body: refundOrderCommand,
    response: orderSchema,
    handler: ({ params, body, auth, db, services }) => services.orders.refund(db, auth, params.id, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/orders/{id}/void',
    tag,
    summary: 'Void an order',
    description:
      'Cancels a paid sale on the East Africa Time day it was paid, as if it never happened: all goods go back on hand and a mobile money payment is freed for another order. Later, refund it instead.',
    auth: 'secret',
    params: idParams,
    body: voidOrderCommand,
    response: orderSchema,
    handler: ({ params, body, auth, db, services }) => services.orders.void(db, auth, params.id, body),
  }),
];
