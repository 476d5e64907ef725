import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../apps/server/src/db/database.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { ReferralEarner } from '../../apps/server/src/referrals/earner.ts';
import { reconcile } from '../../apps/server/src/ledger/reconciliation.ts';
import { anotherMerchant, type SignedUp } from '../support/merchant.ts';
import { client, eventually, startTestServer } from '../support/server.ts';
import { throwingLogger } from '../support/logger.ts';
import type { Api } from '../support/retail.ts';
import { expectReconciled, settledPayment, settledPayout, wallet, WALLET } from '../payouts/support.ts';
import { expectBalanceRebuilt } from './support.ts';

/**
 * The reconciliation (docs/LEDGER.md) across every kind of money movement:
 * random sequences of payments, refunds, payouts, escrow holds, releases to
 * merchants and phones, escrow refunds and referral earnings keep a model's
 * balances for all three merchants involved, each merchant's transaction list
 * rebuilds its balance, and they leave nothing to find; a row broken on purpose
 * is found.
 */
let server: RunningServer;
let referrer: SignedUp;
let recipient: SignedUp;
let code: string;

// The embedded database migrates at start, which takes a while on a busy machine.
beforeAll(async () => {
  server = await startTestServer();
  referrer = await anotherMerchant(server, { business_name: 'Wakala Mkuu' });
  recipient = await anotherMerchant(server, { business_name: 'Fundi Seller' });
  code = (await referrer.api.get('/v1/referrals')).body.code;
}, 180_000);
afterAll(() => server?.close());

/** A merchant signed up with the referrer's code. */
async function referredMerchant(): Promise<SignedUp & { id: string }> {
  const response = await client(server.url).post('/v1/merchants', {
    business_name: 'Duka la Rafiki',
    email: `rec${Date.now()}${Math.random().toString(36).slice(2, 8)}@example.tz`,
    password: 'correct horse battery',
    referral_code: code,
  });
  expect(response.status).toBe(201);
  const key = response.body.api_keys.find(
    (k: { type: string; mode: string }) => k.type === 'secret' && k.mode === 'test',
  ).key;
  return { id: response.body.id, merchant: response.body, api: client(server.url, key) };
}

/** Credits every earning due, as a second server process's poller would. */
const creditEarnings = () =>
  new ReferralEarner(server.database, server.services.events, throwingLogger).creditAll();

async function balances(api: Api) {
  const body = (await api.get('/v1/balance')).body as Record<
    string,
    Array<{ amount: number; currency: string }>
  >;
  const tzs = (key: string) => body[key]?.find((b) => b.currency === 'TZS')?.amount ?? 0;
  return { available: tzs('available'), escrow: tzs('escrow'), referral: tzs('referral') };
}

type Outcome = 'paid' | 'fails' | 'pending';
type Destination = 'merchant' | Outcome;
type Op =
  | { kind: 'pay'; amount: number; outcome: Outcome }
  | { kind: 'refund'; pick: number }
  | { kind: 'payout'; perMille: number; outcome: Outcome }
  | { kind: 'hold'; pick: number; feePerMille: number; to: Destination[] }
  | { kind: 'release'; pick: number }
  | { kind: 'escrowRefund'; pick: number }
  | { kind: 'earn' };

const outcome = fc.constantFrom<Outcome>('paid', 'paid', 'fails', 'pending');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('pay' as const), amount: fc.integer({ min: 1_000, max: 200_000 }), outcome }),
  fc.record({ kind: fc.constant('refund' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('payout' as const), perMille: fc.integer({ min: 1, max: 1_200 }), outcome }),
  fc.record({
    kind: fc.constant('hold' as const),
    pick: fc.nat(),
    feePerMille: fc.integer({ min: 0, max: 100 }),
    to: fc.array(fc.constantFrom<Destination>('merchant', 'paid', 'fails', 'pending'), {
      minLength: 1,
      maxLength: 3,
    }),
  }),
  fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('escrowRefund' as const), pick: fc.nat() }),
  fc.constant({ kind: 'earn' as const }),
);

