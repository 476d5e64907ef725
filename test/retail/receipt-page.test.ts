import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Pino from 'pino';
import { newId, newReceiptToken, type Command, type PushResult } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { client, signUp, startTestServer } from '../support/server.ts';
import { makeProduct, paidPayment, type Api } from '../support/retail.ts';
import { makeTill } from '../support/tills.ts';

// The digital receipt at /receipt/{token}, over real HTTP: a till pairs and pushes its sale with the
// token it made, and a customer opens the page. The server's log lines are caught here, to show the
// token never reaches them.
const { logged } = vi.hoisted(() => ({ logged: [] as string[] }));
vi.mock('pino', async (importOriginal) => {
  const real = await importOriginal<typeof Pino>();
  const capture = (options: Parameters<typeof real.default>[0]) =>
    real.default(options, { write: (line: string) => void logged.push(line) });
  return { ...real, default: Object.assign(capture, real.default) };
});

let server: RunningServer;
let api: Api;
let till: { credential: string; prefix: string; publicUrl: string };
let soap: { id: string; price: number };
let receipts = 0;

async function trpc(procedure: string, body: unknown, credential?: string): Promise<any> {
  const response = await fetch(`${server.url}/trpc/${procedure}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(credential ? { authorization: `Bearer ${credential}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const answer: any = await response.json();
  expect(response.status, JSON.stringify(answer)).toBe(200);
  return answer.result.data;
}

const command = (type: Command['type'], payload: Record<string, unknown>): Command => ({
  id: `cmd_${newId('request').slice(-26).toUpperCase()}`,
  type,
  created_at: Date.now(),
  payload,
});

/** A till's sale, pushed as the till pushes it; its receipt token unless one is given. */
async function tillSale(payload: Record<string, unknown> = {}, token = newReceiptToken()) {
  const clientOrderId = `sale-${++receipts}-${token.slice(0, 6)}`;
  const sale = command('order.create', {
    client_order_id: clientOrderId,
    receipt_number: `${till.prefix}-${String(receipts).padStart(6, '0')}`,
    lines: [{ product: soap.id, quantity: 2 }],
    tenders: [{ method: 'cash', amount: 10_000 }],
    receipt_token: token,
    ...payload,
  });
  const { results } = (await trpc('sync.push', { commands: [sale] }, till.credential)) as PushResult;
  expect(results[0], JSON.stringify(results)).toMatchObject({ status: 'applied' });
  const applied = results[0]!;
  return { token, clientOrderId, order: applied.status === 'applied' ? String(applied.result.order) : '' };
}

async function open(token: string, query = '') {
  const response = await fetch(`${server.url}/receipt/${token}${query}`);
  return { status: response.status, headers: response.headers, html: await response.text() };
}

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'info', PUBLIC_URL: 'https://pay.example.co.tz' });
  const merchant = await signUp(server.url, { business_name: 'Duka la Mama Neema' });
  api = client(server.url, merchant.keys.secretTest);
  const store = await api.patch('/v1/retail/store', {
    name: 'Duka Kuu Kariakoo',
    address_lines: ['Mtaa wa Congo 12', 'Dar es Salaam'],
    tin: '123-456-789',
    receipt_footer: ['Karibu tena'],
  });
  expect(store.status, JSON.stringify(store.body)).toBe(200);
  soap = await makeProduct(api, { name: 'Sabuni ya Kipande', price: 2_360, track_stock: false });
  const made = await makeTill(api);
  const paired = await trpc('sync.pair', { code: made.pairing_code });
  till = { credential: paired.credential, prefix: paired.till.receipt_prefix, publicUrl: paired.public_url };
});
afterAll(() => server?.close());

