import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { escrowTerms } from '../../apps/server/src/escrow/terms.ts';
import { anotherMerchant, withMerchant, type SignedUp } from '../support/merchant.ts';
import { client, eventually, until } from '../support/server.ts';

// With the default fee (1.5%), a 10 000 TZS payment nets 9 850: the amount an escrow holds.
const NET = 9_850;

let server: RunningServer;
let holder: SignedUp;
let recipient: SignedUp;

// The embedded database migrates at start, which takes a while on a busy machine.
beforeAll(async () => {
  ({ server, ...holder } = await withMerchant({ business_name: 'Soko Marketplace' }));
  recipient = await anotherMerchant(server, { business_name: 'Fundi Seller' });
}, 180_000);
afterAll(() => server?.close());

type Api = SignedUp['api'];

async function paidPayment(api: Api, amount = 10_000): Promise<string> {
  const created = await api.post('/v1/payments', { amount, currency: 'TZS', phone: '0700000001' });
  expect(created.status).toBe(201);
  await eventually(async () => (await api.get(`/v1/payments/${created.body.id}`)).body.status === 'paid');
  return created.body.id as string;
}

async function balanceOf(api: Api) {
  const body = (await api.get('/v1/balance')).body as Record<
    string,
    Array<{ amount: number; currency: string }>
  >;
  const tzs = (list: Array<{ amount: number; currency: string }> | undefined) =>
    list?.find((b) => b.currency === 'TZS')?.amount ?? 0;
  return { available: tzs(body.available), escrow: tzs(body.escrow) };
}

const settledSplit = (api: Api, escrowId: string, index: number) =>
  eventually(async () => {
    const escrow = (await api.get(`/v1/escrow/${escrowId}`)).body;
    return escrow.splits[index].status !== 'sending' ? escrow : undefined;
  });

async function eventTypes(merchantId: string, escrowId: string): Promise<string[]> {
  const found = await server.database.pool.query<{ type: string }>(
    `SELECT type FROM events WHERE merchant_id = $1 AND data->'object'->>'id' = $2 ORDER BY seq`,
    [merchantId, escrowId],
  );
  return found.rows.map((row) => row.type);
}

