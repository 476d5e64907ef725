import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import type { ClickPesaProvider } from '../../apps/server/src/providers/clickpesa.ts';
import { reconcileSendingEscrowTransfers } from '../../apps/server/src/providers/clickpesa-reconciler.ts';
import { eventually } from '../support/server.ts';
import { quietLogger } from '../support/logger.ts';
import { startLiveClickPesa, type LiveClickPesa } from '../providers/clickpesa-live.ts';
import { FAKE_PHONES, type FakeClickPesa } from '../providers/clickpesa-fake.ts';
import { FAKE_PAYOUT_PHONES } from '../providers/clickpesa-fake-payouts.ts';

/** Live transfers from escrow to phones, sent as ClickPesa payouts, against the local fake of its API. */
const credentials = { clientId: 'IDescrow', apiKey: 'SKescrow', checksumKey: 'CHKescrow' };

let fake: FakeClickPesa;
let server: RunningServer;
let live: LiveClickPesa['live'];

beforeAll(async () => {
  ({ fake, server, live } = await startLiveClickPesa(credentials));
}, 180_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

/** A live 10 000 TZS payment collected through ClickPesa, held in escrow for one phone (its net, 9 850). */
async function heldForPhone(phone: string): Promise<{ id: string; split: string }> {
  const paid = await live.post('/v1/payments', { amount: 10_000, currency: 'TZS', phone: FAKE_PHONES.pays });
  expect(paid.status).toBe(201);
  await eventually(async () => (await live.get(`/v1/payments/${paid.body.id}`)).body.status === 'paid');
  const created = await live.post('/v1/escrow', {
    payment: paid.body.id,
    splits: [{ phone, amount: 9_850 }],
  });
  expect(created.status).toBe(201);
  return { id: created.body.id, split: created.body.splits[0].id };
}

const escrowOf = async (id: string) => (await live.get(`/v1/escrow/${id}`)).body;
// Read again once the split settled: the escrow and its splits are read by two queries, not one snapshot.
const settled = async (id: string) => {
  await eventually(async () => (await escrowOf(id)).splits[0].status !== 'sending');
  return escrowOf(id);
};
const escrowBalance = async () =>
  ((await live.get('/v1/balance')).body.escrow as Array<{ amount: number; currency: string }>).find(
    (b) => b.currency === 'TZS',
  )?.amount ?? 0;
const reconcile = () =>
  reconcileSendingEscrowTransfers(
    server.database,
    server.services.liveProvider as ClickPesaProvider,
    server.services.escrowTransfers,
    quietLogger,
  );

const postWebhook = (body: unknown) =>
  fetch(`${server.url}/callbacks/clickpesa`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
/** Ledger transactions that released the split: one at most, whatever the attempts. */
const releasesOf = async (split: string) =>
  (
    await server.database.pool.query(
      `SELECT 1 FROM ledger_transactions WHERE type = 'escrow_release' AND source_id = $1`,
      [split],
    )
  ).rowCount;

describe('live escrow transfers to mobile money through ClickPesa', () => {
  it('sends the split as a payout named by the split, and releases it on the paid webhook', async () => {
    const { id, split } = await heldForPhone(FAKE_PAYOUT_PHONES.pays);
    const before = await escrowBalance();
    const released = await live.post(`/v1/escrow/${id}/release`);
    expect(released.status).toBe(200);
    expect(released.body.splits[0].status).toBe('sending');
    const done = await settled(id);
    expect(done).toMatchObject({ status: 'released', held_amount: 0, released_amount: 9_850 });
    expect(done.splits[0]).toMatchObject({ status: 'released', failure_code: null });
    const reference = split.replace('_', '');
    const sent = fake.requests.filter((r) => r.body?.orderReference === reference);
    expect(sent.map((r) => r.path)).toEqual([
      '/third-parties/payouts/preview-mobile-money-payout',
      '/third-parties/payouts/create-mobile-money-payout',
    ]);
    expect(sent[1]!.body).toMatchObject({
      amount: 9_850,
      currency: 'TZS',
      phoneNumber: FAKE_PAYOUT_PHONES.pays,
    });
    expect(fake.callbacks.at(-1)).toMatchObject({ status: 200, body: { event: 'PAYOUT INITIATED' } });
    const stored = await server.database.pool.query(
      'SELECT transfer_reference FROM escrow_splits WHERE id = $1',
      [split],
    );
    expect(stored.rows[0].transfer_reference).toBe(fake.payouts.payouts.get(reference)!.id);
    expect(await escrowBalance()).toBe(before - 9_850);
    // A repeated webhook changes nothing, and no payout of the merchant's was touched.
    const again = await fetch(`${server.url}/callbacks/clickpesa`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(fake.payouts.webhookBody(fake.payouts.payouts.get(reference)!)),
    });
    expect(again.status).toBe(200);
    expect((await escrowOf(id)).released_amount).toBe(9_850);
    expect((await live.get('/v1/payouts')).body.data).toEqual([]);
  });

  it('returns the split to held with its failure code on a reversed payout', async () => {
    const { id } = await heldForPhone(FAKE_PAYOUT_PHONES.reversed);
    const before = await escrowBalance();
    await live.post(`/v1/escrow/${id}/release`);
    const back = await settled(id);
    expect(back).toMatchObject({ status: 'held', held_amount: 9_850, released_amount: 0 });
    expect(back.splits[0]).toMatchObject({ status: 'held', failure_code: 'destination_refused' });
    expect(await escrowBalance()).toBe(before);
  });

  it('settles a transfer whose webhook was lost, and sends again one ClickPesa never got', async () => {
    const { id, split } = await heldForPhone(FAKE_PAYOUT_PHONES.silent);
    await live.post(`/v1/escrow/${id}/release`);
    const reference = split.replace('_', '');
    await eventually(() => Promise.resolve(fake.payouts.payouts.get(reference)?.status === 'AUTHORIZED'));
    await reconcile();
    expect((await escrowOf(id)).splits[0].status).toBe('sending');
    fake.payouts.settleSilently(reference, 'SUCCESS');
    expect(await reconcile()).toBeGreaterThanOrEqual(1);
    expect(await escrowOf(id)).toMatchObject({ status: 'released', released_amount: 9_850 });

    // As if the process stopped after the release committed but before the payout was created.
    const lost = await heldForPhone(FAKE_PAYOUT_PHONES.silent);
    await live.post(`/v1/escrow/${lost.id}/release`);
    const lostReference = lost.split.replace('_', '');
    await eventually(() => Promise.resolve(fake.payouts.payouts.has(lostReference)));
    fake.payouts.payouts.delete(lostReference);
    await reconcile();
    expect(fake.payouts.payouts.has(lostReference)).toBe(true);
    fake.payouts.settleSilently(lostReference, 'SUCCESS');
    await reconcile();
    expect((await escrowOf(lost.id)).splits[0].status).toBe('released');
  });

  it('sends a failed transfer again under a new order reference when the split is released again', async () => {
    const { id, split } = await heldForPhone(FAKE_PAYOUT_PHONES.silent);
    const before = await escrowBalance();
    const floatBefore = fake.payouts.float;
    await live.post(`/v1/escrow/${id}/release`);
    const first = split.replace('_', '');
    const second = `${first}a2`;
    await eventually(() => Promise.resolve(fake.payouts.payouts.get(first)?.status === 'AUTHORIZED'));
    fake.payouts.settleSilently(first, 'REVERSED', 'Beneficiary account not registered');
    await reconcile();
    const failed = await escrowOf(id);
    expect(failed.splits[0]).toMatchObject({ status: 'held', failure_code: 'destination_refused' });

    const again = await live.post(`/v1/escrow/${id}/release`, { splits: [split] });
    expect(again.status).toBe(200);
    expect(again.body.splits[0]).toMatchObject({ status: 'sending', failure_code: null });
    await eventually(() => Promise.resolve(fake.payouts.payouts.get(second)?.status === 'AUTHORIZED'));
    const created = fake.requests.filter(
      (r) => r.path.endsWith('create-mobile-money-payout') && r.body?.orderReference === second,
    );
    expect(created).toHaveLength(1);
    expect(created[0]!.body).toMatchObject({ amount: 9_850, phoneNumber: FAKE_PAYOUT_PHONES.silent });

    // The first attempt's reversal arrives again, late: the second attempt goes on.
    const late = await postWebhook(fake.payouts.webhookBody(fake.payouts.payouts.get(first)!));
    expect(late.status).toBe(200);
    expect((await escrowOf(id)).splits[0]).toMatchObject({ status: 'sending', failure_code: null });

    fake.payouts.settleSilently(second, 'SUCCESS');
    await reconcile();
    const done = await escrowOf(id);
    expect(done).toMatchObject({ status: 'released', held_amount: 0, released_amount: 9_850 });
    expect(done.splits[0]).toMatchObject({ status: 'released', failure_code: null });
    expect(await escrowBalance()).toBe(before - 9_850);
    expect(await releasesOf(split)).toBe(1);
    const stored = await server.database.pool.query(
      'SELECT transfer_attempt, transfer_reference FROM escrow_splits WHERE id = $1',
      [split],
    );
    expect(stored.rows[0]).toEqual({
      transfer_attempt: 2,
      transfer_reference: fake.payouts.payouts.get(second)!.id,
    });
    // Two payouts left ClickPesa, one per attempt; the first came back reversed.
    expect(floatBefore - fake.payouts.float).toBe(2 * (9_850 + 47));

    // Late news of the first attempt once the second succeeded changes nothing either.
    expect((await postWebhook(fake.payouts.webhookBody(fake.payouts.payouts.get(first)!))).status).toBe(200);
    expect(await escrowOf(id)).toEqual(done);
    expect(await releasesOf(split)).toBe(1);
  });

  it('pays an attempt once however often it is sent again, and ignores a success of an earlier attempt', async () => {
    const { id, split } = await heldForPhone(FAKE_PAYOUT_PHONES.silent);
    await live.post(`/v1/escrow/${id}/release`);
    const first = split.replace('_', '');
    const second = `${first}a2`;
    await eventually(() => Promise.resolve(fake.payouts.payouts.has(first)));
    fake.payouts.settleSilently(first, 'REVERSED', 'Beneficiary account not registered');
    await reconcile();
    await live.post(`/v1/escrow/${id}/release`);
    await eventually(() => Promise.resolve(fake.payouts.payouts.has(second)));
    const floatBefore = fake.payouts.float;

    // A restart and the reconciler sending the same attempt again, at once: ClickPesa refuses the repeats.
    const transfers = server.services.escrowTransfers;
    await Promise.all([transfers.resume(true, [split]), transfers.resume(true, [split]), reconcile()]);
    const creates = fake.requests.filter(
      (r) => r.path.endsWith('create-mobile-money-payout') && r.body?.orderReference === second,
    );
    expect(creates.length).toBeGreaterThanOrEqual(3);
    expect(fake.payouts.float).toBe(floatBefore);
    expect([...fake.payouts.payouts.keys()].filter((key) => key.startsWith(first))).toEqual([first, second]);
    expect((await escrowOf(id)).splits[0].status).toBe('sending');

    // The earlier attempt reported paid after it was settled as failed: not applied (it is logged).
    const stale = { ...fake.payouts.payouts.get(first)!, status: 'SUCCESS' as const };
    expect((await postWebhook(fake.payouts.webhookBody(stale))).status).toBe(200);
    expect((await escrowOf(id)).splits[0].status).toBe('sending');
    expect(await releasesOf(split)).toBe(0);

    fake.payouts.settleSilently(second, 'SUCCESS');
    await Promise.all([reconcile(), reconcile()]);
    await postWebhook(fake.payouts.webhookBody(fake.payouts.payouts.get(second)!));
    expect(await escrowOf(id)).toMatchObject({ status: 'released', released_amount: 9_850 });
    expect(await releasesOf(split)).toBe(1);
  });

  it('keeps a transfer ClickPesa may hold sending, and the reconciler sends the same attempt again', async () => {
    const { id, split } = await heldForPhone(FAKE_PAYOUT_PHONES.pays);
    const reference = split.replace('_', '');
    // The create answers 502 without creating it; the status query right after has no record of it.
    fake.payouts.failNextCreate = 'reject-502';
    await live.post(`/v1/escrow/${id}/release`);
    await eventually(() =>
      Promise.resolve(fake.requests.some((r) => r.method === 'GET' && r.path.endsWith(`/${reference}`))),
    );
    // Proving it is not failed needs a moment for a wrong failure to land: keeping it pending writes nothing to wait for.
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Not failed: a release again under a new reference could pay twice if the first had arrived.
    expect((await escrowOf(id)).splits[0]).toMatchObject({ status: 'sending', failure_code: null });
    expect(fake.payouts.payouts.has(reference)).toBe(false);
    await reconcile();
    expect(fake.payouts.payouts.has(reference)).toBe(true);
    const done = await settled(id);
    expect(done).toMatchObject({ status: 'released', released_amount: 9_850 });
    expect(await releasesOf(split)).toBe(1);
    expect([...fake.payouts.payouts.keys()].filter((key) => key.startsWith(reference))).toEqual([reference]);
  });

  it('answers 404 for a payout webhook naming an attempt of a split not made yet', async () => {
    const { split } = await heldForPhone(FAKE_PAYOUT_PHONES.pays);
    const body = fake.payouts.webhookBody({
      id: 'POFUTURE',
      status: 'SUCCESS',
      orderReference: `${split.replace('_', '')}a2`,
      amount: 9_850,
      channel: 'MOBILE MONEY',
      accountNumber: FAKE_PAYOUT_PHONES.pays,
      notes: '',
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    });
    expect((await postWebhook(body)).status).toBe(404);
  });

  it('answers 404 for a payout webhook naming a split that is not ours', async () => {
    const body = fake.payouts.webhookBody({
      id: 'PONOTOURS',
      status: 'SUCCESS',
      orderReference: 'esp01jx0000000000000000000000',
      amount: 100,
      channel: 'MOBILE MONEY',
      accountNumber: FAKE_PAYOUT_PHONES.pays,
      notes: '',
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    });
    const answer = await fetch(`${server.url}/callbacks/clickpesa`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(404);
  });

  it('refuses with 503, moving nothing, when no live provider is configured', async () => {
    const { id } = await heldForPhone(FAKE_PAYOUT_PHONES.pays);
    const before = await escrowBalance();
    const sentBefore = fake.requests.length;
    // The same server as if started without ClickPesa credentials: the transfers have no live provider.
    const transfers = server.services.escrowTransfers as unknown as { liveProvider: unknown };
    const provider = transfers.liveProvider;
    transfers.liveProvider = undefined;
    try {
      const refused = await live.post(`/v1/escrow/${id}/release`);
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('provider_unavailable');
    } finally {
      transfers.liveProvider = provider;
    }
    expect(await escrowOf(id)).toMatchObject({ status: 'held', held_amount: 9_850 });
    expect((await escrowOf(id)).splits[0].status).toBe('held');
    expect(await escrowBalance()).toBe(before);
    expect(fake.requests.length).toBe(sentBefore);
  });
});
