import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import {
  generateWebhookSecret,
  signStandardWebhook,
  signWebhookBody,
  standardWebhookKey,
  verifyStandardWebhook,
  verifyWebhookBody,
} from './signature.ts';

// The example from the Standard Webhooks specification.
const SPEC = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const headersFor = (signature: string, timestamp = SPEC.timestamp, id = SPEC.id) => ({
  'webhook-id': id,
  'webhook-timestamp': String(timestamp),
  'webhook-signature': signature,
});

describe('webhook secrets', () => {
  it('are whsec_ followed by the base64 of 32 random bytes by default', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(standardWebhookKey(secret)).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('refuses lengths outside 24 to 64 bytes', () => {
    expect(() => generateWebhookSecret(16)).toThrow(RangeError);
    expect(standardWebhookKey(generateWebhookSecret(64))).toHaveLength(64);
  });
});

describe('X-Webhook-Signature', () => {
  it('is the hex HMAC-SHA256 of the body keyed with the whole secret string', async () => {
    expect(await signWebhookBody(SPEC.secret, '{"a":1}')).toBe(
      '45ec03b2b33403c8043a90de06bedad0827183927115fd7e448ef97eeb13c5be',
    );
  });

  it('verifies the right signature and refuses a changed body, another secret or garbage', async () => {
    const signature = await signWebhookBody(SPEC.secret, '{"a":1}');
    expect(await verifyWebhookBody(SPEC.secret, '{"a":1}', signature)).toBe(true);
    expect(await verifyWebhookBody(SPEC.secret, '{"a":2}', signature)).toBe(false);
    expect(await verifyWebhookBody(generateWebhookSecret(), '{"a":1}', signature)).toBe(false);
    expect(await verifyWebhookBody(SPEC.secret, '{"a":1}', 'zz')).toBe(false);
    expect(await verifyWebhookBody(SPEC.secret, '{"a":1}', undefined)).toBe(false);
  });
});

describe('Standard Webhooks signatures', () => {
  it('match the example of the specification', async () => {
    expect(await signStandardWebhook(SPEC.secret, SPEC.id, SPEC.timestamp, SPEC.body)).toBe(SPEC.signature);
  });

  it('verify within the tolerance and refuse stale or future timestamps', async () => {
    const ok = await verifyStandardWebhook(SPEC.secret, SPEC.body, headersFor(SPEC.signature), {
      now: SPEC.timestamp + 299,
    });
    expect(ok).toBe(true);
    expect(
      await verifyStandardWebhook(SPEC.secret, SPEC.body, headersFor(SPEC.signature), {
        now: SPEC.timestamp + 301,
      }),
    ).toBe(false);
    expect(
      await verifyStandardWebhook(SPEC.secret, SPEC.body, headersFor(SPEC.signature), {
        now: SPEC.timestamp - 301,
      }),
    ).toBe(false);
  });

  it('accept any matching signature of a space-separated list, as during a rotation', async () => {
    const other = await signStandardWebhook(generateWebhookSecret(), SPEC.id, SPEC.timestamp, SPEC.body);
    const headers = headersFor(`${other} ${SPEC.signature}`);
    expect(await verifyStandardWebhook(SPEC.secret, SPEC.body, headers, { now: SPEC.timestamp })).toBe(true);
    expect(
      await verifyStandardWebhook(SPEC.secret, SPEC.body, headersFor(other), { now: SPEC.timestamp }),
    ).toBe(false);
  });

  it('read headers from a fetch Headers object too', async () => {
    const headers = new Headers(headersFor(SPEC.signature));
    expect(await verifyStandardWebhook(SPEC.secret, SPEC.body, headers, { now: SPEC.timestamp })).toBe(true);
    headers.delete('webhook-id');
    expect(await verifyStandardWebhook(SPEC.secret, SPEC.body, headers, { now: SPEC.timestamp })).toBe(false);
  });

  it('agree with the standardwebhooks package in both directions', async () => {
    const secret = generateWebhookSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment.succeeded' });
    const ours = await signStandardWebhook(secret, 'evt_1', timestamp, body);
    expect(() => new Webhook(secret).verify(body, headersFor(ours, timestamp, 'evt_1'))).not.toThrow();
    const theirs = new Webhook(secret).sign('evt_1', new Date(timestamp * 1000), body);
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': theirs,
    };
    expect(await verifyStandardWebhook(secret, body, headers)).toBe(true);
  });
});