describe('escrow: hold, release and refund', () => {
  it('holds a payment’s net and releases it to a merchant and a phone, with the fee, balances following each step', async () => {
    const payment = await paidPayment(holder.api);
    const before = await balanceOf(holder.api);
    const created = await holder.api.post('/v1/escrow', {
      payment,
      splits: [
        { merchant: recipient.merchant.id, amount: 5_000, description: 'Seller' },
        { phone: '+255 700 000 001', amount: 4_350, description: 'Rider' },
      ],
      platform_fee: 500,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'escrow',
      payment,
      amount: NET,
      status: 'held',
      held_amount: NET,
      released_amount: 0,
      fee_collected: false,
      livemode: false,
    });
    expect(created.body.splits[1]).toMatchObject({ phone: '255700000001', status: 'held', merchant: null });
    const escrowId = created.body.id as string;
    expect(await balanceOf(holder.api)).toEqual({ available: before.available - NET, escrow: NET });
    expect(await balanceOf(recipient.api)).toEqual({ available: 0, escrow: 0 });

    const toMerchant = created.body.splits[0].id as string;
    const first = await holder.api.post(`/v1/escrow/${escrowId}/release`, { splits: [toMerchant] });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'partially_released',
      fee_collected: true,
      held_amount: 4_350,
      released_amount: 5_000,
    });
    expect(await balanceOf(holder.api)).toEqual({ available: before.available - NET, escrow: 4_350 });
    expect(await balanceOf(recipient.api)).toEqual({ available: 5_000, escrow: 0 });
    const received = (await recipient.api.get('/v1/transactions')).body.data[0];
    expect(received).toMatchObject({ type: 'escrow_release', source: toMerchant, amount: 5_000 });

    const rest = await holder.api.post(`/v1/escrow/${escrowId}/release`);
    expect(rest.status).toBe(200);
    expect(rest.body.splits[1].status).toBe('sending');
    const done = await settledSplit(holder.api, escrowId, 1);
    expect(done).toMatchObject({ status: 'released', held_amount: 0, released_amount: NET - 500 });
    expect(done.splits[1]).toMatchObject({ status: 'released', failure_code: null });
    expect(await balanceOf(holder.api)).toEqual({ available: before.available - NET, escrow: 0 });
    expect(await balanceOf(recipient.api)).toEqual({ available: 5_000, escrow: 0 });

    const fees = await server.database.pool.query(
      `SELECT p.amount FROM ledger_postings p JOIN ledger_transactions t ON t.id = p.transaction_id
       WHERE t.source_id = $1 AND p.account = 'platform_fees'`,
      [escrowId],
    );
    expect(fees.rows).toEqual([{ amount: 500 }]);
    expect(await eventTypes(holder.merchant.id, escrowId)).toEqual([
      'escrow.held',
      'escrow.released',
      'escrow.released',
    ]);

    const twice = await holder.api.post(`/v1/escrow/${escrowId}/release`, { splits: [toMerchant] });
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({
      code: 'state_transition_invalid',
      details: { 'splits.0': expect.any(String) },
    });
    expect((await holder.api.post(`/v1/escrow/${escrowId}/release`)).body.code).toBe(
      'state_transition_invalid',
    );
    expect((await holder.api.post(`/v1/escrow/${escrowId}/refund`)).body.code).toBe(
      'state_transition_invalid',
    );
    expect(await balanceOf(recipient.api)).toEqual({ available: 5_000, escrow: 0 });
  });

  it('returns a failed transfer’s split to held, and refunds the unreleased rest to the payer', async () => {
    const payment = await paidPayment(holder.api);
    const before = await balanceOf(holder.api);
    const recipientBefore = await balanceOf(recipient.api);
    const created = await holder.api.post('/v1/escrow', {
      payment,
      splits: [
        { merchant: recipient.merchant.id, amount: 4_000 },
        { phone: '0700000002', amount: 3_000 },
        { merchant: recipient.merchant.id, amount: 2_350 },
      ],
      platform_fee: 500,
    });
    expect(created.status).toBe(201);
    const escrowId = created.body.id as string;
    const [toSeller, toPhone] = created.body.splits.map((s: { id: string }) => s.id) as [string, string];

    await holder.api.post(`/v1/escrow/${escrowId}/release`, { splits: [toPhone] });
    const failed = await settledSplit(holder.api, escrowId, 1);
    expect(failed).toMatchObject({ status: 'held', held_amount: NET, fee_collected: false });
    expect(failed.splits[1]).toMatchObject({ status: 'held', failure_code: 'transfer_failed' });
    expect(await balanceOf(holder.api)).toEqual({
      available: before.available - NET,
      escrow: before.escrow + NET,
    });

    await holder.api.post(`/v1/escrow/${escrowId}/release`, { splits: [toSeller] });
    expect(await balanceOf(recipient.api)).toEqual({
      available: recipientBefore.available + 4_000,
      escrow: 0,
    });

    const refund = await holder.api.post(`/v1/escrow/${escrowId}/refund`);
    expect(refund.status).toBe(200);
    expect(refund.body).toMatchObject({
      status: 'refunded',
      held_amount: 0,
      released_amount: 4_000,
      refunded_amount: 3_000 + 2_350,
    });
    expect(refund.body.splits.map((s: { status: string }) => s.status)).toEqual([
      'released',
      'refunded',
      'refunded',
    ]);
    expect(await balanceOf(holder.api)).toEqual({ available: before.available - NET, escrow: before.escrow });
    expect(await eventTypes(holder.merchant.id, escrowId)).toEqual([
      'escrow.held',
      'escrow.released',
      'escrow.refunded',
    ]);

    // The payment stays paid; it cannot be refunded a second time around the escrow.
    expect((await holder.api.get(`/v1/payments/${payment}`)).body.status).toBe('paid');
    const direct = await holder.api.post(`/v1/payments/${payment}/refund`);
    expect(direct.status).toBe(400);
    expect(direct.body.code).toBe('payment_already_used');
    expect((await holder.api.post(`/v1/escrow/${escrowId}/refund`)).body.code).toBe(
      'state_transition_invalid',
    );
  });

  it('refunds everything, the fee too, when nothing was released; refuses while a transfer is under way', async () => {
    const payment = await paidPayment(holder.api);
    const before = await balanceOf(holder.api);
    const created = await holder.api.post('/v1/escrow', {
      payment,
      splits: [
        { phone: '0700000003', amount: 1_850 },
        { merchant: recipient.merchant.id, amount: 7_000 },
      ],
      platform_fee: 1_000,
    });
    const escrowId = created.body.id as string;
    await holder.api.post(`/v1/escrow/${escrowId}/release`, { splits: [created.body.splits[0].id] });
    const pending = await holder.api.post(`/v1/escrow/${escrowId}/refund`);
    expect(pending.status).toBe(400);
    expect(pending.body).toMatchObject({
      code: 'state_transition_invalid',
      details: { 'splits.0': "is 'sending'" },
    });

    const other = await holder.api.post('/v1/escrow', {
      payment: await paidPayment(holder.api),
      splits: [{ merchant: recipient.merchant.id, amount: NET - 100 }],
      platform_fee: 100,
    });
    const refunded = await holder.api.post(`/v1/escrow/${other.body.id}/refund`);
    expect(refunded.body).toMatchObject({ status: 'refunded', refunded_amount: NET, fee_collected: false });
    // The first escrow is still held, the second is gone back to the payer.
    expect(await balanceOf(holder.api)).toEqual({
      available: before.available + NET - NET - NET,
      escrow: before.escrow + NET,
    });
  });
});

