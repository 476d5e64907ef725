import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { ERROR_TYPES } from '@tz/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventually, signUp, startTestServer, type Merchant } from '../support/server.ts';
import { makeProduct, type Api } from '../support/retail.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { MAX_JSON_DEPTH, MAX_JSON_KEYS, MAX_QUERY_PARAMETERS } from '../../apps/server/src/http/input.ts';

const TIMEOUT_MS = 400;
let server: RunningServer;
let merchant: Merchant;
let api: Api;

beforeAll(async () => {
  server = await startTestServer({
    HEADERS_TIMEOUT_MS: String(TIMEOUT_MS),
    BODY_TIMEOUT_MS: String(TIMEOUT_MS),
    // The webhook endpoint below listens on loopback.
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  });
  merchant = await signUp(server.url);
  api = client(server.url, merchant.keys.secretTest);
});
afterAll(() => server?.close());

function expectFieldError(
  response: { status: number; body: any; headers: Headers },
  status: number,
  code: string,
  field: string,
) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(ERROR_TYPES as readonly string[]).toContain(response.body.error);
  expect(response.body.code).toBe(code);
  expect(Object.keys(response.body.details)).toEqual([field]);
  expect(response.headers.get('x-request-id')).toMatch(/^req_/);
}

const payment = { amount: 1000, currency: 'TZS', phone: '0700000001' };

describe('strings PostgreSQL cannot store are refused at the boundary, naming where they are', () => {
  it.each([
    ['a path id', '/v1/payments/pay_%00', 'id'],
    ['a path id before a sub-resource', '/v1/orders/%00/refund', 'id'],
    ['the path of an unknown route', '/v1/no-such-thing/%00', 'path'],
    ['a query filter', '/v1/payments?customer=cus%00', 'customer'],
    ['a cursor', '/v1/customers?starting_after=%00', 'starting_after'],
    ['a query parameter name', '/v1/payments?x%00=1', 'x\u0000'],
    ['a request-log time filter', '/v1/logs?path=/v1%00', 'path'],
  ])('answers 400 for a percent-encoded NUL in %s', async (_name, url, field) => {
    expectFieldError(await api.get(url), 400, 'parameter_invalid', field);
  });

  it(`answers 400 at once for more than ${MAX_QUERY_PARAMETERS} query parameters, before parsing them`, async () => {
    const started = performance.now();
    const response = await api.get(`/v1/payments?${'a&'.repeat(7_000)}limit=1`);
    expectFieldError(response, 400, 'parameter_invalid', 'query');
    expect(performance.now() - started).toBeLessThan(500);
    const many = Array.from({ length: MAX_QUERY_PARAMETERS - 1 }, (_, i) => `k${i}=1`).join('&');
    expect((await api.get(`/v1/payments?${many}&limit=1`)).status).toBe(200);
  });

  it('answers 400 for a NUL in the path of a page outside /v1', async () => {
    expectFieldError(await client(server.url).get('/pay/chk_%00'), 400, 'parameter_invalid', 'path');
  });

  it.each([
    ['a string value', '{"name":"Asha\\u0000"}', 'name'],
    ['a nested string value', '{"metadata":{"note":"a\\u0000b"}}', 'metadata.note'],
    ['an object key', '{"metadata":{"k\\u0000":"v"}}', 'metadata.k\u0000'],
    ['a lone high surrogate', '{"name":"Asha\\ud800"}', 'name'],
    ['a lone low surrogate in a key', '{"metadata":{"\\udc00":"v"}}', 'metadata.\udc00'],
  ])('answers 400 for %s that PostgreSQL would refuse', async (_name, body, field) => {
    expectFieldError(await api.post('/v1/customers', body), 400, 'parameter_invalid', field);
  });

  it('answers 400 for a NUL in an array element, naming its index', async () => {
    const body = '{"name":"x","price":1,"variants":[{"name":"a"},{"name":"b\\u0000"}]}';
    expectFieldError(
      await api.post('/v1/retail/products', body),
      400,
      'parameter_invalid',
      'variants.1.name',
    );
  });

  it('answers 400 for a NUL on the unauthenticated sign-up', async () => {
    const response = await client(server.url).post(
      '/v1/merchants',
      '{"business_name":"Duka\\u0000","email":"nul@example.tz","password":"correct horse battery"}',
    );
    expectFieldError(response, 400, 'parameter_invalid', 'business_name');
  });

  it('keeps well-formed text: a surrogate pair (emoji), escaped quotes and an escaped backslash before u0000', async () => {
    const response = await api.post(
      '/v1/customers',
      '{"name":"Asha \\ud83d\\ude00 \\"Mama\\"","metadata":{"a\\\\":"\\\\","b":"\\\\u0000 \\\\uD800"}}',
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.name).toBe('Asha 😀 "Mama"');
    expect(response.body.metadata).toEqual({ 'a\\': '\\', b: '\\u0000 \\uD800' });
  });

  it('answers 400 for a body that is not UTF-8, instead of storing U+FFFD', async () => {
    const bytes = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const response = await fetch(`${server.url}/v1/customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${merchant.keys.secretTest}`, 'Content-Type': 'application/json' },
      body: bytes,
    });
    const body = await response.json();
    expect(response.status).toBe(400);
    expect(body).toMatchObject({ code: 'body_invalid_json', details: { body: 'is not valid UTF-8' } });
  });
});

