import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { verifyStandardWebhook, verifyWebhookBody } from '@tz/core';
import { client, eventually, signUp, until } from '../support/server.ts';
import { sleep, startReceiver, startWebhookServer, type Receiver } from './support.ts';

let server: Awaited<ReturnType<typeof startWebhookServer>>;
const receivers: Receiver[] = [];

beforeAll(async () => {
  server = await startWebhookServer({ WEBHOOK_DISABLE_AFTER_FAILURES: '3' });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await server?.close();
});

async function receiver(reply?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(reply);
  receivers.push(r);
  return r;
}

/** A fresh merchant with one endpoint on `url`. */
async function setup(url: string, events: string[] = ['*']) {
  const merchant = await signUp(server.url);
  const api = client(server.url, merchant.keys.secretTest);
  const created = await api.post('/v1/webhooks', { url, events });
  expect(created.status).toBe(201);
  return { merchant, api, endpoint: created.body };
}

const deliveryOf = async (api: ReturnType<typeof client>, eventId: string) =>
  (await api.get(`/v1/webhook-deliveries?event=${eventId}`)).body.data[0];

const settledDelivery = (api: ReturnType<typeof client>, eventId: string, timeoutMs = 10_000) =>
  eventually(
    async () => {
      const delivery = await deliveryOf(api, eventId);
      return delivery && delivery.status !== 'pending' ? delivery : undefined;
    },
    timeoutMs,
    `delivery of ${eventId} settled`,
  );

/** The delivery log of a key's mode once nothing in it is pending: nothing more will be sent. */
const settledLog = (api: ReturnType<typeof client>, count: number) =>
  eventually(
    async () => {
      const listed = (await api.get('/v1/webhook-deliveries')).body.data as Array<{ status: string }>;
      return listed.length === count && listed.every((d) => d.status !== 'pending') ? listed : undefined;
    },
    10_000,
    `${count} deliveries settled`,
  );