describe('a receipt page found by its token', () => {
  it('tells the till the public address its links start with', () => {
    expect(till.publicUrl).toBe('https://pay.example.co.tz');
  });

  it('shows the store, number, local time, lines, discounts, VAT, total and tenders, in the store’s language', async () => {
    const payment = await paidPayment(api, 2_000);
    const { token } = await tillSale({
      sold_at: Date.UTC(2025, 10, 25, 11, 3) / 1000, // 14:03 in Dar es Salaam
      lines: [{ product: soap.id, quantity: 2, discount: { type: 'percent', basis_points: 1000 } }],
      tenders: [
        { method: 'mobile_money', payment: payment.id },
        { method: 'cash', amount: 5_000 },
      ],
    });
    const page = await open(token);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const { html } = page;
    expect(html).toContain('<html lang="sw">');
    expect(html).toContain('Duka Kuu Kariakoo');
    expect(html).toContain('Mtaa wa Congo 12');
    expect(html).toContain('TIN: 123-456-789');
    expect(html).toMatch(new RegExp(`Risiti <span id="number">${till.prefix}-\\d{6}</span>`));
    expect(html).toContain('Sabuni ya Kipande');
    expect(html).toContain('2 × TZS 2,360');
    expect(html).toContain('Punguzo 10%');
    expect(html).toContain('-TZS 472'); // 10% of 4,720
    expect(html).toContain('<strong id="total">TZS 4,248</strong>');
    expect(html).toMatch(/Kodi \(VAT\) 18%/);
    expect(html).toContain('Mixx by Yas'); // the network of 0700000001
    // The provider's reference (the sandbox's sbx_…), not our payment id.
    expect(html).toMatch(/Kumb\. sbx_[0-9a-z]+</);
    expect(html).not.toContain(payment.id);
    expect(html).toContain('Taslimu');
    expect(html).toContain('Chenji');
    expect(html).toContain('Karibu tena');
    expect(html).toContain('Tarehe 25/11/2025 · Saa 14:03 <abbr title="Saa za Afrika Mashariki">EAT</abbr>');
  });

  it('switches to English and back', async () => {
    const { token } = await tillSale();
    const english = await open(token, '?lang=en');
    expect(english.status).toBe(200);
    expect(english.html).toContain('<html lang="en">');
    expect(english.html).toContain('Receipt <span id="number">');
    expect(english.html).toContain('Cash');
    expect(english.html).toContain('Subtotal');
    expect(english.html).toContain(`href="/receipt/${token}?lang=sw" hreflang="sw">Kiswahili</a>`);
    const swahili = await open(token, '?lang=sw');
    expect(swahili.html).toContain('<html lang="sw">');
    expect(swahili.html).toContain(`href="/receipt/${token}?lang=en" hreflang="en">English</a>`);
  });

  it('opens in English by default for a store whose receipts are in English', async () => {
    const { token } = await tillSale();
    expect((await api.patch('/v1/retail/store', { receipt_language: 'en' })).status).toBe(200);
    try {
      expect((await open(token)).html).toContain('<html lang="en">');
    } finally {
      await api.patch('/v1/retail/store', { receipt_language: 'sw' });
    }
  });

  it('shows refunds made after the sale', async () => {
    const { token, clientOrderId } = await tillSale();
    const refund = command('order.refund', {
      client_order_id: clientOrderId,
      lines: [{ line: 0, quantity: 1 }],
    });
    const { results } = (await trpc('sync.push', { commands: [refund] }, till.credential)) as PushResult;
    expect(results[0]).toMatchObject({ status: 'applied' });
    const { html } = await open(token, '?lang=en');
    expect(html).toContain('Partly refunded');
    expect(html).toContain('id="refunds"');
    expect(html).toContain('-TZS 2,360');
  });

  it('escapes what the merchant typed: a product name is text, never markup', async () => {
    const odd = await makeProduct(api, {
      name: '<script>alert("x")</script> & <b>Chai</b>',
      price: 1_000,
      track_stock: false,
    });
    const { token } = await tillSale({
      lines: [{ product: odd.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 1_000 }],
    });
    const { html } = await open(token);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;Chai&lt;/b&gt;');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>Chai');
  });

  it('keeps a token’s first sale: a till that sends the token again does not take the page over', async () => {
    const first = await tillSale();
    const second = await tillSale({ tenders: [{ method: 'cash', amount: 20_000 }] }, first.token);
    expect(second.order).not.toBe(first.order);
    const { html } = await open(first.token);
    expect(html).toContain(`${till.prefix}-${String(receipts - 1).padStart(6, '0')}`);
  });
});

describe('a token the server does not know', () => {
  it('says the receipt is on its way (the till is offline), 404, in Swahili or English', async () => {
    const token = newReceiptToken();
    const swahili = await open(token);
    expect(swahili.status).toBe(404);
    expect(swahili.headers.get('content-type')).toMatch(/^text\/html/);
    expect(swahili.headers.get('cache-control')).toBe('no-store');
    expect(swahili.html).toContain('Risiti yako iko njiani');
    expect(swahili.html).toContain('nje ya mtandao');
    const english = await open(token, '?lang=en');
    expect(english.status).toBe(404);
    expect(english.html).toContain('Your receipt is on its way');
    expect(english.html).toContain('offline');
  });

  it('answers a token that could never be one with the same page', async () => {
    for (const token of ['x', '1234', `${'A'.repeat(21)}!`]) {
      const page = await open(encodeURIComponent(token));
      expect(page.status).toBe(404);
      expect(page.html).toContain('Risiti yako iko njiani');
    }
  });

  it('finds the sale once the till has pushed it', async () => {
    const token = newReceiptToken();
    expect((await open(token)).status).toBe(404);
    await tillSale({}, token);
    expect((await open(token)).status).toBe(200);
  });
});

describe('the token stays secret', () => {
  it('is stored only as its SHA-256', async () => {
    const { token, order } = await tillSale();
    const rows = await server.database.pool.query(`SELECT * FROM retail_receipt_links WHERE order_id = $1`, [
      order,
    ]);
    expect(rows.rows).toHaveLength(1);
    expect(JSON.stringify(rows.rows)).not.toContain(token);
    const hash = createHash('sha256').update(`receipt:${token}`).digest('hex');
    expect(rows.rows[0].token_hash).toBe(hash);
  });

  it('never reaches the request log or the server’s log, even when the page fails', async () => {
    const { token } = await tillSale();
    expect((await open(token)).status).toBe(200);
    const view = server.services.receipts.view.bind(server.services.receipts);
    server.services.receipts.view = () => Promise.reject(new Error('the database went away'));
    let failed;
    try {
      failed = await open(token);
    } finally {
      server.services.receipts.view = view;
    }
    expect(failed.status).toBe(500);
    await server.services.requestLogs.flush();
    const logs = await server.database.pool.query(`SELECT * FROM request_logs`);
    expect(JSON.stringify(logs.rows)).not.toContain(token);
    const failure = logged.find((line) => line.includes('request failed'));
    expect(failure).toContain('/receipt/:token');
    expect(logged.join('\n')).not.toContain(token);
  });
});

describe('rate limits', () => {
  // A server of its own, with a small quota: starting one takes a while on a busy machine.
  it('limits the page per client address, as the other public pages', { timeout: 120_000 }, async () => {
    const limited = await startTestServer({
      PUBLIC_RATE_LIMIT_MAX: '2',
      PUBLIC_RATE_LIMIT_WINDOW_SECONDS: '60',
    });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await fetch(`${limited.url}/receipt/${newReceiptToken()}`)).status);
      }
      expect(statuses).toEqual([404, 404, 429]);
    } finally {
      await limited.close();
    }
  });
});