describe('escrow: bad input moves nothing', () => {
  it('refuses splits that do not add up, naming the split, and unknown or ambiguous recipients', async () => {
    const payment = await paidPayment(holder.api);
    const before = await balanceOf(holder.api);
    const short = await holder.api.post('/v1/escrow', {
      payment,
      splits: [
        { merchant: recipient.merchant.id, amount: 5_000 },
        { phone: '0700000001', amount: 4_000 },
      ],
      platform_fee: 500,
    });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ error: 'invalid_request_error', code: 'amount_invalid' });
    expect(Object.keys(short.body.details)).toEqual(['splits.1.amount']);

    const fee = await holder.api.post('/v1/escrow', {
      payment,
      splits: [{ phone: '0700000001', amount: 1 }],
      platform_fee: NET,
    });
    expect(Object.keys(fee.body.details)).toEqual(['platform_fee']);

    const unknown = await holder.api.post('/v1/escrow', {
      payment,
      splits: [{ merchant: 'mer_nobody', amount: NET }],
    });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.details)).toEqual(['splits.0.merchant']);

    const both = await holder.api.post('/v1/escrow', {
      payment,
      splits: [{ merchant: recipient.merchant.id, phone: '0700000001', amount: NET }],
    });
    expect(both.status).toBe(400);
    expect(Object.keys(both.body.details)).toEqual(['splits.0']);

    expect(await balanceOf(holder.api)).toEqual(before);
    const rows = await server.database.pool.query('SELECT 1 FROM escrows WHERE payment_id = $1', [payment]);
    expect(rows.rowCount).toBe(0);
  });

  it('holds a payment once, and only a paid one', async () => {
    const payment = await paidPayment(holder.api);
    const body = { payment, splits: [{ merchant: recipient.merchant.id, amount: NET }] };
    expect((await holder.api.post('/v1/escrow', body)).status).toBe(201);
    const again = await holder.api.post('/v1/escrow', body);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      code: 'payment_already_used',
      details: { payment: expect.any(String) },
    });

    const pending = await holder.api.post('/v1/payments', {
      amount: 10_000,
      currency: 'TZS',
      phone: '0700000003',
    });
    const notPaid = await holder.api.post('/v1/escrow', { ...body, payment: pending.body.id });
    expect(notPaid.status).toBe(400);
    expect(notPaid.body.code).toBe('payment_not_paid');
  });

  it('answers 404 for another merchant’s escrow or payment, and for the other mode’s', async () => {
    const payment = await paidPayment(holder.api);
    const created = await holder.api.post('/v1/escrow', {
      payment,
      splits: [{ merchant: recipient.merchant.id, amount: NET }],
    });
    const id = created.body.id as string;
    const live = client(server.url, holder.merchant.keys.secretLive);
    for (const api of [recipient.api, live]) {
      expect((await api.get(`/v1/escrow/${id}`)).status).toBe(404);
      const release = await api.post(`/v1/escrow/${id}/release`);
      expect(release.status).toBe(404);
      expect(release.body.code).toBe('resource_missing');
      expect((await api.post(`/v1/escrow/${id}/refund`)).status).toBe(404);
      expect(
        (await api.post('/v1/escrow', { payment, splits: [{ phone: '0700000001', amount: NET }] })).status,
      ).toBe(404);
      expect((await api.get('/v1/escrow')).body.data).toEqual([]);
    }
    expect((await holder.api.get(`/v1/escrow/${id}`)).body.status).toBe('held');
    expect(
      (await holder.api.get(`/v1/escrow?payment=${payment}`)).body.data.map((e: { id: string }) => e.id),
    ).toEqual([id]);
  });

  it('refuses a split that is not the escrow’s, or named twice', async () => {
    const a = await holder.api.post('/v1/escrow', {
      payment: await paidPayment(holder.api),
      splits: [{ merchant: recipient.merchant.id, amount: NET }],
    });
    const b = await holder.api.post('/v1/escrow', {
      payment: await paidPayment(holder.api),
      splits: [{ merchant: recipient.merchant.id, amount: NET }],
    });
    const foreign = await holder.api.post(`/v1/escrow/${a.body.id}/release`, {
      splits: [b.body.splits[0].id],
    });
    expect(foreign.status).toBe(400);
    expect(Object.keys(foreign.body.details)).toEqual(['splits.0']);
    const own = a.body.splits[0].id as string;
    const twice = await holder.api.post(`/v1/escrow/${a.body.id}/release`, { splits: [own, own] });
    expect(Object.keys(twice.body.details)).toEqual(['splits.1']);
    expect((await holder.api.get(`/v1/escrow/${a.body.id}`)).body.status).toBe('held');
  });
});