const PHONES: Record<Outcome, string> = { paid: WALLET.paid, fails: WALLET.fails, pending: WALLET.pending };
/** The referrer's share of a fee: 10 %, rounded half up (docs/APPS.md). */
const share = (fee: number) => Math.floor((fee * 1_000 + 5_000) / 10_000);

interface ModelPayment {
  id: string;
  status: string;
  net: number;
  fee: number;
  held: boolean;
}
interface ModelEscrow {
  id: string;
  splits: Array<{ id: string; to: Destination; amount: number; status: string }>;
  fee: number;
  feeCollected: boolean;
  refunded: boolean;
}

/** Runs the operations one by one against a model of all three merchants' balances. */
async function runAgainstModel(ops: Op[]) {
  const me = await referredMerchant();
  const api = me.api;
  const model = { available: 0, escrow: 0 };
  const other = await balances(recipient.api);
  let earned = 0;
  const payments: ModelPayment[] = [];
  const escrows: ModelEscrow[] = [];

  /** Releases every held split, as the API does without `splits`, and waits out the phone transfers. */
  async function release(escrow: ModelEscrow) {
    const held = escrow.splits.filter((s) => s.status === 'held');
    const answer = await api.post(`/v1/escrow/${escrow.id}/release`);
    if (held.length === 0) {
      expect([answer.status, answer.body.code]).toEqual([400, 'state_transition_invalid']);
      return;
    }
    expect(answer.status).toBe(200);
    const takeFee = () => {
      if (escrow.feeCollected) return;
      escrow.feeCollected = true;
      model.escrow -= escrow.fee;
    };
    for (const split of held) {
      if (split.to === 'merchant') {
        split.status = 'released';
        model.escrow -= split.amount;
        other.available += split.amount;
        takeFee();
      } else if (split.to === 'pending') {
        split.status = 'sending';
      }
    }
    for (const split of held.filter((s) => s.to === 'paid' || s.to === 'fails')) {
      const settled = await eventually(async () => {
        const found = (await api.get(`/v1/escrow/${escrow.id}`)).body.splits.find(
          (s: { id: string }) => s.id === split.id,
        );
        return found.status !== 'sending' ? found : undefined;
      });
      if (split.to === 'paid') {
        expect(settled.status).toBe('released');
        split.status = 'released';
        model.escrow -= split.amount;
        takeFee();
      } else {
        expect(settled).toMatchObject({ status: 'held', failure_code: expect.any(String) });
      }
    }
  }

  for (const step of ops) {
    if (step.kind === 'pay') {
      const payment =
        step.outcome === 'pending'
          ? await api
              .post('/v1/payments', { amount: step.amount, currency: 'TZS', phone: PHONES.pending })
              .then((r) => ({ ...r.body, status: 'pending' }))
          : await settledPayment(api, step.amount, PHONES[step.outcome]);
      payments.push({
        id: payment.id,
        status: payment.status,
        net: payment.net ?? 0,
        fee: payment.fee ?? 0,
        held: false,
      });
      if (payment.status === 'paid') {
        model.available += payment.net;
        earned += share(payment.fee);
      }
    } else if (step.kind === 'refund') {
      if (payments.length === 0) continue;
      const payment = payments[step.pick % payments.length]!;
      const answer = await api.post(`/v1/payments/${payment.id}/refund`);
      if (payment.status !== 'paid') {
        expect([answer.status, answer.body.code]).toEqual([400, 'state_transition_invalid']);
      } else if (payment.held) {
        expect([answer.status, answer.body.code]).toEqual([400, 'payment_already_used']);
      } else if (payment.net > model.available) {
        expect([answer.status, answer.body.code]).toEqual([400, 'insufficient_funds']);
      } else {
        expect(answer.status).toBe(200);
        model.available -= payment.net;
        payment.status = 'refunded';
      }
    } else if (step.kind === 'payout') {
      const amount = Math.max(1, Math.floor((model.available * step.perMille) / 1_000));
      const answer = await api.post('/v1/payouts', {
        amount,
        currency: 'TZS',
        destination: wallet(PHONES[step.outcome]),
      });
      if (amount > model.available) {
        expect([answer.status, answer.body.code]).toEqual([400, 'insufficient_funds']);
      } else {
        expect(answer.status).toBe(201);
        model.available -= amount;
        if (step.outcome !== 'pending') {
          const settled = await settledPayout(api, answer.body.id);
          if (settled.status === 'failed') model.available += amount;
        }
      }
    } else if (step.kind === 'hold') {
      const eligible = payments.filter((p) => p.status === 'paid' && !p.held);
      if (eligible.length === 0) continue;
      const payment = eligible[step.pick % eligible.length]!;
      const fee = Math.floor((payment.net * step.feePerMille) / 1_000);
      // The rest split as evenly as whole shillings allow, the remainder on the last split.
      const each = Math.floor((payment.net - fee) / step.to.length);
      const amounts = step.to.map((_, i) => (i === step.to.length - 1 ? payment.net - fee - each * i : each));
      if (amounts.some((a) => a <= 0)) continue;
      const answer = await api.post('/v1/escrow', {
        payment: payment.id,
        platform_fee: fee,
        splits: step.to.map((to, i) =>
          to === 'merchant'
            ? { merchant: recipient.merchant.id, amount: amounts[i] }
            : { phone: PHONES[to], amount: amounts[i] },
        ),
      });
      if (payment.net > model.available) {
        expect([answer.status, answer.body.code]).toEqual([400, 'insufficient_funds']);
        continue;
      }
      expect(answer.status).toBe(201);
      payment.held = true;
      model.available -= payment.net;
      model.escrow += payment.net;
      escrows.push({
        id: answer.body.id,
        fee,
        feeCollected: false,
        refunded: false,
        splits: answer.body.splits.map((s: { id: string }, i: number) => ({
          id: s.id,
          to: step.to[i]!,
          amount: amounts[i]!,
          status: 'held',
        })),
      });
    } else if (step.kind === 'release') {
      if (escrows.length === 0) continue;
      const escrow = escrows[step.pick % escrows.length]!;
      if (escrow.refunded) {
        const answer = await api.post(`/v1/escrow/${escrow.id}/release`);
        expect([answer.status, answer.body.code]).toEqual([400, 'state_transition_invalid']);
      } else {
        await release(escrow);
      }
    } else if (step.kind === 'escrowRefund') {
      if (escrows.length === 0) continue;
      const escrow = escrows[step.pick % escrows.length]!;
      const rest =
        escrow.splits.filter((s) => s.status === 'held').reduce((sum, s) => sum + s.amount, 0) +
        (escrow.feeCollected ? 0 : escrow.fee);
      const answer = await api.post(`/v1/escrow/${escrow.id}/refund`);
      if (escrow.refunded || rest === 0 || escrow.splits.some((s) => s.status === 'sending')) {
        expect([answer.status, answer.body.code]).toEqual([400, 'state_transition_invalid']);
      } else {
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ status: 'refunded', refunded_amount: rest });
        escrow.refunded = true;
        for (const split of escrow.splits) if (split.status === 'held') split.status = 'refunded';
        model.escrow -= rest;
      }
    } else {
      await creditEarnings();
    }
    expect(await balances(api)).toEqual({ ...model, referral: 0 });
    expect(model.available).toBeGreaterThanOrEqual(0);
    await expectBalanceRebuilt(api);
  }

  await creditEarnings();
  await eventually(async () => {
    const credited = await server.database.pool.query<{ total: number }>(
      `SELECT coalesce(sum(amount), 0)::int AS total FROM referral_earnings WHERE referred_id = $1`,
      [me.id],
    );
    return credited.rows[0]!.total === earned;
  });
  expect((await balances(recipient.api)).available).toBe(other.available);

  // Every balance of the three merchants is the sum of its postings.
  for (const [id, who] of [
    [me.id, api],
    [recipient.merchant.id, recipient.api],
    [referrer.merchant.id, referrer.api],
  ] as const) {
    const sums = await server.database.pool.query<{ account: string; total: number }>(
      `SELECT account, sum(amount)::bigint AS total FROM ledger_postings
       WHERE merchant_id = $1 AND NOT livemode AND currency = 'TZS' GROUP BY account`,
      [id],
    );
    const posted = (account: string) => Number(sums.rows.find((r) => r.account === account)?.total ?? 0);
    expect(await balances(who)).toEqual({
      available: posted('merchant_available'),
      escrow: posted('merchant_escrow'),
      referral: posted('merchant_referral'),
    });
  }
  for (const id of [me.id, recipient.merchant.id, referrer.merchant.id]) await expectReconciled(server, id);
  // The holder's escrow lines, the recipient's releases and the referrer's earnings, over all runs so far.
  for (const who of [api, recipient.api, referrer.api]) await expectBalanceRebuilt(who);
}

