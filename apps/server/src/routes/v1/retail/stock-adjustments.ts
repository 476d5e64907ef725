import { z } from 'zod';
import { QUANTITY_UNITS, stockAdjustmentCommand } from '@tz/core';
import { defineRoute } from '../../../http/route.ts';
import { count } from './schemas.ts';
import { livemode, unix } from '../schemas.ts';

/** /retail/stock-adjustments: changing what is on hand (a store's levels are under /retail/stores/{id}/stock). */

const tag = 'Retail';

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

export const stockAdjustmentRoutes = [
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
    handler: ({ body, auth, db, services }) => services.stock.adjust(db, auth, body),
  }),
];
