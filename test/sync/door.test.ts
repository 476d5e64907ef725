import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, type Command, type CommandResult, type PushResult } from '@tz/core';
import { client, eventually, signUp, startTestServer } from '../support/server.ts';
import { makeProduct, type Api } from '../support/retail.ts';
import { makeEmployee, makeTill } from '../support/tills.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';

// The tills' door (/trpc) over real HTTP: the input rules of /v1, a push judged command by command,
// and a revoked till's stream closed wherever it is held. PostgreSQL when the run has one, else PGlite.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** Short, so a slow body is cut within the test's time (Node alone would wait 15 s more plus 10). */
const BODY_TIMEOUT_MS = 2_000;

let server: RunningServer;
let api: Api;
let product: { id: string; price: number };
let store: string;

interface Paired {
  id: string;
  credential: string;
  receiptPrefix: string;
}

interface Answer {
  status: number;
  body: any;
}

/** One tRPC call as the till's client makes it: a query's input in the URL, a mutation's as the body. */
async function call(
  base: string,
  procedure: string,
  options: { credential?: string; input?: unknown; body?: string; headers?: Record<string, string> },
): Promise<Answer> {
  const query =
    options.input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(options.input))}`;
  const response = await fetch(`${base}/trpc/${procedure}${query}`, {
    method: options.body === undefined ? 'GET' : 'POST',
    headers: {
      ...(options.credential ? { authorization: `Bearer ${options.credential}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body ?? null,
  });
  const text = await response.text();
  // The stream answers 200 and says what went wrong in its one event.
  const streamed = /^event: serialized-error\ndata: (.*)$/m.exec(text)?.[1];
  return { status: response.status, body: JSON.parse(streamed ? `{"error":${streamed}}` : text) as unknown };
}

const push = async (till: Paired, commands: Command[]): Promise<CommandResult[]> => {
  const answer = await call(server.url, 'sync.push', {
    credential: till.credential,
    body: JSON.stringify({ commands }),
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body.result.data as PushResult).results;
};

async function pair(): Promise<Paired> {
  const till = await makeTill(api);
  const answer = await call(server.url, 'sync.pair', { body: JSON.stringify({ code: till.pairing_code }) });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const paired = answer.body.result.data;
  return { id: paired.till.id, credential: paired.credential, receiptPrefix: paired.till.receipt_prefix };
}

const commandId = () => `cmd_${newId('request').slice(-26).toUpperCase()}`;
const command = (type: Command['type'], payload: Record<string, unknown>): Command => ({
  id: commandId(),
  type,
  created_at: Date.now(),
  payload,
});
let receipts = 0;
const sale = (till: Paired, overrides: Record<string, unknown> = {}): Command =>
  command('order.create', {
    client_order_id: `sale-${till.id}-${++receipts}`,
    store,
    receipt_number: `${till.receiptPrefix}-${String(receipts).padStart(6, '0')}`,
    lines: [{ product: product.id, quantity: 1 }],
    tenders: [{ method: 'cash', amount: product.price }],
    ...overrides,
  });

beforeAll(async () => {
  server = await startTestServer({ BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS) });
  const merchant = await signUp(server.url, { business_name: 'Duka la Mlango' });
  api = client(server.url, merchant.keys.secretTest);
  store = (await api.patch('/v1/retail/store', { name: 'Duka Kuu' })).body.id;
  product = await makeProduct(api, { price: 1200 });
});
afterAll(() => server?.close());