/** Every movement at least once, run before the random sequences: chance may draw few holds. */
const EVERY_MOVEMENT: Op[] = [
  { kind: 'pay', amount: 20_000, outcome: 'paid' },
  { kind: 'pay', amount: 10_000, outcome: 'paid' },
  { kind: 'pay', amount: 5_000, outcome: 'fails' },
  { kind: 'hold', pick: 0, feePerMille: 50, to: ['merchant', 'paid', 'fails'] },
  { kind: 'release', pick: 0 },
  { kind: 'escrowRefund', pick: 0 },
  { kind: 'hold', pick: 0, feePerMille: 0, to: ['pending'] },
  { kind: 'release', pick: 1 },
  { kind: 'refund', pick: 0 },
  { kind: 'payout', perMille: 500, outcome: 'paid' },
  { kind: 'payout', perMille: 500, outcome: 'fails' },
  { kind: 'earn' },
];

describe('random sequences of every kind of money movement', () => {
  it('keep the model’s balances, rebuildable from the transaction list, and leave nothing for the reconciliation to find', async () => {
    const referralBefore = (await balances(referrer.api)).referral;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), (ops) => runAgainstModel(ops)),
      { numRuns: 15, examples: [[EVERY_MOVEMENT]] },
    );
    const earned = await server.database.pool.query<{ total: number }>(
      `SELECT coalesce(sum(amount), 0)::int AS total FROM referral_earnings WHERE merchant_id = $1`,
      [referrer.merchant.id],
    );
    expect((await balances(referrer.api)).referral).toBe(earned.rows[0]!.total);
    expect(earned.rows[0]!.total).toBeGreaterThanOrEqual(referralBefore);
  }, 480_000);
});

