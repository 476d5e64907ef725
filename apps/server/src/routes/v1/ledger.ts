import { z } from 'zod';
import { LEDGER_TRANSACTION_TYPES, MERCHANT_BALANCES } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { listPage } from '../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { balanceOf, transactionObject, transactionsSource } from '../../services/ledger.ts';
import { requestLogObject, requestLogsSource } from '../../services/request-logs.ts';
import { livemode, unix, unixSecondsQuery } from './schemas.ts';

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

const money = z.array(z.object({ amount: z.number().int(), currency: z.string() }));

const requestLogSchema = z.object({
  id: z.string(),
  object: z.literal('request_log'),
  request_id: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  duration_ms: z.number().int(),
  api_key: z.string().nullable(),
  ip: z.string().nullable(),
  error_code: z.string().nullable(),
  livemode,
  created: unix,
});

export const ledgerRoutes = [
  defineRoute({
    method: 'GET',
    path: '/transactions',
    tag: 'Balance',
    summary: 'List ledger transactions',
    description:
      'One line per balance each movement of money moves, newest first. Summing `net` per `balance` and `currency` rebuilds `GET /v1/balance` (docs/LEDGER.md).',
    auth: 'secret',
    query: listQuery,
    response: listEnvelope(transactionSchema),
    handler: ({ query, auth, db }) => listPage(db, transactionsSource(auth), query, transactionObject),
  }),
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
    handler: ({ auth, db }) => balanceOf(db, auth),
  }),
  defineRoute({
    method: 'GET',
    path: '/logs',
    tag: 'Logs',
    summary: 'List this merchant’s API request log',
    description:
      'Time, method, path, status, request id, key id and duration of each request. Bodies, headers and query strings are never logged.',
    auth: 'secret',
    query: listQuery.extend({
      method: z
        .enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'get', 'post', 'put', 'patch', 'delete'])
        .optional(),
      status: z.coerce.number().int().min(100).max(599).optional(),
      status_class: z.enum(['2xx', '4xx', '5xx']).optional(),
      path: z.string().max(500).optional().describe('Path prefix, e.g. /v1/payments'),
      request_id: z.string().max(100).optional(),
      api_key: z.string().max(100).optional(),
      created_gte: unixSecondsQuery.optional(),
      created_lte: unixSecondsQuery.optional(),
    }),
    response: listEnvelope(requestLogSchema),
    handler: ({ query, auth, db }) => listPage(db, requestLogsSource(auth, query), query, requestLogObject),
  }),
];