describe('a command the server can never apply', () => {
  const NUL = 'a\u0000b';
  const LONE = 'a\ud800b';
  /** Each poison: the commands that lead to it (applied), the poison, and the field its refusal names. */
  const cases: Array<{
    name: string;
    poison: (till: Paired, sold: string, employee: string) => { before?: Command[]; command: Command };
    field: string;
  }> = [
    {
      name: 'a NUL in an order’s metadata',
      poison: (till) => ({ command: sale(till, { metadata: { note: NUL } }) }),
      field: 'payload.metadata.note',
    },
    {
      name: 'an unpaired surrogate in an order’s cashier',
      poison: (till) => ({ command: sale(till, { cashier: LONE }) }),
      field: 'payload.cashier',
    },
    {
      name: 'a NUL in an order’s client_order_id',
      poison: (till) => ({ command: sale(till, { client_order_id: NUL }) }),
      field: 'payload.client_order_id',
    },
    {
      name: 'a NUL in a card tender’s reference',
      poison: (till) => ({
        command: sale(till, { tenders: [{ method: 'card', amount: product.price, reference: NUL }] }),
      }),
      field: 'payload.tenders.0.reference',
    },
    {
      name: 'an unpaired surrogate in a product id',
      poison: (till) => ({
        command: sale(till, { lines: [{ product: `${product.id}\udc00`, quantity: 1 }] }),
      }),
      field: 'payload.lines.0.product',
    },
    {
      name: 'a NUL in a void’s reason',
      poison: (_till, sold) => ({ command: command('order.void', { client_order_id: sold, reason: NUL }) }),
      field: 'payload.reason',
    },
    {
      name: 'an unpaired surrogate in a refund’s reason',
      poison: (_till, sold) => ({
        command: command('order.refund', { client_order_id: sold, reason: LONE }),
      }),
      field: 'payload.reason',
    },
    {
      name: 'a NUL in a cash movement’s reason',
      poison: (_till, _sold, employee) => {
        const shift = newId('shift');
        const opened_at = Math.floor(Date.now() / 1000);
        return {
          before: [command('shift.open', { shift, cashier: employee, opening_float: 0, opened_at })],
          command: command('shift.cash_movement', {
            shift,
            kind: 'pay_in',
            amount: 500,
            reason: NUL,
            at: opened_at,
          }),
        };
      },
      field: 'payload.reason',
    },
    {
      name: 'a NUL in a print result’s message',
      poison: () => ({
        command: command('print_job.result', {
          print_job: 'pj_unknown',
          status: 'failed',
          failure_reason: 'offline',
          message: NUL,
        }),
      }),
      field: 'payload.message',
    },
  ];

  it.each(cases)(
    'refuses $name with its reason, and applies the sale behind it',
    async ({ poison, field }) => {
      const till = await pair();
      const first = sale(till);
      const employee = await makeEmployee(api, [store]);
      expect((await push(till, [first]))[0]).toMatchObject({ status: 'applied' });
      const { before = [], command: bad } = poison(
        till,
        (first.payload as { client_order_id: string }).client_order_id,
        employee.id,
      );
      const next = sale(till);
      const results = await push(till, [...before, bad, next]);
      expect(results.map((result) => result.status)).toEqual([
        ...before.map(() => 'applied'),
        'refused',
        'applied',
      ]);
      expect(results[before.length]).toMatchObject({
        id: bad.id,
        status: 'refused',
        error: { code: 'parameter_invalid', details: { [field]: expect.any(String) } },
      });
      // Pushed again, it is refused again: the till keeps it on screen, never resends it for ever.
      expect((await push(till, [bad]))[0]).toMatchObject({ status: 'refused' });
    },
  );

  it('refuses a command holding a key twice, and applies the one behind it', async () => {
    const till = await pair();
    const bad = sale(till);
    const next = sale(till);
    const text = JSON.stringify({ commands: [bad, next] }).replace(
      '"tenders":',
      `"receipt_number":"${till.receiptPrefix}-999999","tenders":`,
    );
    const answer = await call(server.url, 'sync.push', { credential: till.credential, body: text });
    expect(answer.status).toBe(200);
    expect(answer.body.result.data.results).toMatchObject([
      { id: bad.id, status: 'refused', error: { code: 'parameter_duplicate' } },
      { id: next.id, status: 'applied' },
    ]);
  });

  it('refuses, rather than leaving for ever unsent, a command the database refuses', async () => {
    // Past the door's string rules (the service called directly), PostgreSQL itself refuses the NUL.
    const till = await pair();
    const auth = await server.services.tills.authenticate(server.database.pool, till.credential);
    if (auth.status !== 'ok') throw new Error('the till did not authenticate');
    const { sync } = server.services;
    const results = await sync.push(auth.till, [sale(till, { metadata: { note: 'a\u0000b' } }), sale(till)]);
    expect(results).toMatchObject([
      { status: 'refused', error: { code: 'parameter_invalid', details: { payload: expect.any(String) } } },
      { status: 'applied' },
    ]);
  });
});

