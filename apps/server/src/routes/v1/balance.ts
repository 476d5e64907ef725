import { z } from 'zod';
import { defineRoute } from '../../http/route.ts';
import { livemode } from './schemas.ts';

const money = z.array(z.object({ amount: z.number().int(), currency: z.string() }));

export const balanceRoutes = [
  defineRoute({
    method: 'GET',
    path: '/balance',
    tag: 'Balance',
    summary: 'Retrieve ledger and referral balance',
    description:
      'Per currency, summed from the ledger: `available` (paid, net of fees and refunds), `pending`, `referral` and `escrow` (held in escrow until released or refunded). Each is the sum of `net` over the `GET /v1/transactions` lines with that `balance` and currency.',
    auth: 'secret',
    response: z.object({
      object: z.literal('balance'),
      available: money,
      pending: money,
      referral: money,
      escrow: money,
      livemode,
    }),
    handler: ({ auth, db, services }) => services.ledger.balance(db, auth),
  }),
];
