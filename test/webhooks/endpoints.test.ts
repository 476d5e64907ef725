import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventually, signUp } from '../support/server.ts';
import { EVENT_TYPES } from '../../apps/server/src/infra/event-types.ts';
import { startReceiver, startWebhookServer, type Receiver } from './support.ts';

let server: Awaited<ReturnType<typeof startWebhookServer>>;
let guarded: Awaited<ReturnType<typeof startWebhookServer>>;
let hook: Receiver;

beforeAll(async () => {
  [server, guarded, hook] = await Promise.all([
    startWebhookServer(),
    startWebhookServer({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false' }),
    startReceiver(),
  ]);
});
afterAll(async () => {
  await hook?.close();
  await Promise.all([server?.close(), guarded?.close()]);
});

const merchantApi = async (base = server) => {
  const merchant = await signUp(base.url);
  return {
    merchant,
    test: client(base.url, merchant.keys.secretTest),
    live: client(base.url, merchant.keys.secretLive),
  };
};

describe('webhook endpoints', () => {
  it('returns the secret at creation only', async () => {
    const { test } = await merchantApi();
    const created = await test.post('/v1/webhooks', {
      url: hook.url,
      events: ['payment.succeeded', 'payment.failed'],
      description: 'orders',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'webhook_endpoint',
      url: hook.url,
      events: ['payment.succeeded', 'payment.failed'],
      description: 'orders',
      status: 'enabled',
      disabled_reason: null,
      livemode: false,
      previous_secret_expires_at: null,
      health: { consecutive_failures: 0, recent_attempts: 0, recent_success_rate: null, last_attempt: null },
    });
    expect(created.body.id).toMatch(/^we_/);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await test.get('/v1/webhooks');
    expect(listed.body).toMatchObject({ object: 'list', has_more: false });
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].secret).toBeUndefined();
    expect((await test.get(`/v1/webhooks/${created.body.id}`)).body.secret).toBeUndefined();
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret.slice(6));
  });

  it('refuses unknown event types and empty subscriptions with 400', async () => {
    const { test } = await merchantApi();
    const unknown = await test.post('/v1/webhooks', {
      url: hook.url,
      events: ['payment.succeeded', 'payment.teleported'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      code: 'event_type_unknown',
      details: { 'events.1': "unknown event type 'payment.teleported'" },
    });
    expect((await test.post('/v1/webhooks', { url: hook.url, events: [] })).status).toBe(400);
    expect((await test.post('/v1/webhooks', { url: hook.url })).body.code).toBe('parameter_missing');
    expect(
      (await test.post('/v1/webhooks', { url: hook.url, events: ['*'], secret: 'mine' })).body.code,
    ).toBe('parameter_unknown');
    const all = await test.post('/v1/webhooks', { url: hook.url, events: ['customer.created', '*'] });
    expect(all.body.events).toEqual(['*']);
  });

  it('keeps endpoints within their mode and their merchant', async () => {
    const { test, live } = await merchantApi();
    const testEndpoint = (await test.post('/v1/webhooks', { url: hook.url, events: ['*'] })).body;
    const liveEndpoint = (await live.post('/v1/webhooks', { url: hook.url, events: ['*'] })).body;
    expect(liveEndpoint.livemode).toBe(true);
    expect((await test.get('/v1/webhooks')).body.data.map((e: any) => e.id)).toEqual([testEndpoint.id]);
    expect((await live.get('/v1/webhooks')).body.data.map((e: any) => e.id)).toEqual([liveEndpoint.id]);
    expect((await live.get(`/v1/webhooks/${testEndpoint.id}`)).status).toBe(404);
    const stranger = (await merchantApi()).test;
    expect((await stranger.get(`/v1/webhooks/${testEndpoint.id}`)).status).toBe(404);
    expect((await stranger.patch(`/v1/webhooks/${testEndpoint.id}`, { status: 'disabled' })).status).toBe(
      404,
    );
    expect((await stranger.post(`/v1/webhooks/${testEndpoint.id}/rotate-secret`)).status).toBe(404);
    expect((await stranger.delete(`/v1/webhooks/${testEndpoint.id}`)).status).toBe(404);
    expect((await test.get(`/v1/webhooks/${testEndpoint.id}`)).body.status).toBe('enabled');
  });

  it('updates url, events, description and status', async () => {
    const { test } = await merchantApi();
    const created = (await test.post('/v1/webhooks', { url: hook.url, events: ['*'] })).body;
    const updated = await test.patch(`/v1/webhooks/${created.id}`, {
      url: `${hook.url}/v2`,
      events: ['payment.refunded'],
      description: 'refunds',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      url: `${hook.url}/v2`,
      events: ['payment.refunded'],
      description: 'refunds',
      status: 'enabled',
    });
    expect(updated.body.secret).toBeUndefined();
    expect(
      (await test.patch(`/v1/webhooks/${created.id}`, { description: null })).body.description,
    ).toBeNull();
    expect((await test.patch(`/v1/webhooks/${created.id}`, {})).status).toBe(400);
    expect((await test.patch(`/v1/webhooks/${created.id}`, { events: ['nope'] })).body.code).toBe(
      'event_type_unknown',
    );
    expect((await test.patch(`/v1/webhooks/${created.id}`, { status: 'paused' })).status).toBe(400);
    expect((await test.patch(`/v1/webhooks/${created.id}`, { status: 'disabled' })).body).toMatchObject({
      status: 'disabled',
      disabled_reason: 'manual',
    });
  });

  it('deletes an endpoint: it leaves the list and its id is unknown afterwards', async () => {
    const { test } = await merchantApi();
    const created = (await test.post('/v1/webhooks', { url: hook.url, events: ['*'] })).body;
    expect((await test.delete(`/v1/webhooks/${created.id}`)).status).toBe(200);
    expect((await test.get('/v1/webhooks')).body.data).toEqual([]);
    expect((await test.delete(`/v1/webhooks/${created.id}`)).status).toBe(404);
  });

  it('lists endpoints newest first with cursors', async () => {
    const { test } = await merchantApi();
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push((await test.post('/v1/webhooks', { url: `${hook.url}/${i}`, events: ['*'] })).body.id);
    const page = (await test.get('/v1/webhooks?limit=2')).body;
    expect(page.data.map((e: any) => e.id)).toEqual([ids[2], ids[1]]);
    expect(page.has_more).toBe(true);
    expect((await test.get(`/v1/webhooks?starting_after=${ids[1]}`)).body.data.map((e: any) => e.id)).toEqual(
      [ids[0]],
    );
  });

  it('publishes every event type in the OpenAPI webhooks section with its object schema', async () => {
    const document = (await client(server.url).get('/v1/openapi.json')).body;
    expect(Object.keys(document.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    const payment = document.webhooks['payment.succeeded'].post;
    const envelope = payment.requestBody.content['application/json'].schema;
    expect(envelope.properties.type).toEqual({ const: 'payment.succeeded' });
    expect(envelope.properties.data.properties.object.properties).toHaveProperty('amount');
    expect(payment.parameters.map((p: any) => p.name)).toContain('X-Webhook-Signature');
    for (const path of [
      '/v1/webhooks',
      '/v1/webhooks/{id}',
      '/v1/webhooks/{id}/rotate-secret',
      '/v1/webhook-deliveries',
      '/v1/webhook-deliveries/{id}/replay',
      '/v1/webhook-events/test',
    ]) {
      expect(document.paths).toHaveProperty([path]);
    }
    expect(Object.keys(document.paths['/v1/webhooks/{id}']).sort()).toEqual(['delete', 'get', 'patch']);
  });
});

describe('webhook URL safety', () => {
  it.each([
    ['loopback', 'http://127.0.0.1:9/hook'],
    ['localhost', 'http://localhost:9/hook'],
    ['IPv6 loopback', 'http://[::1]:9/hook'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/hook'],
    ['IPv4-translated loopback', 'http://[::ffff:0:7f00:1]/hook'],
    ['IPv4-compatible loopback', 'http://[::7f00:1]/hook'],
    ['Teredo-embedded loopback', 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook'],
    ['integer-encoded loopback', 'http://2130706433/hook'],
    ['unspecified', 'http://0.0.0.0/hook'],
    ['private', 'http://10.0.0.7/hook'],
    ['private', 'http://192.168.1.20/hook'],
    ['link-local metadata', 'http://169.254.169.254/latest/meta-data'],
    ['unique-local', 'http://[fd00::1]/hook'],
  ])('refuses a %s URL at registration (%s)', async (_, url) => {
    const { test } = await merchantApi(guarded);
    const refused = await test.post('/v1/webhooks', { url, events: ['*'] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: 'invalid_request_error',
      code: 'url_not_allowed',
      details: { url: expect.any(String) },
    });
  });

  it('refuses non-http URLs, credentials in URLs and private URLs in updates', async () => {
    const { test } = await merchantApi(guarded);
    expect((await test.post('/v1/webhooks', { url: 'ftp://example.com/x', events: ['*'] })).body.code).toBe(
      'url_invalid',
    );
    expect((await test.post('/v1/webhooks', { url: 'not a url', events: ['*'] })).body.code).toBe(
      'url_invalid',
    );
    expect(
      (await test.post('/v1/webhooks', { url: 'https://user:pw@8.8.8.8/', events: ['*'] })).body.code,
    ).toBe('url_invalid');
    const created = await test.post('/v1/webhooks', {
      url: 'https://8.8.8.8/hook',
      events: ['payment.succeeded'],
    });
    expect(created.status).toBe(201);
    const moved = await test.patch(`/v1/webhooks/${created.body.id}`, { url: 'http://localhost/hook' });
    expect(moved.body.code).toBe('url_not_allowed');
    await test.delete(`/v1/webhooks/${created.body.id}`);
  });

  it('requires https in live mode', async () => {
    const { live } = await merchantApi(guarded);
    const refused = await live.post('/v1/webhooks', { url: 'http://8.8.8.8/hook', events: ['*'] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'url_not_allowed',
      details: { url: 'must use https in live mode' },
    });
  });

  it('allows local URLs, also in live mode, when WEBHOOK_ALLOW_PRIVATE_URLS is set', async () => {
    const { test, live } = await merchantApi(server);
    expect((await test.post('/v1/webhooks', { url: 'http://localhost:9/hook', events: ['*'] })).status).toBe(
      201,
    );
    expect((await live.post('/v1/webhooks', { url: hook.url, events: ['*'] })).status).toBe(201);
  });

  it.each([
    ['a name that now resolves to loopback (DNS rebinding)', 'localhost'],
    ['a loopback address literal', '127.0.0.1'],
  ])('refuses to connect to %s at delivery time', async (_, host) => {
    const receiver = await startReceiver();
    try {
      const { test } = await merchantApi(guarded);
      const created = await test.post('/v1/webhooks', {
        url: 'https://8.8.8.8/hook',
        events: ['customer.created'],
      });
      // The address check passed at registration; the name points elsewhere by the time of delivery.
      await guarded.database.pool.query('UPDATE webhook_endpoints SET url = $2 WHERE id = $1', [
        created.body.id,
        `http://${host}:${receiver.port}/hook`,
      ]);
      const sent = await test.post('/v1/webhook-events/test', { type: 'customer.created', data: {} });
      const delivery = await eventually(async () => {
        const found = (await test.get(`/v1/webhook-deliveries?event=${sent.body.id}`)).body.data[0];
        return found?.status === 'failed' ? found : undefined;
      });
      expect(delivery.attempts).toHaveLength(3);
      expect(delivery.attempts[0].error).toMatch(
        /refused to connect to a loopback address \((127\.0\.0\.1|::1)\)/,
      );
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });
});
