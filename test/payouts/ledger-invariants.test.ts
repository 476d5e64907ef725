import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { startTestServer } from '../support/server.ts';
import { anotherMerchant } from '../support/merchant.ts';
import type { Api } from '../support/retail.ts';
import {
  availableTzs,
  bank,
  expectReconciled,
  settledPayment,
  settledPayout,
  wallet,
  WALLET,
} from './support.ts';

/**
 * The ledger's invariants (docs/LEDGER.md) on whichever database the run has:
 * postings sum to zero, balances are what the movements say, the available
 * balance never goes negative however payouts and refunds race, and the
 * reconciliation query finds nothing after random sequences of operations.
 */
let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const payoutBody = (amount: number) => ({ amount, currency: 'TZS', destination: wallet(WALLET.paid) });

async function settleAll(api: Api, ids: string[]) {
  for (const id of ids) await settledPayout(api, id);
}

describe('racing movements out of one balance', () => {
  it('lets exactly the affordable 9 of 20 concurrent payouts through, the rest 400 insufficient_funds', async () => {
    const { api, merchant } = await anotherMerchant(server);
    await settledPayment(api, 100_000); // net 98,500
    const each = Math.floor(98_500 / 10) + 1; // 10 of them would be 10 shillings too many
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api.post('/v1/payouts', payoutBody(each))),
    );
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(created).toHaveLength(9);
    expect(refused).toHaveLength(11);
    for (const answer of refused)
      expect([answer.status, answer.body.code]).toEqual([400, 'insufficient_funds']);
    expect(await availableTzs(api)).toBe(98_500 - 9 * each);
    await settleAll(
      api,
      created.map((a) => a.body.id),
    );
    expect(await availableTzs(api)).toBe(98_500 - 9 * each);
    await expectReconciled(server, merchant.id);
  });

  it('never overdraws when refunds and payouts race for the same money', async () => {
    const { api, merchant } = await anotherMerchant(server);
    const payments = [];
    for (let i = 0; i < 5; i++) payments.push(await settledPayment(api, 20_000)); // net 19,700 each
    expect(await availableTzs(api)).toBe(98_500);
    const answers = await Promise.all([
      ...payments.map((p) => api.post(`/v1/payments/${p.id}/refund`)),
      ...payments.map(() => api.post('/v1/payouts', payoutBody(19_700))),
    ]);
    const succeeded = answers.filter((a) => a.status === 200 || a.status === 201);
    // Each success takes 19,700 of the 98,500: exactly five fit, whichever they are.
    expect(succeeded).toHaveLength(5);
    for (const answer of answers.filter((a) => a.status >= 400)) {
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('insufficient_funds');
    }
    expect(await availableTzs(api)).toBe(0);
    await settleAll(
      api,
      succeeded.filter((a) => a.body.object === 'payout').map((a) => a.body.id),
    );
    await expectReconciled(server, merchant.id);
  });
});

type Op =
  | { kind: 'pay'; amount: number; outcome: 'paid' | 'fails' | 'pending' }
  | { kind: 'refund'; pick: number }
  | { kind: 'payout'; perMille: number; to: 'wallet' | 'bank'; outcome: 'paid' | 'fails' | 'pending' };

const outcome = fc.constantFrom('paid' as const, 'paid' as const, 'fails' as const, 'pending' as const);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('pay' as const), amount: fc.integer({ min: 100, max: 200_000 }), outcome }),
  fc.record({ kind: fc.constant('refund' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('payout' as const),
    // Up to 20% more than the available balance, so some are refused.
    perMille: fc.integer({ min: 1, max: 1_200 }),
    to: fc.constantFrom('wallet' as const, 'bank' as const),
    outcome,
  }),
);

const PHONES = { paid: WALLET.paid, fails: WALLET.fails, pending: WALLET.pending };
const ACCOUNTS = { paid: '01501234567001', fails: '01501234560002', pending: '01501234560003' };