describe('the balance totals', () => {
  it('equal the sums of the postings after every sequence above, and rebuild to the same', async () => {
    // Both sides in one statement, so one snapshot.
    const sides = `SELECT
      (SELECT json_agg(k ORDER BY k.merchant_id, k.livemode, k.account, k.currency) FROM (
         SELECT merchant_id, livemode, account, currency, sum(postings)::int AS postings, sum(amount)::bigint AS amount
         FROM ledger_balance_totals GROUP BY 1, 2, 3, 4 HAVING sum(postings) <> 0) k) AS kept,
      (SELECT json_agg(p ORDER BY p.merchant_id, p.livemode, p.account, p.currency) FROM (
         SELECT merchant_id, livemode, account, currency, count(*)::int AS postings, sum(amount)::bigint AS amount
         FROM ledger_postings
         WHERE account IN ('merchant_available', 'merchant_pending', 'merchant_escrow', 'merchant_referral')
         GROUP BY 1, 2, 3, 4) p) AS posted`;
    // Every posting of the sequences above (payments, refunds, payouts, escrow, earnings) went through the triggers.
    const { kept, posted } = (await server.database.pool.query(sides)).rows[0]!;
    const accounts = new Set(posted.map((row: { account: string }) => row.account));
    expect([...accounts].sort()).toEqual(['merchant_available', 'merchant_escrow', 'merchant_referral']);
    expect(kept).toEqual(posted);
    await brokenThenRolledBack(async (tx) => {
      await tx.query('SELECT ledger_balance_totals_rebuild()');
      const rebuilt = (await tx.query(sides)).rows[0]!;
      expect(rebuilt.kept).toEqual(rebuilt.posted);
      expect(rebuilt.kept).toEqual(kept);
    });
  });
});

