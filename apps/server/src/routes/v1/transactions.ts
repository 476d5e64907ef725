import { z } from 'zod';
import { LEDGER_TRANSACTION_TYPES, MERCHANT_BALANCES } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { listPage } from '../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { transactionObject } from '../../ledger/service.ts';
import { livemode, unix } from './schemas.ts';

const transactionSchema = z.object({
  id: z
    .string()
    .describe(
      'Begins with txn_. A transaction that moves two balances (an escrow hold: available and escrow) lists as two lines, the second’s id ending in _<balance>',
    ),
  object: z.literal('transaction'),
  type: z.enum(LEDGER_TRANSACTION_TYPES),
  balance: z
    .enum(MERCHANT_BALANCES)
    .describe(
      'The balance of `GET /v1/balance` this line moves: per balance and currency, the sum of `net` over all lines is that balance',
    ),
  source: z
    .string()
    .describe(
      'What the transaction records: a payment, a payout (po_), an escrow (esc_) or escrow split (esp_); for a referral earning, the referred merchant’s payment',
    ),
  amount: z
    .number()
    .int()
    .describe(
      'Signed as `balance` moves, before the fee (a payment’s gross): refunds, payouts, escrow holds (on available) and money leaving escrow are negative, a failed payout’s return positive, a paid payout 0 (it left available at creation)',
    ),
  fee: z.number().int().describe('Our fee, signed like `amount` (a refund returns it); `net = amount - fee`'),
  net: z.number().int().describe('The signed change to `balance`'),
  currency: z.string(),
  description: z.string().nullable(),
  livemode,
  created: unix,
});

export const transactionRoutes = [
  defineRoute({
    method: 'GET',
    path: '/transactions',
    tag: 'Balance',
    summary: 'List ledger transactions',
    description:
      'One line per balance each movement of money moves, newest first. Summing `net` per `balance` and `currency` rebuilds `GET /v1/balance` (docs/LEDGER.md).',
    auth: 'secret',
    query: listQuery.extend({
      source: z
        .string()
        .max(255)
        .optional()
        .describe('Only the lines of what this id records (pay_, po_, esc_…)'),
    }),
    response: listEnvelope(transactionSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.ledger.transactionsSource(auth, query), query, transactionObject),
  }),
];