describe('signed webhook deliveries', () => {
  it('lists the deliveries of events about one object by `object`', async () => {
    const hook = await receiver();
    const { api } = await setup(hook.url, ['payment.succeeded']);
    for (const id of ['pay_one', 'pay_two', 'pay_one'])
      await api.post('/v1/webhook-events/test', { type: 'payment.succeeded', data: { id } });
    await settledLog(api, 3);
    const of = async (object: string) =>
      (await api.get(`/v1/webhook-deliveries?object=${object}`)).body.data as Array<{ event_id: string }>;
    const one = await of('pay_one');
    expect(one).toHaveLength(2);
    expect(await of('pay_two')).toHaveLength(1);
    expect(await of('pay_none')).toEqual([]);
  });

  it('delivers a test event with the documented envelope, verifiable by our helpers and by standardwebhooks', async () => {
    const hook = await receiver();
    const { api, endpoint } = await setup(hook.url, ['payment.succeeded']);
    const sent = await api.post('/v1/webhook-events/test', {
      type: 'payment.succeeded',
      data: { id: 'pay_test', amount: 500 },
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      object: 'event',
      type: 'payment.succeeded',
      livemode: false,
      data: { object: { id: 'pay_test' } },
    });
    await until(() => hook.received.length === 1);
    const [request] = hook.received;
    const { headers, body } = request!;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-webhook-id']).toBe(sent.body.id);
    expect(headers['webhook-id']).toBe(sent.body.id);
    expect(headers['x-webhook-event']).toBe('payment.succeeded');
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    expect(JSON.parse(body)).toEqual({
      id: sent.body.id,
      object: 'event',
      type: 'payment.succeeded',
      created: sent.body.created,
      livemode: false,
      api_version: '1.1.0',
      data: { object: { id: 'pay_test', amount: 500 } },
    });
    expect(headers['x-webhook-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(await verifyWebhookBody(endpoint.secret, body, headers['x-webhook-signature'] as string)).toBe(
      true,
    );
    expect(
      await verifyWebhookBody(endpoint.secret, `${body} `, headers['x-webhook-signature'] as string),
    ).toBe(false);
    expect(await verifyStandardWebhook(endpoint.secret, body, headers)).toBe(true);
    expect(() => new Webhook(endpoint.secret).verify(body, headers as Record<string, string>)).not.toThrow();

    const delivery = await settledDelivery(api, sent.body.id);
    expect(delivery).toMatchObject({
      object: 'webhook_delivery',
      endpoint: endpoint.id,
      event_id: sent.body.id,
      event_type: 'payment.succeeded',
      status: 'succeeded',
      replayed_from: null,
      livemode: false,
    });
    expect(delivery.id).toMatch(/^whd_/);
    expect(delivery.attempts).toEqual([
      {
        at: expect.any(Number),
        status_code: 200,
        duration_ms: expect.any(Number),
        error: null,
        succeeded: true,
        response_body: 'ok',
      },
    ]);
  });

  it('reports a sandbox payment to 0700000001 as payment.created and payment.succeeded', async () => {
    const hook = await receiver();
    const { api } = await setup(hook.url, ['payment.created', 'payment.succeeded']);
    const payment = await api.post('/v1/payments', { amount: 5_000, currency: 'TZS', phone: '0700000001' });
    expect(payment.status).toBe(201);
    await until(() => hook.ofType('payment.succeeded').length === 1);
    const created = hook.ofType('payment.created');
    expect(created).toHaveLength(1);
    expect(created[0]!.json.data.object).toMatchObject({
      id: payment.body.id,
      status: 'pending',
      amount: 5_000,
    });
    expect(hook.ofType('payment.succeeded')[0]!.json.data.object).toMatchObject({
      id: payment.body.id,
      status: 'paid',
      fee: 75,
      net: 4_925,
    });
    const log = await api.get('/v1/webhook-deliveries');
    expect(log.body.data.map((d: any) => d.event_type)).toEqual(['payment.succeeded', 'payment.created']);
  });

  it('sends an event only to endpoints of its mode subscribed to its type or to *', async () => {
    const hook = await receiver();
    const merchant = await signUp(server.url);
    const test = client(server.url, merchant.keys.secretTest);
    const live = client(server.url, merchant.keys.secretLive);
    const url = (name: string) => `${hook.url}/${name}`;
    await test.post('/v1/webhooks', { url: url('customers'), events: ['customer.created'] });
    await test.post('/v1/webhooks', { url: url('all'), events: ['*'] });
    await test.post('/v1/webhooks', { url: url('failures'), events: ['payment.failed'] });
    expect((await live.post('/v1/webhooks', { url: url('live'), events: ['*'] })).status).toBe(201);

    const sent = await test.post('/v1/webhook-events/test', {
      type: 'customer.created',
      data: { name: 'Asha' },
    });
    await until(() => hook.received.length === 2);
    await live.post('/v1/customers', { name: 'Live customer' });
    await until(() => hook.received.length === 3);
    // Two deliveries in test mode and one in live, none left to send.
    await settledLog(test, 2);
    await settledLog(live, 1);
    const byPath = (r: (typeof hook.received)[number]) =>
      `${r.json.livemode ? 'live' : 'test'}:${r.json.data.object.name}`;
    expect(hook.received.map(byPath).sort()).toEqual(['live:Live customer', 'test:Asha', 'test:Asha']);
    expect(hook.received.filter((r) => r.json.id === sent.body.id)).toHaveLength(2);
    // Test events move no money.
    expect((await test.get('/v1/transactions')).body.data).toEqual([]);
    expect((await test.get('/v1/balance')).body.available).toEqual([]);
  });

  it('refuses test events with a live key (403) and of unknown types (400)', async () => {
    const merchant = await signUp(server.url);
    const live = await client(server.url, merchant.keys.secretLive).post('/v1/webhook-events/test', {
      type: 'payment.succeeded',
      data: {},
    });
    expect(live.status).toBe(403);
    expect(live.body).toMatchObject({ error: 'permission_error', code: 'test_mode_only' });
    const unknown = await client(server.url, merchant.keys.secretTest).post('/v1/webhook-events/test', {
      type: 'payment.exploded',
      data: {},
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      error: 'invalid_request_error',
      code: 'event_type_unknown',
      details: { type: expect.any(String) },
    });
  });
});

describe('retries', () => {
  it('retries a failing receiver after the configured delays, each counted from the end of the last attempt', async () => {
    const hook = await receiver((_, i) =>
      i < 2 ? { status: 500, body: 'not yet' } : { status: 204, body: '' },
    );
    const { api } = await setup(hook.url);
    const sent = await api.post('/v1/webhook-events/test', { type: 'customer.created', data: {} });
    const delivery = await settledDelivery(api, sent.body.id);
    expect(delivery.status).toBe('succeeded');
    expect(delivery.attempts.map((a: any) => [a.status_code, a.error, a.response_body])).toEqual([
      [500, 'HTTP 500', 'not yet'],
      [500, 'HTTP 500', 'not yet'],
      [204, null, ''],
    ]);
    const [first, second, third] = hook.received;
    // Not sooner than the delays; far sooner than the defaults (a minute, five minutes), however busy the machine.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(190);
    expect(second!.at - first!.at).toBeLessThan(10_000);
    expect(third!.at - second!.at).toBeGreaterThanOrEqual(390);
    expect(third!.at - second!.at).toBeLessThan(10_000);
    expect(new Set(hook.received.map((r) => r.headers['x-webhook-id']))).toEqual(new Set([sent.body.id]));
    expect(new Set(hook.received.map((r) => r.body)).size).toBe(1);
    expect(hook.received.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
  });

  it('fails a delivery whose receiver answers 500 to every attempt, and shows it in the endpoint health', async () => {
    const hook = await receiver(() => ({ status: 500 }));
    const { api, endpoint } = await setup(hook.url);
    const sent = await api.post('/v1/webhook-events/test', { type: 'customer.created', data: {} });
    const delivery = await settledDelivery(api, sent.body.id);
    expect(delivery).toMatchObject({
      status: 'failed',
      failure_reason: 'attempts_exhausted',
      next_attempt_at: null,
    });
    expect(delivery.attempts).toHaveLength(3);
    // Each attempt is recorded after its answer came, and a failed delivery is never claimed again.
    expect(hook.received).toHaveLength(3);
    const listed = (await api.get('/v1/webhooks')).body.data.find((e: any) => e.id === endpoint.id);
    expect(listed.health).toMatchObject({
      consecutive_failures: 1,
      recent_attempts: 3,
      recent_success_rate: 0,
      last_attempt: { succeeded: false, status_code: 500, error: 'HTTP 500' },
    });
    expect(listed.status).toBe('enabled');
  });

  it('times out a receiver that does not answer within WEBHOOK_TIMEOUT_MS', async () => {
    const impatient = await startWebhookServer({ WEBHOOK_TIMEOUT_MS: '500' });
    try {
      const hook = await receiver(() => ({ hang: true }));
      const merchant = await signUp(impatient.url);
      const api = client(impatient.url, merchant.keys.secretTest);
      await api.post('/v1/webhooks', { url: hook.url, events: ['*'] });
      const sent = await api.post('/v1/webhook-events/test', { type: 'customer.created', data: {} });
      const delivery = await settledDelivery(api, sent.body.id, 8000);
      expect(delivery.status).toBe('failed');
      expect(delivery.attempts).toHaveLength(3);
      for (const attempt of delivery.attempts) {
        expect(attempt).toMatchObject({
          status_code: null,
          error: 'timed out after 500 ms',
          succeeded: false,
        });
        // Ended by this server's 500 ms, not the 3 s other test servers wait.
        expect(attempt.duration_ms).toBeGreaterThanOrEqual(490);
        expect(attempt.duration_ms).toBeLessThan(2_900);
      }
      expect(hook.received).toHaveLength(3);
    } finally {
      await impatient.close();
    }
  });

  it('counts a refused connection as a failed attempt', async () => {
    const hook = await receiver();
    const url = hook.url;
    await hook.close();
    receivers.splice(receivers.indexOf(hook), 1);
    const { api } = await setup(url);
    const sent = await api.post('/v1/webhook-events/test', { type: 'customer.created', data: {} });
    const delivery = await settledDelivery(api, sent.body.id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts[0].error).toContain('ECONNREFUSED');
  });

  it('stops retrying at once when the endpoint is deleted mid-retry', async () => {
    const hook = await receiver(() => ({ status: 503 }));
    const { api, endpoint } = await setup(hook.url);
    const sent = await api.post('/v1/webhook-events/test', { type: 'customer.created', data: {} });
    await eventually(async () => (await deliveryOf(api, sent.body.id))?.attempts.length === 1);
    expect((await api.delete(`/v1/webhooks/${endpoint.id}`)).body).toEqual({
      id: endpoint.id,
      object: 'webhook_endpoint',
      deleted: true,
    });
    expect(await deliveryOf(api, sent.body.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'endpoint_deleted',
    });
    // Proving that a retry does not come needs its due time to pass: the retries were due 200 and 400 ms on.
    await sleep(900);
    expect(hook.received).toHaveLength(1);
    expect((await api.get(`/v1/webhooks/${endpoint.id}`)).status).toBe(404);
  });

  it('stops retrying at once when the endpoint is disabled mid-retry, and sends again once enabled', async () => {
    const hook = await receiver(() => ({ status: 500 }));
    const { api, endpoint } = await setup(hook.url);
    const sent = await api.post('/v1/webhook-events/test', { type: 'customer.created', data: {} });
    await eventually(async () => (await deliveryOf(api, sent.body.id))?.attempts.length === 1);
    const disabled = await api.patch(`/v1/webhooks/${endpoint.id}`, { status: 'disabled' });
    expect(disabled.body).toMatchObject({ status: 'disabled', disabled_reason: 'manual' });
    expect(await deliveryOf(api, sent.body.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'endpoint_disabled',
    });
    // Proving that a retry does not come needs its due time to pass: the retries were due 200 and 400 ms on.
    await sleep(900);
    expect(hook.received).toHaveLength(1);
    hook.setReply(() => ({ status: 200 }));
    const replayRefused = await api.post(
      `/v1/webhook-deliveries/${(await deliveryOf(api, sent.body.id)).id}/replay`,
    );
    expect(replayRefused.status).toBe(400);
    expect(replayRefused.body.code).toBe('webhook_endpoint_inactive');
    expect((await api.patch(`/v1/webhooks/${endpoint.id}`, { status: 'enabled' })).body).toMatchObject({
      status: 'enabled',
      disabled_reason: null,
    });
    const next = await api.post('/v1/webhook-events/test', { type: 'customer.created', data: {} });
    expect((await settledDelivery(api, next.body.id)).status).toBe('succeeded');
  });

  it('disables an endpoint after consecutive failed deliveries; new events are logged as failed until it is enabled', async () => {
    const hook = await receiver(() => ({ status: 500 }));
    const { api, endpoint } = await setup(hook.url);
    for (let i = 0; i < 3; i++)
      await api.post('/v1/webhook-events/test', { type: 'customer.created', data: { i } });
    const disabled = await eventually(async () => {
      const found = (await api.get(`/v1/webhooks/${endpoint.id}`)).body;
      return found.status === 'disabled' ? found : undefined;
    }, 8000);
    expect(disabled).toMatchObject({
      disabled_reason: 'consecutive_failures',
      health: { consecutive_failures: 3 },
    });
    const count = hook.received.length;
    const missed = await api.post('/v1/webhook-events/test', {
      type: 'customer.created',
      data: { missed: true },
    });
    const logged = await settledDelivery(api, missed.body.id);
    expect(logged).toMatchObject({ status: 'failed', failure_reason: 'endpoint_disabled', attempts: [] });
    expect(hook.received).toHaveLength(count);

    hook.setReply(() => ({ status: 200 }));
    const enabled = await api.patch(`/v1/webhooks/${endpoint.id}`, { status: 'enabled' });
    expect(enabled.body).toMatchObject({ status: 'enabled', health: { consecutive_failures: 0 } });
    const replay = await api.post(`/v1/webhook-deliveries/${logged.id}/replay`);
    expect(replay.status).toBe(201);
    await until(() => hook.received.some((r) => r.json.data.object.missed === true));
  });

  it('follows no redirects', async () => {
    const target = await receiver();
    const hook = await receiver(() => ({ status: 302, headers: { location: target.url } }));
    const { api } = await setup(hook.url);
    const sent = await api.post('/v1/webhook-events/test', { type: 'customer.created', data: {} });
    const delivery = await settledDelivery(api, sent.body.id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts[0]).toMatchObject({
      status_code: 302,
      error: 'redirect not followed (HTTP 302)',
    });
    expect(target.received).toHaveLength(0);
  });

  it('keeps the first 1024 bytes of a response body', async () => {
    const hook = await receiver(() => ({ status: 200, body: 'x'.repeat(5000) }));
    const { api } = await setup(hook.url);
    const sent = await api.post('/v1/webhook-events/test', { type: 'customer.created', data: {} });
    const delivery = await settledDelivery(api, sent.body.id);
    expect(delivery.attempts[0].response_body).toBe('x'.repeat(1024));
  });
});

describe('replay', () => {
  it('creates a new delivery with a fresh event id, once per Idempotency-Key', async () => {
    const hook = await receiver();
    const { api, endpoint } = await setup(hook.url);
    const sent = await api.post('/v1/webhook-events/test', {
      type: 'payment.refunded',
      data: { id: 'pay_x' },
    });
    const original = await settledDelivery(api, sent.body.id);

    const replay = await api.post(`/v1/webhook-deliveries/${original.id}/replay`, undefined, {
      'Idempotency-Key': 'replay-1',
    });
    expect(replay.status).toBe(201);
    expect(replay.body).toMatchObject({
      object: 'webhook_delivery',
      endpoint: endpoint.id,
      event_type: 'payment.refunded',
      replayed_from: original.id,
    });
    expect(replay.body.id).not.toBe(original.id);
    expect(replay.body.event_id).toMatch(/^evt_/);
    expect(replay.body.event_id).not.toBe(sent.body.id);
    await until(() => hook.received.length === 2);
    const again = await api.post(`/v1/webhook-deliveries/${original.id}/replay`, undefined, {
      'Idempotency-Key': 'replay-1',
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(replay.body);
    // One delivery per replay, both sent: the repeated request made none.
    await settledLog(api, 2);
    expect(hook.received).toHaveLength(2);

    const redelivered = hook.received[1]!;
    expect(redelivered.json).toMatchObject({
      id: replay.body.event_id,
      type: 'payment.refunded',
      replayed_from: original.id,
      data: { object: { id: 'pay_x' } },
    });
    expect(redelivered.headers['x-webhook-id']).toBe(replay.body.event_id);
    expect(
      await verifyWebhookBody(
        endpoint.secret,
        redelivered.body,
        redelivered.headers['x-webhook-signature'] as string,
      ),
    ).toBe(true);
    expect((await settledDelivery(api, replay.body.event_id)).status).toBe('succeeded');

    const other = await api.post(`/v1/webhook-deliveries/${original.id}/replay`, undefined, {
      'Idempotency-Key': 'replay-2',
    });
    expect(other.body.id).not.toBe(replay.body.id);
    await until(() => hook.received.length === 3);
  });

  it('answers 404 for a delivery of another merchant', async () => {
    const hook = await receiver();
    const { api } = await setup(hook.url);
    const sent = await api.post('/v1/webhook-events/test', { type: 'customer.created', data: {} });
    const delivery = await settledDelivery(api, sent.body.id);
    const stranger = client(server.url, (await signUp(server.url)).keys.secretTest);
    expect((await stranger.post(`/v1/webhook-deliveries/${delivery.id}/replay`)).status).toBe(404);
    expect((await stranger.get(`/v1/webhook-deliveries/${delivery.id}`)).status).toBe(404);
  });
});

describe('secret rotation', () => {
  it('signs webhook-signature with both secrets during the grace period and X-Webhook-Signature with the new one', async () => {
    const hook = await receiver();
    const { api, endpoint } = await setup(hook.url);
    const rotated = await api.post(`/v1/webhooks/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    expect(rotated.body.previous_secret_expires_at - Date.now() / 1000).toBeGreaterThan(86_400 - 60);
    expect((await api.get(`/v1/webhooks/${endpoint.id}`)).body.secret).toBeUndefined();

    await api.post('/v1/webhook-events/test', { type: 'customer.created', data: {} });
    await until(() => hook.received.length === 1);
    const { body, headers } = hook.received[0]!;
    expect((headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(await verifyWebhookBody(rotated.body.secret, body, headers['x-webhook-signature'] as string)).toBe(
      true,
    );
    expect(await verifyWebhookBody(endpoint.secret, body, headers['x-webhook-signature'] as string)).toBe(
      false,
    );
    for (const secret of [rotated.body.secret, endpoint.secret]) {
      expect(await verifyStandardWebhook(secret, body, headers)).toBe(true);
      expect(() => new Webhook(secret).verify(body, headers as Record<string, string>)).not.toThrow();
    }
  });
});

describe('delivery log', () => {
  it('lists deliveries newest first, pages with cursors and filters by endpoint, event, type and status', async () => {
    const hook = await receiver((request) =>
      request.json.type === 'payment.failed' ? { status: 500 } : { status: 200 },
    );
    const { api, endpoint } = await setup(hook.url);
    const other = await api.post('/v1/webhooks', { url: `${hook.url}/other`, events: ['customer.created'] });
    const events = [];
    for (const type of ['customer.created', 'payment.failed', 'payment.succeeded']) {
      events.push((await api.post('/v1/webhook-events/test', { type, data: {} })).body);
    }
    await eventually(async () => {
      const listed = (await api.get('/v1/webhook-deliveries')).body.data;
      return listed.length === 4 && listed.every((d: any) => d.status !== 'pending');
    }, 8000);
    const all = (await api.get('/v1/webhook-deliveries')).body;
    expect(all.data.map((d: any) => d.event_type)).toEqual([
      'payment.succeeded',
      'payment.failed',
      'customer.created',
      'customer.created',
    ]);
    const first = (await api.get('/v1/webhook-deliveries?limit=2')).body;
    expect(first.has_more).toBe(true);
    const rest = (await api.get(`/v1/webhook-deliveries?limit=2&starting_after=${first.data[1].id}`)).body;
    expect([...first.data, ...rest.data].map((d: any) => d.id)).toEqual(all.data.map((d: any) => d.id));
    expect(rest.has_more).toBe(false);
    expect((await api.get(`/v1/webhook-deliveries?endpoint=${other.body.id}`)).body.data).toHaveLength(1);
    expect((await api.get(`/v1/webhook-deliveries?endpoint=${endpoint.id}`)).body.data).toHaveLength(3);
    expect((await api.get(`/v1/webhook-deliveries?event=${events[0].id}`)).body.data).toHaveLength(2);
    expect((await api.get('/v1/webhook-deliveries?event_type=payment.succeeded')).body.data).toHaveLength(1);
    const failed = (await api.get('/v1/webhook-deliveries?status=failed')).body.data;
    expect(failed.map((d: any) => d.event_type)).toEqual(['payment.failed']);
    expect(failed[0].attempts).toHaveLength(3);
    expect((await api.get('/v1/webhook-deliveries?status=lost')).status).toBe(400);
  });
});
