import { defineRoute } from '../../http/route.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { createOrder, listOrders, refundOrder, retrieveOrder, voidOrder } from '../../retail/orders.ts';
import { createOrderCommand, refundOrderCommand, voidOrderCommand } from '@tz/core';
import { orderListFilters, orderSchema } from './retail-schemas.ts';
import { idParams } from './schemas.ts';

const tag = 'Retail';

export const retailOrderRoutes = [
  defineRoute({
    method: 'POST',
    path: '/retail/orders',
    tag,
    summary: 'Create a retail order',
    description:
      'Records a paid sale: prices the lines (tax-inclusive, VAT by the store’s region), applies the tenders (mobile money and card first, then cash, which alone gives change), numbers the receipt, decrements stock (never refusing a sale for it: stock may go negative) and returns the order with its printable receipt. A repeated `client_order_id` returns the order already recorded with 200. A line’s `unit_price`, when given, must equal the catalogue price (else 400 `price_changed`, naming the line); a paired till’s sale is instead recorded at its price and flagged (see `flags`).',
    auth: 'secret',
    status: 201,
    body: createOrderCommand,
    response: orderSchema,
    handler: async ({ body, auth, db, respondWith }) => {
      const { order, created } = await createOrder(db, auth, body);
      if (!created) respondWith(200);
      return order;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/orders',
    tag,
    summary: 'List orders',
    auth: 'secret',
    query: listQuery.extend(orderListFilters),
    response: listEnvelope(orderSchema),
    handler: ({ query, auth, db }) => listOrders(db, auth, query, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/orders/{id}',
    tag,
    summary: 'Retrieve an order',
    auth: 'secret',
    params: idParams,
    response: orderSchema,
    handler: ({ params, auth, db }) => retrieveOrder(db, auth, params.id),
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
    handler: ({ params, body, auth, db }) => refundOrder(db, auth, params.id, body),
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
    handler: ({ params, body, auth, db }) => voidOrder(db, auth, params.id, body),
  }),
];
