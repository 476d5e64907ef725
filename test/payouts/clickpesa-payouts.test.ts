import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { clickPesaOptionsFrom, ClickPesaProvider } from '../../apps/server/src/providers/clickpesa.ts';
import { reconcilePendingClickPesaPayouts } from '../../apps/server/src/providers/clickpesa-reconciler.ts';
import { eventually, type Merchant } from '../support/server.ts';
import { quietLogger, throwingLogger } from '../support/logger.ts';
import { FAKE_PHONES, providerEnvFor, type FakeClickPesa } from '../providers/clickpesa-fake.ts';
import { FAKE_PAYOUT_PHONES } from '../providers/clickpesa-fake-payouts.ts';
import { startLiveClickPesa, type LiveClickPesa } from '../providers/clickpesa-live.ts';
import { availableTzs, bank, expectReconciled, settledPayout, wallet } from './support.ts';

/** Live payouts through ClickPesa, against the local fake of its API (test/providers/clickpesa-fake.ts). */
const credentials = { clientId: 'IDpayouts', apiKey: 'SKpayouts', checksumKey: 'CHKpayouts' };
const providerEnv = (baseUrl: string) => providerEnvFor(baseUrl, credentials);

let fake: FakeClickPesa;
let server: RunningServer;
let merchant: Merchant;
let live: LiveClickPesa['live'];