describe('text from outside the API', () => {
  it('records a webhook attempt whose endpoint answers with a NUL, showing it as U+FFFD', async () => {
    const endpoint = http.createServer((req, res) => {
      req.resume();
      res.end('ok\u0000done');
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = endpoint.address() as AddressInfo;
      const created = await api.post('/v1/webhooks', {
        url: `http://127.0.0.1:${port}/hooks`,
        events: ['*'],
      });
      expect(created.status).toBe(201);
      await api.post('/v1/webhook-events/test', { type: 'customer.created', data: {} });
      const delivery = await eventually(async () => {
        const list = await api.get(`/v1/webhook-deliveries?endpoint=${created.body.id}`);
        return list.body.data.find((d: { status: string }) => d.status !== 'pending');
      });
      expect(delivery.status).toBe('succeeded');
      expect(delivery.attempts[0].response_body).toBe('ok\ufffddone');
    } finally {
      endpoint.close();
    }
  });
});

describe('JSON structure', () => {
  const nested = (depth: number) => '['.repeat(depth - 1) + ']'.repeat(depth - 1);

  it(`answers 400 body_too_complex for nesting deeper than ${MAX_JSON_DEPTH} levels, naming the field`, async () => {
    const deep = `{"type":"customer.created","data":{"x":${nested(10_000)}}}`;
    const response = await api.post('/v1/webhook-events/test', deep);
    expectFieldError(response, 400, 'body_too_complex', 'data');
  });

  it(`takes nesting of exactly ${MAX_JSON_DEPTH} levels`, async () => {
    // The body is level 1 and data level 2, so the innermost array is level MAX_JSON_DEPTH.
    const body = `{"type":"customer.created","data":{"x":${nested(MAX_JSON_DEPTH - 1)}}}`;
    const response = await api.post('/v1/webhook-events/test', body);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(await api.post('/v1/webhook-events/test', body.replace('"x":', '"x":['))).toMatchObject({
      status: 400,
    });
  });

  it(`answers 400 body_too_complex for an object of more than ${MAX_JSON_KEYS} keys`, async () => {
    const data = Object.fromEntries(Array.from({ length: MAX_JSON_KEYS + 1 }, (_, i) => [`k${i}`, i]));
    const response = await api.post('/v1/webhook-events/test', { type: 'customer.created', data });
    expectFieldError(response, 400, 'body_too_complex', 'data');
    delete data.k0;
    expect((await api.post('/v1/webhook-events/test', { type: 'customer.created', data })).status).toBe(201);
  });

  it('answers 400 parameter_duplicate for a key given twice, instead of keeping the last', async () => {
    const response = await api.post(
      '/v1/payments',
      '{"amount":1000,"currency":"TZS","phone":"0700000001","amount":999999999999}',
    );
    expectFieldError(response, 400, 'parameter_duplicate', 'amount');
  });

  it('refuses duplicates however they are spelt, and at any depth', async () => {
    const escaped = await api.post('/v1/customers', '{"name":"a","n\\u0061me":"b"}');
    expectFieldError(escaped, 400, 'parameter_duplicate', 'name');
    const nestedKeys = await api.post('/v1/customers', '{"metadata":{"a":"1","b":"2","a":"3"}}');
    expectFieldError(nestedKeys, 400, 'parameter_duplicate', 'metadata.a');
    // The same key in two sibling objects is no duplicate.
    const siblings = await api.post(
      '/v1/webhook-events/test',
      '{"type":"customer.created","data":{"a":{"k":1},"b":{"k":1}}}',
    );
    expect(siblings.status).toBe(201);
  });

  it.each(['constructor', 'toString', 'hasOwnProperty'])(
    'names a field called %s like any other, instead of failing on the inherited property',
    async (name) => {
      const response = await api.post('/v1/customers', { metadata: { [name]: 1 } });
      expectFieldError(response, 400, 'parameter_invalid', `metadata.${name}`);
      expectFieldError(await api.post('/v1/customers', { [name]: 'x' }), 400, 'parameter_unknown', name);
    },
  );

  it('answers 400 naming __proto__ when it is used as a key', async () => {
    expectFieldError(
      await api.post('/v1/payments', { ...payment, ['__proto__']: { amount: 1 } }),
      400,
      'parameter_invalid',
      '__proto__',
    );
    const nestedProto = await api.post(
      '/v1/payments',
      '{"amount":1000,"currency":"TZS","phone":"0700000001","metadata":{"__proto__":"x"}}',
    );
    expectFieldError(nestedProto, 400, 'parameter_invalid', 'metadata.__proto__');
  });
});

describe('number bounds', () => {
  it.each([
    ['created_gte', Number.MAX_SAFE_INTEGER],
    ['created_lte', Number.MAX_SAFE_INTEGER],
    ['created_gte', -1e15],
    ['created_lte', 1e300],
  ])(
    'answers 400 for %s=%s on the request log, instead of a timestamp out of range',
    async (field, value) => {
      expectFieldError(await api.get(`/v1/logs?${field}=${value}`), 400, 'parameter_invalid', field);
    },
  );

  it('answers 400 for a JSON number beyond a double, where JSON.parse would make it Infinity (stored as null)', async () => {
    const body = '{"type":"customer.created","data":{"big":1e400,"small":5e-324,"negative":-1E+400}}';
    expectFieldError(await api.post('/v1/webhook-events/test', body), 400, 'parameter_invalid', 'data.big');
    const fine = await api.post(
      '/v1/webhook-events/test',
      '{"type":"customer.created","data":{"n":-1.5e308,"t":5e-324}}',
    );
    expect(fine.status).toBe(201);
    expect(fine.body.data.object).toEqual({ n: -1.5e308, t: 5e-324 });
  });

  it('filters the request log by the bounds of its range', async () => {
    expect((await api.get('/v1/logs?created_lte=0')).body.data).toEqual([]);
    expect((await api.get('/v1/logs?created_gte=253402300799')).body.data).toEqual([]);
  });

  describe('stock', () => {
    let product: string;
    beforeAll(async () => {
      await api.patch('/v1/retail/store', { name: 'Duka Kuu' });
      product = (await makeProduct(api, { name: 'Mchele' })).id;
    });
    const adjust = (body: Record<string, unknown>) =>
      api.post('/v1/retail/stock-adjustments', { product, reason: 'count', ...body });

    it.each([
      ['set_on_hand', Number.MAX_SAFE_INTEGER],
      ['set_on_hand', 1_000_000_000],
      ['adjust_by', -1_000_000_000],
      ['adjust_by', 9_300_000_000_000_000],
      ['reorder_level', 1_000_000_000],
      ['reorder_level_milli', 1_000_000_000_000],
      ['set_on_hand_milli', -1_000_000_000_000],
    ])('answers 400 for %s = %s, beyond the documented bound', async (field, value) => {
      expectFieldError(await adjust({ [field]: value }), 400, 'parameter_invalid', field);
    });

    it('takes the bounds themselves, and refuses an adjustment that would carry the count past them', async () => {
      const top = await adjust({ set_on_hand: 999_999_999, reorder_level: 999_999_999 });
      expect(top.status, JSON.stringify(top.body)).toBe(201);
      expect(top.body).toMatchObject({
        on_hand_milli: 999_999_999_000,
        reorder_level_milli: 999_999_999_000,
      });
      const over = await adjust({ adjust_by: 1, reason: 'received' });
      expectFieldError(over, 400, 'quantity_invalid', 'adjust_by');
      const edge = await adjust({ adjust_by_milli: 999, reason: 'received' });
      expect(edge.body.on_hand_milli).toBe(999_999_999_999);
      // The refused adjustment changed nothing.
      const back = await adjust({ adjust_by: -999_999_999, reason: 'correction' });
      expect(back.body.on_hand_milli).toBe(999);
    });
  });
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
  elapsedMs: number;
}

/** Sends bytes as they are over a socket and reads the answer until the server closes the connection. */
function rawRequest(bytes: string | Buffer): Promise<RawResponse> {
  const { port, hostname } = new URL(server.url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      let parsed: unknown = body;
      try {
        parsed = JSON.parse(body);
      } catch {
        // keep the text
      }
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: parsed,
        text,
        elapsedMs: performance.now() - started,
      });
    });
  });
}