describe('escrow: concurrency and reconciliation', () => {
  it('posts a split once when ten releases race', async () => {
    const created = await holder.api.post('/v1/escrow', {
      payment: await paidPayment(holder.api),
      splits: [
        { merchant: recipient.merchant.id, amount: 6_000 },
        { merchant: recipient.merchant.id, amount: 3_000 },
      ],
      platform_fee: 850,
    });
    const split = created.body.splits[0].id as string;
    const before = await balanceOf(recipient.api);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        holder.api.post(`/v1/escrow/${created.body.id}/release`, { splits: [split] }),
      ),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of responses.filter((r) => r.status !== 200))
      expect(r.body.code).toBe('state_transition_invalid');
    const posted = await server.database.pool.query(
      `SELECT source_id FROM ledger_transactions WHERE type = 'escrow_release' AND source_id = ANY($1)`,
      [[split, created.body.id]],
    );
    expect(posted.rows.map((r) => r.source_id).sort()).toEqual([created.body.id, split].sort());
    expect(await balanceOf(recipient.api)).toEqual({ available: before.available + 6_000, escrow: 0 });
  });

  it('replays a hold made with the same Idempotency-Key, holding once', async () => {
    const body = {
      payment: await paidPayment(holder.api),
      splits: [{ merchant: recipient.merchant.id, amount: NET }],
    };
    const key = { 'Idempotency-Key': `hold-${body.payment}` };
    const [first, second] = await Promise.all([
      holder.api.post('/v1/escrow', body, key),
      holder.api.post('/v1/escrow', body, key),
    ]);
    const statuses = [first.status, second.status].sort();
    // Either the second waited and replays, or it arrived while the first ran (409).
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(statuses);
    const replay = await holder.api.post('/v1/escrow', body, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.status === 201 ? first.body.id : second.body.id);
    const holds = await server.database.pool.query(
      `SELECT 1 FROM ledger_transactions t JOIN escrows e ON e.id = t.source_id
       WHERE t.type = 'escrow_hold' AND e.payment_id = $1`,
      [body.payment],
    );
    expect(holds.rowCount).toBe(1);
  });

  it('finishes a transfer that a stopped process left sending', async () => {
    const created = await holder.api.post('/v1/escrow', {
      payment: await paidPayment(holder.api),
      splits: [{ phone: '0700000001', amount: NET }],
    });
    const split = created.body.splits[0].id as string;
    // As if the process stopped between the release's commit and the transfer.
    await server.database.pool.query(
      `UPDATE escrow_splits SET status = 'sending', transfer_attempt = 1 WHERE id = $1`,
      [split],
    );
    await server.services.escrowTransfers.resume();
    const escrow = (await holder.api.get(`/v1/escrow/${created.body.id}`)).body;
    expect(escrow).toMatchObject({ status: 'released', held_amount: 0, released_amount: NET });
    await server.services.escrowTransfers.applyOutcome(split, 1, { status: 'succeeded', reference: 'again' });
    const posted = await server.database.pool.query(
      `SELECT 1 FROM ledger_transactions WHERE source_id = $1`,
      [split],
    );
    expect(posted.rowCount).toBe(1);
  });

  it('reconciles: held − released − sent − fees − refunded = still held = what the escrows owe, held = the payments’ net', async () => {
    const terms = (await escrowTerms(server.database.pool)).filter(
      (t) => t.merchant_id === holder.merchant.id,
    );
    expect(terms).toHaveLength(1);
    const t = terms[0]!;
    expect(t.held).toBeGreaterThan(0);
    expect(t.released_to_merchants).toBeGreaterThan(0);
    expect(t.sent_to_phones).toBeGreaterThan(0);
    expect(t.fees).toBeGreaterThan(0);
    expect(t.refunded).toBeGreaterThan(0);
    expect(t.still_held).toBeGreaterThan(0);
    expect(t.held - t.released_to_merchants - t.sent_to_phones - t.fees - t.refunded).toBe(t.still_held);
    expect(t.still_held).toBe(t.owed);
    expect(t.held).toBe(t.payments_net);
    expect(t.still_held).toBe((await balanceOf(holder.api)).escrow);
    const unbalanced = await server.database.pool.query(
      `SELECT transaction_id FROM ledger_postings GROUP BY transaction_id, currency HAVING sum(amount) <> 0`,
    );
    expect(unbalanced.rows).toEqual([]);
  });
});

