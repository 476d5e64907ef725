import { z } from 'zod';
import { EAST_AFRICA_TIME_ZONE, QUANTITY_UNITS } from '@tz/core';
import { defineRoute } from '../../../http/route.ts';
import { count } from './schemas.ts';
import { currencyOut, livemode } from '../schemas.ts';

/** /retail: the day's overview per store. */

const tag = 'Retail';

export const overviewQuery = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be YYYY-MM-DD' })
    .optional()
    .describe('East Africa Time calendar day; defaults to today'),
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(31)
    .default(1)
    .describe('How many calendar days, ending on `date`, the sales cover (7: the last week)'),
});

export const overviewSchema = z.object({
  object: z.literal('retail_overview'),
  date: z.string(),
  days: count.describe('The calendar days ending on `date` that the sales cover'),
  time_zone: z.literal(EAST_AFRICA_TIME_ZONE),
  livemode,
  stores: z.array(
    z.object({
      store: z.string(),
      name: z.string(),
      default: z.boolean(),
      currency: currencyOut,
      sales: count.describe('Sales of the day net of refunds; voided sales left out'),
      refunds: count,
      order_count: count,
      voided_count: count,
      sales_by_hour: z
        .array(count)
        .length(24)
        .describe('`sales` by the hour of the day they were paid in (0 = from midnight), over the days'),
      sales_by_day: z
        .array(z.object({ date: z.string(), sales: count }))
        .describe('`sales` by calendar day, oldest first: one entry per day'),
      top_products: z.array(
        z.object({
          product: z.string(),
          variant: z.string().nullable(),
          description: z.string(),
          quantity_milli: count,
          sales: count,
        }),
      ),
      low_stock: z.array(
        z.object({
          product: z.string(),
          variant: z.string().nullable(),
          description: z.string(),
          unit: z.enum(QUANTITY_UNITS),
          on_hand_milli: count,
          reorder_level_milli: count.nullable(),
          negative: z.boolean(),
        }),
      ),
    }),
  ),
});

export const overviewRoutes = [
  defineRoute({
    method: 'GET',
    path: '/retail',
    tag,
    summary: 'Retail overview',
    description:
      'Per store, for one East Africa Time calendar day (today by default) or the `days` days ending on it: sales net of refunds, order count, sales by hour and by day, the best-selling products, and the items at or below their reorder level or below zero.',
    auth: 'secret',
    query: overviewQuery,
    response: overviewSchema,
    handler: ({ query, auth, db, services }) =>
      services.retailOverview.of(db, auth, { date: query.date, days: query.days }),
  }),
];