/** Runs the operations one by one against a model of the available balance, checking each answer. */
async function runAgainstModel(ops: Op[]) {
  const { api, merchant } = await anotherMerchant(server);
  let available = 0;
  const payments: Array<{ id: string; status: string; net: number }> = [];
  for (const step of ops) {
    if (step.kind === 'pay') {
      if (step.outcome === 'pending') {
        const created = await api.post('/v1/payments', {
          amount: step.amount,
          currency: 'TZS',
          phone: PHONES.pending,
        });
        payments.push({ id: created.body.id, status: 'pending', net: 0 });
      } else {
        const settled = await settledPayment(api, step.amount, PHONES[step.outcome]);
        payments.push({ id: settled.id, status: settled.status, net: settled.net ?? 0 });
        if (settled.status === 'paid') available += settled.net;
      }
    } else if (step.kind === 'refund') {
      if (payments.length === 0) continue;
      const payment = payments[step.pick % payments.length]!;
      const answer = await api.post(`/v1/payments/${payment.id}/refund`);
      if (payment.status === 'paid' && payment.net <= available) {
        expect(answer.status).toBe(200);
        available -= payment.net;
        payment.status = 'refunded';
      } else {
        expect(answer.status).toBe(400);
        expect(answer.body.code).toBe(
          payment.status === 'paid' ? 'insufficient_funds' : 'state_transition_invalid',
        );
      }
    } else {
      const amount = Math.max(1, Math.floor((available * step.perMille) / 1_000));
      const destination = step.to === 'wallet' ? wallet(PHONES[step.outcome]) : bank(ACCOUNTS[step.outcome]);
      const answer = await api.post('/v1/payouts', { amount, currency: 'TZS', destination });
      if (amount > available) {
        expect([answer.status, answer.body.code]).toEqual([400, 'insufficient_funds']);
      } else {
        expect(answer.status).toBe(201);
        available -= amount;
        if (step.outcome !== 'pending') {
          const settled = await settledPayout(api, answer.body.id);
          expect(settled.status).toBe(step.outcome === 'paid' ? 'paid' : 'failed');
          if (settled.status === 'failed') available += amount;
        }
      }
    }
    expect(await availableTzs(api)).toBe(available);
    expect(available).toBeGreaterThanOrEqual(0);
  }
  // Every balance the API reports is the sum of its postings.
  const sums = await server.database.pool.query<{ account: string; total: number }>(
    `SELECT account, sum(amount)::bigint AS total FROM ledger_postings
     WHERE merchant_id = $1 AND NOT livemode AND currency = 'TZS' GROUP BY account`,
    [merchant.id],
  );
  const balance = (await api.get('/v1/balance')).body;
  const posted = (account: string) => sums.rows.find((r) => r.account === account)?.total ?? 0;
  expect(balance.available.find((b: any) => b.currency === 'TZS')?.amount ?? 0).toBe(
    posted('merchant_available'),
  );
  expect(balance.pending.find((b: any) => b.currency === 'TZS')?.amount ?? 0).toBe(
    posted('merchant_pending'),
  );
  await expectReconciled(server, merchant.id);
}

describe('the reconciliation query', () => {
  it('finds what a write that skipped the ledger, or a ledger entry with no movement behind it, leaves', async () => {
    const { api, merchant } = await anotherMerchant(server);
    await settledPayment(api, 10_000);
    const created = await api.post('/v1/payouts', {
      amount: 1_000,
      currency: 'TZS',
      destination: wallet(WALLET.pending),
    });
    await expectReconciled(server, merchant.id);
    // A payout failed without its reversal posted.
    await server.database.pool.query(
      `UPDATE payouts SET status = 'failed', failure_code = 'x', failure_message = 'x' WHERE id = $1`,
      [created.body.id],
    );
    const { reconcile } = await import('../../apps/server/src/ledger/reconciliation.ts');
    const found = await reconcile(server.database.pool, merchant.id);
    expect(found.map((d) => [d.check, d.subject, d.expected, d.actual])).toEqual(
      expect.arrayContaining([
        ['movement_unposted', `payout_reversal ${created.body.id}`, 1, 0],
        ['account_mismatch', 'merchant_available', 9_850, 8_850],
        ['account_mismatch', 'merchant_payouts_in_transit', 0, 1_000],
      ]),
    );
    // A balanced ledger entry that no payout explains.
    await server.database.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO ledger_transactions (id, merchant_id, livemode, type, source_id, currency, amount, fee, net)
         VALUES ('txn_rogue_${merchant.id}', $1, false, 'payout', 'po_nothing', 'TZS', -500, 0, -500)`,
        [merchant.id],
      );
      await tx.query(
        `INSERT INTO ledger_postings (transaction_id, merchant_id, livemode, account, currency, amount)
         VALUES ('txn_rogue_${merchant.id}', $1, false, 'merchant_available', 'TZS', -500),
                ('txn_rogue_${merchant.id}', $1, false, 'provider_clearing', 'TZS', 500)`,
        [merchant.id],
      );
    });
    const more = await reconcile(server.database.pool, merchant.id);
    expect(more.map((d) => [d.check, d.subject])).toEqual(
      expect.arrayContaining([
        ['posting_unexplained', 'payout po_nothing'],
        ['money_unaccounted', expect.stringContaining('money in = available')],
      ]),
    );
    // Another merchant's books are not this one's.
    const other = await anotherMerchant(server);
    expect(await reconcile(server.database.pool, other.merchant.id)).toEqual([]);
  });
});

describe('random sequences of payments, refunds and payouts', () => {
  it('keep the model’s balance at every step and leave nothing for the reconciliation to find', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), (ops) => runAgainstModel(ops)),
      { numRuns: 15 },
    );
  }, 240_000);
});
