import fc from 'fast-check';
import { ERROR_TYPES } from '@tz/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type Merchant } from '../support/server.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { v1Routes } from '../../apps/server/src/routes/v1/index.ts';

let server: RunningServer;
let merchant: Merchant;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  server = await startTestServer({ MAX_BODY_BYTES: '20000' });
  merchant = await signUp(server.url);
  api = client(server.url, merchant.keys.secretTest);
});
afterAll(() => server?.close());

function expectErrorObject(
  response: { status: number; body: any; headers: Headers },
  status: number,
  code?: string,
) {
  expect(response.status).toBe(status);
  expect(ERROR_TYPES as readonly string[]).toContain(response.body.error);
  expect(typeof response.body.message).toBe('string');
  if (code) expect(response.body.code).toBe(code);
  expect(JSON.stringify(response.body)).not.toMatch(/at .*\.ts:\d+|node_modules|stack/i);
  expect(response.headers.get('x-request-id')).toMatch(/^req_/);
}

describe('bad input on POST /v1/payments', () => {
  const valid = { amount: 1000, currency: 'TZS', phone: '0700000001' };

  it.each([
    ['a fractional amount', { ...valid, amount: 10.5 }, 'amount_invalid', 'amount'],
    ['a negative amount', { ...valid, amount: -1 }, 'amount_invalid', 'amount'],
    ['a zero amount', { ...valid, amount: 0 }, 'amount_invalid', 'amount'],
    ['an oversize amount', { ...valid, amount: 1_000_000_000_000 }, 'amount_invalid', 'amount'],
    ['an amount as a string', { ...valid, amount: '1000' }, 'amount_invalid', 'amount'],
    ['an unknown currency', { ...valid, currency: 'XYZ' }, 'currency_invalid', 'currency'],
    ['a currency of the wrong type', { ...valid, currency: 12 }, 'currency_invalid', 'currency'],
    ['a Kenyan phone number', { ...valid, phone: '+254712345678' }, 'phone_invalid', 'phone'],
    ['a landline', { ...valid, phone: '0222123456' }, 'phone_invalid', 'phone'],
    ['a missing phone', { amount: 1000, currency: 'TZS' }, 'parameter_missing', 'phone'],
    ['an unknown field', { ...valid, colour: 'red' }, 'parameter_unknown', 'colour'],
    ['metadata that is not strings', { ...valid, metadata: { a: 1 } }, 'parameter_invalid', 'metadata.a'],
  ])('answers 400 for %s, naming the field', async (_name, body, code, field) => {
    const response = await api.post('/v1/payments', body);
    expectErrorObject(response, 400, code);
    expect(response.body.details).toHaveProperty([field]);
  });

  it('answers 400 body_invalid_json for malformed JSON', async () => {
    expectErrorObject(await api.post('/v1/payments', '{"amount": 10,'), 400, 'body_invalid_json');
  });

  it('answers 400 for a JSON body that is not an object', async () => {
    for (const raw of ['[]', '"text"', '42', 'null']) {
      const response = await api.post('/v1/payments', raw);
      expectErrorObject(response, 400);
    }
  });

  it('answers 400 body_too_large for an oversize body', async () => {
    const response = await api.post('/v1/payments', { ...valid, description: 'x'.repeat(30_000) });
    expectErrorObject(response, 400, 'body_too_large');
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await api.request('POST', '/v1/payments', 'amount=1000', {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expectErrorObject(response, 400, 'content_type_invalid');
  });
});

describe('the error object everywhere', () => {
  it('answers unknown routes with a 404 error object, request id and rate-limit headers', async () => {
    const response = await api.get('/v1/no-such-thing');
    expectErrorObject(response, 404, 'route_not_found');
    expect(response.headers.get('ratelimit-limit')).not.toBeNull();
    expectErrorObject(await client(server.url).get('/nothing-here'), 404, 'route_not_found');
  });

  it('answers a missing key with 401 and an unknown key with 401', async () => {
    expectErrorObject(await client(server.url).get('/v1/payments'), 401, 'api_key_missing');
    expectErrorObject(
      await client(server.url, 'sk_test_' + 'a'.repeat(32)).get('/v1/payments'),
      401,
      'api_key_invalid',
    );
    expectErrorObject(
      await client(server.url).get('/v1/payments', { Authorization: 'Basic abc' }),
      401,
      'api_key_invalid',
    );
  });

  it('answers an unknown payment with 404 resource_missing', async () => {
    expectErrorObject(await api.get('/v1/payments/pay_nope'), 404, 'resource_missing');
  });
});

/** Random values of every JSON shape, biased towards the fields the routes know. */
const fieldNames = fc.constantFrom(
  'amount',
  'currency',
  'phone',
  'description',
  'customer',
  'metadata',
  'line_items',
  'name',
  'email',
  'password',
  'business_name',
  'type',
  'mode',
  'url',
  'events',
  'data',
  'quantity',
  'lines',
  'tenders',
  'expires_in_hours',
  'success_url',
  'sku',
  'price',
  'barcodes',
  'store',
  'status',
  'id',
  '__proto__',
  'constructor',
);
const anyValue = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(1e308, -0, Number.MAX_SAFE_INTEGER + 2, '0700000001', 'TZS', 'https://example.com/x', '*'),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue(), { maxKeys: 3 }),
);
const randomBody = fc.oneof(
  fc.dictionary(fieldNames, anyValue, { maxKeys: 8 }).map((o) => JSON.stringify(o)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
);
const randomId = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.constantFrom('pay_x', 'cus_1', 'key_0', '%00', '..'),
);

describe('random bodies on every write route', () => {
  const writeRoutes = v1Routes.filter((route) => route.method !== 'GET');

  it('never answers 5xx, and always with the error object or a success', async () => {
    expect(writeRoutes.length).toBeGreaterThan(5);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writeRoutes), randomBody, randomId, async (route, body, id) => {
        const path = `/v1${route.path.replace(/\{\w+\}/g, encodeURIComponent(id))}`;
        const response = await api.request(route.method, path, body, { 'Content-Type': 'application/json' });
        expect(response.status, `${route.method} ${path} ${body}`).toBeLessThan(500);
        if (response.status >= 400) expect(ERROR_TYPES as readonly string[]).toContain(response.body.error);
      }),
      { numRuns: 300 },
    );
  });
});