describe('the door’s input rules', () => {
  let till: Paired;
  beforeAll(async () => {
    till = await pair();
  });

  const refused = (answer: Answer, code: string, field?: string) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.error.data).toMatchObject({
      code,
      httpStatus: 400,
      ...(field ? { details: { [field]: expect.any(String) } } : {}),
    });
  };

  it('answers 400, never 500, for a NUL in a report’s app version or printer id', async () => {
    const version = await call(server.url, 'sync.report', {
      credential: till.credential,
      body: JSON.stringify({ app_version: '1.0\u0000', backlog: 0 }),
    });
    refused(version, 'parameter_invalid', 'app_version');
    const printer = await call(server.url, 'sync.report', {
      credential: till.credential,
      body: JSON.stringify({
        app_version: '1.0',
        backlog: 0,
        printers: [{ printer: 'prn\u0000', status: 'ok' }],
      }),
    });
    refused(printer, 'parameter_invalid', 'printers.0.printer');
  });

  it('answers 400 for a NUL in a query’s input: a payment id, a checkpoint id', async () => {
    const payment = await call(server.url, 'sync.getPayment', {
      credential: till.credential,
      input: { payment: 'pay_\u0000' },
    });
    refused(payment, 'parameter_invalid', 'input.payment');
    const pull = await call(server.url, 'sync.pull', {
      credential: till.credential,
      input: { collection: 'products', checkpoint: { seq: 1, id: 'prod_\u0000' }, limit: 10 },
    });
    refused(pull, 'parameter_invalid', 'input.checkpoint.id');
  });

  it('answers 400 for a stream resumed past the largest change sequence', async () => {
    const answer = await call(server.url, 'sync.changes', {
      credential: till.credential,
      input: { lastEventId: '9999999999999999999' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.error.data).toMatchObject({ code: 'parameter_invalid', httpStatus: 400 });
  });

  it('answers in our codes where tRPC refuses by itself: no such procedure, or the wrong method', async () => {
    const unknown = await call(server.url, 'sync.nothing', { credential: till.credential, input: {} });
    const wrongMethod = await call(server.url, 'sync.report', { credential: till.credential, input: {} });
    for (const answer of [unknown, wrongMethod]) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(404);
      expect(answer.body.error.data).toMatchObject({ code: 'route_not_found', httpStatus: 404 });
    }
  });

  it('answers 400 for a key given twice', async () => {
    const answer = await call(server.url, 'sync.report', {
      credential: till.credential,
      body: '{"app_version":"1.0","backlog":0,"backlog":1}',
    });
    refused(answer, 'parameter_duplicate', 'backlog');
  });

  it('answers 400 for a body over the limit, and a push may weigh more than other calls', async () => {
    const big = JSON.stringify({
      app_version: '1.0',
      backlog: 0,
      pad: 'x'.repeat(server.config.MAX_BODY_BYTES),
    });
    refused(
      await call(server.url, 'sync.report', { credential: till.credential, body: big }),
      'body_too_large',
    );
    const heavy = Array.from({ length: 40 }, () =>
      sale(till, {
        metadata: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'x'.repeat(300)])),
      }),
    );
    expect(JSON.stringify({ commands: heavy }).length).toBeGreaterThan(server.config.MAX_BODY_BYTES);
    expect((await push(till, heavy)).every((result) => result.status === 'applied')).toBe(true);
  });

  it('refuses an unauthenticated call before reading its body, and closes the connection', async () => {
    const started = Date.now();
    const answer = await rawRequest(
      server.url,
      'POST /trpc/sync.push HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{"a":',
    );
    expect(answer.head).toMatch(/^HTTP\/1.1 401/);
    expect(answer.body).toContain('till_credential_invalid');
    expect(answer.closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    // Pairing, the one call without a credential, reads no more than the limit.
    const pairing = await rawRequest(
      server.url,
      'POST /trpc/sync.pair HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{"a":',
    );
    expect(pairing.head).toMatch(/^HTTP\/1.1 400/);
    expect(pairing.body).toContain('body_too_large');
  });

  it('cuts a slow body at the body timeout', async () => {
    const started = Date.now();
    const answer = await rawRequest(
      server.url,
      `POST /trpc/sync.report HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${till.credential}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"app_version":`,
    );
    expect(answer.head).toMatch(/^HTTP\/1.1 408/);
    expect(answer.body).toContain('request_timeout');
    expect(Date.now() - started).toBeLessThan(BODY_TIMEOUT_MS + 3_000);
  });
});

describe('a revoked till’s open stream', () => {
  it('is closed, saying so, by a revoke answered by another server process', async () => {
    // Two processes on one PostgreSQL database; on the embedded database, one process.
    const other = onPostgres ? await startTestServer() : server;
    try {
      const till = await pair();
      const params = new URLSearchParams({
        input: JSON.stringify({ lastEventId: null }),
        connectionParams: JSON.stringify({ credential: till.credential }),
      });
      const controller = new AbortController();
      const response = await fetch(`${other.url}/trpc/sync.changes?${params}`, { signal: controller.signal });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      let ended = false;
      const reading = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += decoder.decode(value);
        }
        ended = true;
      })().catch(() => undefined);
      try {
        await eventually(() => Promise.resolve(text.includes('event: connected')));
        expect((await api.delete(`/v1/tills/${till.id}`)).status).toBe(200);
        const revoked = Date.now();
        await eventually(() => Promise.resolve(ended), 5_000);
        expect(Date.now() - revoked).toBeLessThan(3_000);
        expect(text).toContain('till_revoked');
      } finally {
        controller.abort();
        await reading;
      }
    } finally {
      if (other !== server) await other.close();
    }
  });
});

/** Sends raw bytes and reads the answer until the server closes the connection (or 10 s pass). */
function rawRequest(base: string, request: string): Promise<{ head: string; body: string; closed: boolean }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      finish(false);
    }, 10_000);
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      const at = text.indexOf('\r\n\r\n');
      resolve({ head: text.slice(0, at), body: text.slice(at + 4), closed });
    };
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('end', () => finish(true));
    socket.on('error', reject);
  });
}