/** Runs `work` on rows it breaks in a transaction that is then rolled back; answers what `work` answers. */
async function brokenThenRolledBack<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
  let result: T | undefined;
  const undo = new Error('rolled back');
  await server.database
    .transaction(async (tx) => {
      result = await work(tx);
      throw undo;
    })
    .catch((error: unknown) => {
      if (error !== undo) throw error;
    });
  return result as T;
}

const checks = (found: Awaited<ReturnType<typeof reconcile>>) => found.map((d) => [d.check, d.subject]);

describe('the reconciliation finds a broken row', () => {
  it('an escrow release whose split was not moved, or a split released with no posting', async () => {
    const holder = await anotherMerchant(server);
    const payment = await settledPayment(holder.api, 10_000); // net 9,850
    const created = await holder.api.post('/v1/escrow', {
      payment: payment.id,
      platform_fee: 850,
      splits: [
        { merchant: recipient.merchant.id, amount: 5_000 },
        { merchant: recipient.merchant.id, amount: 4_000 },
      ],
    });
    expect(created.status).toBe(201);
    const [first, second] = created.body.splits.map((s: { id: string }) => s.id);
    expect((await holder.api.post(`/v1/escrow/${created.body.id}/release`, { splits: [first] })).status).toBe(
      200,
    );
    await expectReconciled(server, holder.merchant.id);
    await expectReconciled(server, recipient.merchant.id);

    // The release posted, but its split row says it is still held.
    await server.database.pool.query(
      `UPDATE escrow_splits SET status = 'held', released_at = NULL WHERE id = $1`,
      [first],
    );
    expect(checks(await reconcile(server.database.pool, recipient.merchant.id))).toEqual(
      expect.arrayContaining([
        ['posting_unexplained', `escrow_release ${first}`],
        ['account_mismatch', 'merchant_available'],
        ['money_unaccounted', expect.stringContaining('released_to_merchants')],
      ]),
    );
    expect(checks(await reconcile(server.database.pool, holder.merchant.id))).toEqual(
      expect.arrayContaining([['account_mismatch', 'merchant_escrow']]),
    );
    await server.database.pool.query(
      `UPDATE escrow_splits SET status = 'released', released_at = now() WHERE id = $1`,
      [first],
    );
    await expectReconciled(server, holder.merchant.id);

    // A split marked released with nothing posted.
    await server.database.pool.query(
      `UPDATE escrow_splits SET status = 'released', released_at = now() WHERE id = $1`,
      [second],
    );
    const found = await reconcile(server.database.pool, recipient.merchant.id);
    expect(checks(found)).toContainEqual(['movement_unposted', `escrow_release ${second}`]);
    const mismatch = found.find((d) => d.check === 'account_mismatch' && d.subject === 'merchant_available');
    expect(mismatch!.expected! - mismatch!.actual!).toBe(4_000);
    await server.database.pool.query(
      `UPDATE escrow_splits SET status = 'held', released_at = NULL WHERE id = $1`,
      [second],
    );
    await expectReconciled(server, recipient.merchant.id);
  });

  it('a referral earning without its record, and a posting on a merchant it does not concern', async () => {
    const me = await referredMerchant();
    const payment = await settledPayment(me.api, 10_000); // fee 150, share 15
    await creditEarnings();
    await eventually(async () => {
      const r = await server.database.pool.query(`SELECT 1 FROM referral_earnings WHERE payment_id = $1`, [
        payment.id,
      ]);
      return r.rowCount === 1;
    });
    await expectReconciled(server, me.id);
    await expectReconciled(server, referrer.merchant.id);

    const transactionId = await brokenThenRolledBack(async (tx) => {
      const record = await tx.query<{ transaction_id: string }>(
        `DELETE FROM referral_earnings WHERE payment_id = $1 RETURNING transaction_id`,
        [payment.id],
      );
      expect(checks(await reconcile(tx, referrer.merchant.id))).toEqual(
        expect.arrayContaining([
          ['posting_unexplained', `referral_earning ${payment.id}`],
          ['account_mismatch', 'merchant_referral'],
          ['money_unaccounted', expect.stringContaining('referral')],
        ]),
      );
      expect(checks(await reconcile(tx, me.id))).toEqual(
        expect.arrayContaining([['account_mismatch', 'platform_fees']]),
      );
      return record.rows[0]!.transaction_id;
    });
    await expectReconciled(server, referrer.merchant.id);

    // The fee side of the earning moved onto a merchant the payment is not of.
    await brokenThenRolledBack(async (tx) => {
      await tx.query(
        `UPDATE ledger_postings SET merchant_id = $2 WHERE transaction_id = $1 AND account = 'platform_fees'`,
        [transactionId, recipient.merchant.id],
      );
      expect(checks(await reconcile(tx, referrer.merchant.id))).toContainEqual([
        'posting_foreign',
        transactionId,
      ]);
    });
    await expectReconciled(server, referrer.merchant.id);
  });

  it('a transaction-list line that no longer sums to its balance, or is missing', async () => {
    const { api, merchant } = await anotherMerchant(server);
    const payment = await settledPayment(api, 10_000); // net 9,850
    const hold = await api.post('/v1/escrow', {
      payment: payment.id,
      splits: [{ phone: WALLET.paid, amount: 9_850 }],
    });
    expect(hold.status).toBe(201);
    await expectBalanceRebuilt(api);
    await expectReconciled(server, merchant.id);

    await brokenThenRolledBack(async (tx) => {
      await tx.query(
        `UPDATE balance_transactions SET amount = amount + 1, net = net + 1 WHERE transaction_id IN
           (SELECT id FROM ledger_transactions WHERE source_id = $1) AND balance = 'available'`,
        [payment.id],
      );
      expect(checks(await reconcile(tx, merchant.id))).toEqual([['listing_mismatch', 'available']]);
    });
    await brokenThenRolledBack(async (tx) => {
      await tx.query(`DELETE FROM balance_transactions WHERE merchant_id = $1 AND balance = 'escrow'`, [
        merchant.id,
      ]);
      expect(checks(await reconcile(tx, merchant.id))).toEqual([['listing_mismatch', 'escrow']]);
    });
    // A balance total that no longer sums its postings, or counts one too many.
    await brokenThenRolledBack(async (tx) => {
      await tx.query(
        `UPDATE ledger_balance_totals SET amount = amount + 1
         WHERE merchant_id = $1 AND account = 'merchant_available' AND slot = (
           SELECT min(slot) FROM ledger_balance_totals WHERE merchant_id = $1 AND account = 'merchant_available')`,
        [merchant.id],
      );
      expect(checks(await reconcile(tx, merchant.id))).toEqual([['total_mismatch', 'available']]);
    });
    await brokenThenRolledBack(async (tx) => {
      await tx.query(
        `UPDATE ledger_balance_totals SET postings = postings + 1 WHERE merchant_id = $1 AND account = 'merchant_escrow'`,
        [merchant.id],
      );
      expect(checks(await reconcile(tx, merchant.id))).toEqual([['total_mismatch', 'escrow postings']]);
    });
    await expectReconciled(server, merchant.id);
  });
});
