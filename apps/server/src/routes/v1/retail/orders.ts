import { createOrderCommand } from '@tz/core';
import { defineRoute } from '../../../http/route.ts';
import { orderSchema } from '../orders.ts';

/** /retail/orders: recording a sale. */

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
    handler: async ({ body, auth, db, respondWith, services }) => {
      const { order, created } = await services.orders.create(db, auth, body);
      if (!created) respondWith(200);
      return order;
    },
  }),
];