function expectRawError(response: RawResponse, status: number, code: string) {
  expect(response.status, JSON.stringify(response)).toBe(status);
  expect(response.body).toMatchObject({ error: 'invalid_request_error', code });
  expect(typeof response.body.message).toBe('string');
  expect(response.headers['x-request-id']).toMatch(/^req_/);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
}

describe('HTTP limits', () => {
  it('answers 408 with the error object when a body declares more than it sends, within the body timeout', async () => {
    const response = await rawRequest(
      'POST /v1/merchants HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100\r\n\r\n{"business_name":',
    );
    expectRawError(response, 408, 'request_timeout');
    expect(response.body.details).toEqual({ body: `must arrive within ${TIMEOUT_MS} ms` });
    expect(response.elapsedMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(response.elapsedMs).toBeLessThan(TIMEOUT_MS + 3_000);
  });

  it('answers 408 with the error object when the headers never end, within the headers timeout', async () => {
    const response = await rawRequest('GET /v1/payments HTTP/1.1\r\nHost: localhost\r\nX-Slow: a');
    expectRawError(response, 408, 'request_timeout');
    expect(response.elapsedMs).toBeLessThan(TIMEOUT_MS + 3_000);
  });

  it('answers 400 request_malformed with the error object for a header with control characters', async () => {
    const response = await rawRequest(
      'GET /v1/payments HTTP/1.1\r\nHost: localhost\r\nX-Note: a\x01b\r\n\r\n',
    );
    expectRawError(response, 400, 'request_malformed');
    expect(response.body.message).toMatch(/not valid HTTP/);
  });

  it('answers 431 headers_too_large with the error object for oversize headers', async () => {
    const response = await rawRequest(
      `GET /v1/payments HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectRawError(response, 431, 'headers_too_large');
  });

  it('answers a malformed request that follows an answered one on the same connection', async () => {
    const response = await rawRequest(
      'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\nGET /v1/payments HTTP/1.1\r\nHost: localhost\r\nX-Note: a\x01b\r\n\r\n',
    );
    expect(response.status).toBe(200);
    expect(response.text).toMatch(/HTTP\/1\.1 400 Bad Request\r\n[^]*"code":"request_malformed"/);
  });
});