beforeAll(async () => {
  ({ fake, server, merchant, live } = await startLiveClickPesa(credentials));
  // A live balance: 200,000 collected, 197,000 net.
  const paid = await live.post('/v1/payments', { amount: 200_000, currency: 'TZS', phone: FAKE_PHONES.pays });
  await eventually(async () => (await live.get(`/v1/payments/${paid.body.id}`)).body.status === 'paid');
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const payout = (amount: number, destination: unknown) =>
  live.post('/v1/payouts', { amount, currency: 'TZS', destination });
const calls = (orderReference: string) =>
  fake.requests.filter((r) => r.body?.orderReference === orderReference || r.path.endsWith(orderReference));

/**
 * One pass of the live payouts reconciler, through a provider of our own
 * reporting to the server's services, as the server's reconciler does.
 */
function reconcilePayouts(giveUpAfterMs: number) {
  const sink = {
    applyOutcome: server.services.payments.applyOutcome.bind(server.services.payments),
    applyPayoutOutcome: server.services.payouts.applyPayoutOutcome.bind(server.services.payouts),
  };
  const provider = new ClickPesaProvider(
    clickPesaOptionsFrom(loadConfig(providerEnv(fake.url)))!,
    sink,
    quietLogger,
  );
  return reconcilePendingClickPesaPayouts(server.database, provider, sink, throwingLogger, {
    minAgeMs: 0,
    giveUpAfterMs,
  });
}

describe('live payouts through ClickPesa', () => {
  it('previews, then creates a mobile money payout, and pays it on the PAYOUT INITIATED webhook', async () => {
    const before = await availableTzs(live);
    const created = await payout(10_000, wallet(FAKE_PAYOUT_PHONES.pays));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'pending', livemode: true });
    expect(await availableTzs(live)).toBe(before - 10_000);
    const paid = await settledPayout(live, created.body.id);
    expect(paid.status).toBe('paid');
    const reference = created.body.id.replace('_', '');
    const sent = calls(reference);
    expect(sent.map((r) => [r.method, r.path, r.problem])).toEqual([
      ['POST', '/third-parties/payouts/preview-mobile-money-payout', undefined],
      ['POST', '/third-parties/payouts/create-mobile-money-payout', undefined],
    ]);
    expect(sent[1]!.body).toMatchObject({
      amount: 10_000,
      currency: 'TZS',
      phoneNumber: FAKE_PAYOUT_PHONES.pays,
      orderReference: reference,
      checksum: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const stored = await server.database.pool.query(
      'SELECT provider, provider_reference FROM payouts WHERE id = $1',
      [created.body.id],
    );
    expect(stored.rows[0]).toEqual({
      provider: 'clickpesa',
      provider_reference: fake.payouts.payouts.get(reference)!.id,
    });
    expect(fake.callbacks.at(-1)).toMatchObject({ status: 200, body: { event: 'PAYOUT INITIATED' } });
    await expectReconciled(server, merchant.id);
  });

  it('fails a reversed payout and returns its amount to the available balance', async () => {
    const before = await availableTzs(live);
    const created = await payout(5_000, wallet(FAKE_PAYOUT_PHONES.reversed));
    const failed = await settledPayout(live, created.body.id);
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'destination_refused' });
    expect(await availableTzs(live)).toBe(before);
    await expectReconciled(server, merchant.id);
  });

  it('fails a payout the preview refuses without creating it', async () => {
    const before = await availableTzs(live);
    const created = await payout(5_000, wallet(FAKE_PAYOUT_PHONES.refused));
    expect(created.status).toBe(201);
    const failed = await settledPayout(live, created.body.id);
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'destination_refused' });
    expect(calls(created.body.id.replace('_', '')).map((r) => r.path)).toEqual([
      '/third-parties/payouts/preview-mobile-money-payout',
    ]);
    expect(await availableTzs(live)).toBe(before);
    await expectReconciled(server, merchant.id);
  });

  it('fails with provider_error when ClickPesa’s own balance cannot cover the payout', async () => {
    const float = fake.payouts.float;
    fake.payouts.float = 1_000;
    try {
      const created = await payout(5_000, wallet(FAKE_PAYOUT_PHONES.pays));
      expect(await settledPayout(live, created.body.id)).toMatchObject({
        status: 'failed',
        failure_code: 'provider_error',
      });
    } finally {
      fake.payouts.float = float;
    }
  });

  it('sends a bank payout with its BIC, and refuses a live bank payout without one, moving nothing', async () => {
    const before = await availableTzs(live);
    const missing = await payout(5_000, bank('0150123456701'));
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: 'parameter_missing',
      details: { 'destination.bic': expect.any(String) },
    });
    expect(await availableTzs(live)).toBe(before);

    const created = await payout(20_000, { ...bank('0150123456701'), bic: 'corutztz' });
    expect(created.body.destination.bic).toBe('CORUTZTZ');
    expect((await settledPayout(live, created.body.id)).status).toBe('paid');
    const sent = calls(created.body.id.replace('_', ''));
    expect(sent.map((r) => r.path)).toEqual([
      '/third-parties/payouts/preview-bank-payout',
      '/third-parties/payouts/create-bank-payout',
    ]);
    expect(sent[1]!.body).toMatchObject({
      accountNumber: '0150123456701',
      accountName: 'Duka la Mama Neema',
      bic: 'CORUTZTZ',
      transferType: 'ACH',
    });
    expect(await availableTzs(live)).toBe(before - 20_000);
    await expectReconciled(server, merchant.id);
  });

  it('settles a payout whose webhook was lost from the status query', async () => {
    const created = await payout(3_000, wallet(FAKE_PAYOUT_PHONES.silent));
    const reference = created.body.id.replace('_', '');
    await eventually(() => Promise.resolve(fake.payouts.payouts.get(reference)));
    const reconcile = () => reconcilePayouts(3_600_000);
    await reconcile();
    expect((await live.get(`/v1/payouts/${created.body.id}`)).body.status).toBe('pending');
    fake.payouts.settleSilently(reference, 'SUCCESS');
    await reconcile();
    expect((await live.get(`/v1/payouts/${created.body.id}`)).body.status).toBe('paid');
    await expectReconciled(server, merchant.id);
  });

  it('keeps a payout pending, its money held, when the create answers 502 and ClickPesa has no record of it yet', async () => {
    const before = await availableTzs(live);
    fake.payouts.failNextCreate = 'reject-502';
    const created = await payout(2_000, wallet(FAKE_PAYOUT_PHONES.pays));
    const reference = created.body.id.replace('_', '');
    await eventually(() =>
      Promise.resolve(fake.requests.some((r) => r.method === 'GET' && r.path.endsWith(`/${reference}`))),
    );
    // Proving it is not failed needs a moment for a wrong failure to land: keeping it pending writes nothing to wait for.
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Failing it now would free the 2,000 for another payout while this one may still pay.
    expect((await live.get(`/v1/payouts/${created.body.id}`)).body).toMatchObject({
      status: 'pending',
      failure_code: null,
    });
    expect(await availableTzs(live)).toBe(before - 2_000);
    const reconcile = reconcilePayouts;
    await reconcile(3_600_000);
    expect((await live.get(`/v1/payouts/${created.body.id}`)).body.status).toBe('pending');
    // Still unknown past the give-up age: it was never sent, and its money returns.
    await reconcile(0);
    expect((await live.get(`/v1/payouts/${created.body.id}`)).body).toMatchObject({
      status: 'failed',
      failure_code: 'provider_error',
    });
    expect(await availableTzs(live)).toBe(before);
    await expectReconciled(server, merchant.id);
  });

  it('refuses a forged payout webhook and ignores a repeat', async () => {
    const created = await payout(1_000, wallet(FAKE_PAYOUT_PHONES.silent));
    const reference = created.body.id.replace('_', '');
    const stored = await eventually(() => Promise.resolve(fake.payouts.payouts.get(reference)));
    const post = (body: unknown) =>
      fetch(`${server.url}/callbacks/clickpesa`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const forged = await post(fake.payouts.webhookBody({ ...stored, status: 'SUCCESS' }, 'wrong key'));
    expect(forged.status).toBe(401);
    expect((await live.get(`/v1/payouts/${created.body.id}`)).body.status).toBe('pending');
    const reversed = fake.payouts.webhookBody({
      ...stored,
      status: 'REVERSED',
      notes: 'Beneficiary account closed',
    });
    expect((await post(reversed)).status).toBe(200);
    expect((await live.get(`/v1/payouts/${created.body.id}`)).body.status).toBe('failed');
    // A repeat, and a late SUCCESS contradicting it: acknowledged, nothing changes.
    expect((await post(reversed)).status).toBe(200);
    expect((await post(fake.payouts.webhookBody({ ...stored, status: 'SUCCESS' }))).status).toBe(200);
    expect((await live.get(`/v1/payouts/${created.body.id}`)).body.status).toBe('failed');
    const unknown = await post(
      fake.payouts.webhookBody({ ...stored, orderReference: 'po01jzzzzzzzzzzzzzzzzzzzzzzz' }),
    );
    expect(unknown.status).toBe(404);
    await expectReconciled(server, merchant.id);
  });
});