describe('escrow: reading one', () => {
  it('shows an escrow and its splits from one snapshot, never half of a change committed between its reads', async () => {
    const payment = await paidPayment(holder.api);
    const created = await holder.api.post('/v1/escrow', {
      payment,
      splits: [{ phone: '+255 700 000 001', amount: NET, description: 'before' }],
      metadata: { version: 'before' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    // A change to the escrow and its split, committed while a read is between its two statements:
    // the splits table is locked, so the read gets the escrow and then waits for the splits.
    type Escrow = { metadata: { version: string }; splits: Array<{ description: string }> };
    type Answer = Awaited<ReturnType<typeof holder.api.get<Escrow>>>;
    let reading: Promise<Answer> | undefined;
    await server.database.transaction(async (tx) => {
      await tx.query('LOCK TABLE escrow_splits IN ACCESS EXCLUSIVE MODE');
      reading = holder.api.get<Escrow>(`/v1/escrow/${id}`);
      if (process.env.DATABASE_URL) {
        await eventually(async () => {
          const waiting = await server.database.pool.query(
            `SELECT 1 FROM pg_locks WHERE NOT granted AND relation = 'escrow_splits'::regclass`,
          );
          return (waiting.rowCount ?? 0) > 0 || undefined;
        });
      } else {
        // The embedded database has one session: the read waits for this transaction as a whole,
        // queued for the one connection this transaction holds.
        await until(() => server.database.pool.waitingCount > 0, 10_000, 'the read queued');
      }
      await tx.query(`UPDATE escrows SET metadata = '{"version": "after"}' WHERE id = $1`, [id]);
      await tx.query(`UPDATE escrow_splits SET description = 'after' WHERE escrow_id = $1`, [id]);
    });
    const read: Answer = await (reading as Promise<Answer>);
    expect(read.status).toBe(200);
    // Both before, or both after: never the escrow of one moment with the splits of another.
    expect([read.body.metadata.version, read.body.splits[0]!.description]).toEqual(
      read.body.metadata.version === 'before' ? ['before', 'before'] : ['after', 'after'],
    );
  });
});
