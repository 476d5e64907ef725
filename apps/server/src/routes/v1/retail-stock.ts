import { z } from 'zod';
import { QUANTITY_UNITS, stockAdjustmentCommand } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { adjustStock, listStock } from '../../retail/stock.ts';
import { retrieveStore } from '../../retail/stores.ts';
import { booleanQuery, count } from './retail-schemas.ts';
import { idParams, livemode, unix } from './schemas.ts';

/** /retail/stores/{id}/stock and /retail/stock-adjustments: what is on hand, and changing it. */

const tag = 'Retail';

export const stockListFilters = { low: booleanQuery, product: z.string().max(255).optional() };

export const stockLevelSchema = z.object({
  id: z.string().describe('Begins with stk_'),
  object: z.literal('stock_level'),
  store: z.string(),
  product: z.string(),
  variant: z.string().nullable(),
  unit: z.enum(QUANTITY_UNITS),
  tracked: z.boolean(),
  on_hand_milli: count.describe('Thousandths of the unit; negative when more was sold than counted'),
  reorder_level_milli: count.nullable(),
  negative: z.boolean(),
  low: z.boolean().describe('At or below the reorder level, or negative'),
  livemode,
  updated: unix,
});

export const stockRoutes = [
  defineRoute({
    method: 'GET',
    path: '/retail/stores/{id}/stock',
    tag,
    summary: 'List a store’s stock levels',
    description: '`low=true` keeps the items at or below their reorder level, or below zero.',
    auth: 'secret',
    params: idParams,
    query: listQuery.extend(stockListFilters),
    response: listEnvelope(stockLevelSchema),
    handler: async ({ params, query, auth, db }) => {
      await retrieveStore(db, auth, params.id);
      return listStock(db, auth, params.id, query, query);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/retail/stock-adjustments',
    tag,
    summary: 'Set or adjust stock on hand',
    description:
      'Sets the counted quantity (`set_on_hand`) or adds to it (`adjust_by`, negative to remove), in whole units or thousandths (`_milli`), and/or the reorder level, with a reason. Products with variants keep stock per variant. Returns the stock level.',
    auth: 'secret',
    status: 201,
    body: stockAdjustmentCommand,
    response: stockLevelSchema,
    handler: ({ body, auth, db }) => adjustStock(db, auth, body),
  }),
];
