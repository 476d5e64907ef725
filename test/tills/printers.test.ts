import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import type { TillActor } from '../../apps/server/src/actor.ts';
import { client, signUp, startTestServer, type Merchant } from '../support/server.ts';
import { makeProduct, sell, type Api } from '../support/retail.ts';
import { inTransaction, makeTill, pairedTill, refusal } from '../support/tills.ts';

let server: RunningServer;
let merchant: Merchant;
let api: Api;
let till: { id: string };
let actor: TillActor;

beforeAll(async () => {
  server = await startTestServer();
  merchant = await signUp(server.url);
  api = client(server.url, merchant.keys.secretTest);
  ({ till, actor } = await pairedTill(server, api));
});
afterAll(() => server?.close());

async function makePrinter(overrides: Record<string, unknown> = {}) {
  const response = await api.post('/v1/printers', {
    till: till.id,
    name: 'Printa ya Kaunta',
    connection: 'tcp://192.168.1.50',
    ...overrides,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const eventsOf = async (id: string) =>
  (
    await server.database.pool.query(
      `SELECT type, data FROM events WHERE merchant_id = $1 AND data->'object'->>'id' = $2 ORDER BY seq`,
      [merchant.id, id],
    )
  ).rows;

describe('printers', () => {
  it('creates a printer with defaults and the connection in its one spelling', async () => {
    const printer = await makePrinter();
    expect(printer).toMatchObject({
      object: 'printer',
      till: till.id,
      connection: 'tcp://192.168.1.50:9100',
      paper_width: 80,
      command_set: 'epson',
      code_page: null,
      status: 'unknown',
      deleted: false,
    });
    expect(printer.id).toMatch(/^prn_/);
    const usb = await makePrinter({
      connection: 'usb://04B8:0202',
      paper_width: 58,
      command_set: 'star',
      code_page: 'PC858',
    });
    expect(usb).toMatchObject({
      connection: 'usb://04b8:0202',
      paper_width: 58,
      command_set: 'star',
      code_page: 'PC858',
    });
    expect((await makePrinter({ connection: 'usb' })).connection).toBe('usb');
  });

  it('updates, lists by till, and deletes softly', async () => {
    const printer = await makePrinter();
    const patched = await api.patch(`/v1/printers/${printer.id}`, {
      name: 'Jikoni',
      paper_width: 58,
      code_page: 'WPC1252',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Jikoni',
      paper_width: 58,
      code_page: 'WPC1252',
      connection: printer.connection,
    });
    const cleared = await api.patch(`/v1/printers/${printer.id}`, { code_page: null });
    expect(cleared.body.code_page).toBeNull();

    const list = await api.get(`/v1/printers?till=${till.id}&limit=100`);
    expect(list.body.data.map((entry: { id: string }) => entry.id)).toContain(printer.id);
    const deleted = await api.delete(`/v1/printers/${printer.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted).toBe(true);
    expect((await api.get(`/v1/printers/${printer.id}`)).body.deleted).toBe(true);
    const after = await api.get(`/v1/printers?till=${till.id}&limit=100`);
    expect(after.body.data.map((entry: { id: string }) => entry.id)).not.toContain(printer.id);
    const withDeleted = await api.get(`/v1/printers?till=${till.id}&include_deleted=true&limit=100`);
    expect(withDeleted.body.data.map((entry: { id: string }) => entry.id)).toContain(printer.id);
    expect((await api.patch(`/v1/printers/${printer.id}`, { name: 'X' })).status).toBe(400);
  });

  it('names the offending field of a bad printer', async () => {
    const revoked = await makeTill(api);
    await api.delete(`/v1/tills/${revoked.id}`);
    const base = { till: till.id, name: 'P', connection: 'tcp://10.0.0.5:9100' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ connection: 'lpt1' }, 'connection'],
      [{ connection: 'tcp://10.0.0.5/print' }, 'connection'],
      [{ connection: 'usb://04b8' }, 'connection'],
      [{ paper_width: 76 }, 'paper_width'],
      [{ command_set: 'zebra' }, 'command_set'],
      [{ code_page: 'CP1251' }, 'code_page'],
      [{ command_set: 'star', code_page: 'PC850' }, 'code_page'],
      [{ till: 'till_nope' }, 'till'],
      [{ till: revoked.id }, 'till'],
      [{ name: '' }, 'name'],
    ];
    for (const [change, field] of cases) {
      const response = await api.post('/v1/printers', { ...base, ...change });
      expect(response.status, JSON.stringify(change)).toBe(400);
      expect(Object.keys(response.body.details ?? {}), JSON.stringify(change)).toContain(field);
    }
    const printer = await makePrinter({ code_page: 'PC850' });
    const toStar = await api.patch(`/v1/printers/${printer.id}`, { command_set: 'star' });
    expect(toStar.status).toBe(400);
    expect(Object.keys(toStar.body.details)).toEqual(['code_page']);
  });

  it('refuses printers outside the shop’s network or off printer ports, with the field named', async () => {
    const refused: Array<[string, RegExp]> = [
      ['tcp://127.0.0.1:22', /not a printer port/],
      ['tcp://127.0.0.1:9100', /loopback/],
      ['tcp://localhost', /loopback/],
      ['tcp://2130706433:9100', /loopback/],
      ['tcp://169.254.169.254:80', /not a printer port/],
      ['tcp://169.254.169.254', /metadata/],
      ['tcp://metadata.google.internal', /metadata/],
      ['tcp://[fe80::1]:9100', /link-local/],
      ['tcp://10.0.0.5:8080', /not a printer port/],
    ];
    for (const [connection, why] of refused) {
      const response = await api.post('/v1/printers', { till: till.id, name: 'P', connection });
      expect(response.status, connection).toBe(400);
      expect(response.body, connection).toMatchObject({
        error: 'invalid_request_error',
        code: 'parameter_invalid',
        details: { connection: expect.stringMatching(why) },
      });
    }
    const printer = await makePrinter({ connection: 'tcp://duka-printer.local:9105' });
    expect(printer.connection).toBe('tcp://duka-printer.local:9105');
    const moved = await api.patch(`/v1/printers/${printer.id}`, { connection: 'tcp://127.0.0.1:22' });
    expect(moved.status).toBe(400);
    expect(Object.keys(moved.body.details)).toEqual(['connection']);
    expect((await api.get(`/v1/printers/${printer.id}`)).body.connection).toBe(
      'tcp://duka-printer.local:9105',
    );
  });

  it('takes a printer on this machine or another port only when the server’s settings allow it', async () => {
    const developer = await startTestServer({
      PRINTER_ALLOW_LOOPBACK: 'true',
      PRINTER_ALLOWED_PORTS: '40000-65535',
    });
    try {
      const own = await signUp(developer.url);
      const devApi = client(developer.url, own.keys.secretTest);
      const { till: devTill } = await pairedTill(developer, devApi);
      const post = (connection: string) =>
        devApi.post('/v1/printers', { till: devTill.id, name: 'V', connection });
      expect((await post('tcp://127.0.0.1:45123')).status).toBe(201);
      expect((await post('tcp://127.0.0.1:22')).status).toBe(400);
      expect((await post('tcp://169.254.169.254:45123')).status).toBe(400);
    } finally {
      await developer.close();
    }
  });

  it('shows the status its till last reported, only for the till’s own printers', async () => {
    const printer = await makePrinter();
    const other = await pairedTill(server, api);
    await server.services.tills.report(server.database.pool, other.actor, {
      app_version: '1.0.0',
      backlog: 0,
      printers: [{ printer: printer.id, status: 'paper_out' }],
    });
    expect((await api.get(`/v1/printers/${printer.id}`)).body.status).toBe('unknown');
    await server.services.tills.report(server.database.pool, actor, {
      app_version: '1.0.0',
      backlog: 0,
      printers: [{ printer: printer.id, status: 'paper_out' }],
    });
    const shown = (await api.get(`/v1/printers/${printer.id}`)).body;
    expect(shown.status).toBe('paper_out');
    expect(shown.status_since).toEqual(expect.any(Number));
  });
});

describe('print jobs', () => {
  it('prints an order’s stored receipt: pending, then printed when the till says so', async () => {
    const printer = await makePrinter();
    const product = await makeProduct(api, { price: 1_500 });
    const order = (
      await sell(api, {
        lines: [{ product: product.id, quantity: 2 }],
        tenders: [{ method: 'cash', amount: 3_000 }],
      })
    ).body;
    const created = await api.post('/v1/print', { printer: printer.id, order: order.id });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'print_job',
      printer: printer.id,
      till: till.id,
      order: order.id,
      text: null,
      status: 'pending',
      failure_reason: null,
    });
    expect(created.body.id).toMatch(/^pjob_/);
    // The job carries the very receipt stored with the order, for the till to render.
    const stored = await server.database.pool.query(
      `SELECT receipt::text AS receipt FROM print_jobs WHERE id = $1`,
      [created.body.id],
    );
    expect(JSON.parse(stored.rows[0].receipt)).toEqual(order.receipt);

    const printed = await inTransaction(server, async (tx) =>
      server.services.printJobs.recordResult(tx, actor, { print_job: created.body.id, status: 'printed' }),
    );
    expect(printed).toMatchObject({ status: 'printed', completed_at: expect.any(Number) });
    expect((await api.get(`/v1/print-jobs/${created.body.id}`)).body.status).toBe('printed');
    expect((await eventsOf(created.body.id)).map((event) => event.type)).toEqual([
      'print_job.created',
      'print_job.printed',
    ]);
    // The same report again changes nothing; a contradicting one is refused.
    await server.services.printJobs.recordResult(server.database.pool, actor, {
      print_job: created.body.id,
      status: 'printed',
    });
    expect(await eventsOf(created.body.id)).toHaveLength(2);
    const contradiction = await refusal(
      server.services.printJobs.recordResult(server.database.pool, actor, {
        print_job: created.body.id,
        status: 'failed',
        failure_reason: 'timeout',
      }),
    );
    expect(contradiction.code).toBe('state_transition_invalid');
  });

  it('records a failure with its reason and message', async () => {
    const printer = await makePrinter();
    const job = (await api.post('/v1/print', { printer: printer.id, text: 'Jaribio la printa' })).body;
    expect(job).toMatchObject({ status: 'pending', text: 'Jaribio la printa', order: null });
    await server.services.printJobs.recordResult(server.database.pool, actor, {
      print_job: job.id,
      status: 'failed',
      failure_reason: 'paper_out',
      message: 'Printer reports paper out',
    });
    const failed = (await api.get(`/v1/print-jobs/${job.id}`)).body;
    expect(failed).toMatchObject({
      status: 'failed',
      failure_reason: 'paper_out',
      failure_message: 'Printer reports paper out',
    });
    const events = await eventsOf(job.id);
    expect(events.map((event) => event.type)).toEqual(['print_job.created', 'print_job.failed']);
    expect(events[1].data.object.failure_reason).toBe('paper_out');
  });

  it('lets a till report only its own printers’ jobs', async () => {
    const printer = await makePrinter();
    const job = (await api.post('/v1/print', { printer: printer.id, text: 'x' })).body;
    const other = await pairedTill(server, api);
    const error = await refusal(
      server.services.printJobs.recordResult(server.database.pool, other.actor, {
        print_job: job.id,
        status: 'printed',
      }),
    );
    expect(error.code).toBe('resource_missing');
    expect((await api.get(`/v1/print-jobs/${job.id}`)).body.status).toBe('pending');
  });

  it('fails a job for a revoked till’s printer at once, and the jobs waiting when a till is revoked', async () => {
    const { till: doomed } = await pairedTill(server, api);
    const printer = await makePrinter({ till: doomed.id });
    const waiting = (await api.post('/v1/print', { printer: printer.id, text: 'kabla' })).body;
    await api.delete(`/v1/tills/${doomed.id}`);
    const before = (await api.get(`/v1/print-jobs/${waiting.id}`)).body;
    expect(before).toMatchObject({ status: 'failed', failure_reason: 'till_revoked' });
    const late = await api.post('/v1/print', { printer: printer.id, text: 'baada' });
    expect(late.status).toBe(201);
    expect(late.body).toMatchObject({ status: 'failed', failure_reason: 'till_revoked' });
    expect((await eventsOf(late.body.id)).map((event) => event.type)).toEqual([
      'print_job.created',
      'print_job.failed',
    ]);
  });

  it('fails the jobs waiting for a printer that is deleted', async () => {
    const printer = await makePrinter();
    const job = (await api.post('/v1/print', { printer: printer.id, text: 'x' })).body;
    await api.delete(`/v1/printers/${printer.id}`);
    expect((await api.get(`/v1/print-jobs/${job.id}`)).body).toMatchObject({
      status: 'failed',
      failure_reason: 'offline',
    });
    const refused = await api.post('/v1/print', { printer: printer.id, text: 'x' });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toHaveProperty('printer');
  });

  it('lists print jobs newest first, by printer and by status, only the caller’s', async () => {
    const printer = await makePrinter();
    const other = await makePrinter();
    const first = (await api.post('/v1/print', { printer: printer.id, text: 'a' })).body;
    const second = (await api.post('/v1/print', { printer: printer.id, text: 'b' })).body;
    const elsewhere = (await api.post('/v1/print', { printer: other.id, text: 'c' })).body;
    await api.delete(`/v1/printers/${other.id}`);
    const ids = async (query: string) =>
      ((await api.get(`/v1/print-jobs?${query}`)).body.data as Array<{ id: string }>).map((job) => job.id);
    expect(await ids(`printer=${printer.id}`)).toEqual([second.id, first.id]);
    expect(await ids(`printer=${other.id}&status=failed`)).toEqual([elsewhere.id]);
    expect(await ids(`printer=${printer.id}&status=failed`)).toEqual([]);
    expect((await ids('limit=100')).slice(0, 3)).toEqual([elsewhere.id, second.id, first.id]);
    const stranger = client(server.url, (await signUp(server.url)).keys.secretTest);
    expect((await stranger.get(`/v1/print-jobs?printer=${printer.id}`)).body.data).toEqual([]);
    const bad = await api.get('/v1/print-jobs?status=lost');
    expect(bad.status).toBe(400);
    expect(bad.body.details).toHaveProperty('status');
  });

  it('names the field of a bad print request', async () => {
    const printer = await makePrinter();
    const stranger = client(server.url, (await signUp(server.url)).keys.secretTest);
    const product = await makeProduct(stranger);
    const foreignOrder = (
      await sell(stranger, {
        lines: [{ product: product.id, quantity: 1 }],
        tenders: [{ method: 'cash', amount: 5_000 }],
      })
    ).body;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ printer: printer.id }, 'order'],
      [{ printer: printer.id, order: foreignOrder.id, text: 'x' }, 'order'],
      [{ printer: printer.id, order: foreignOrder.id }, 'order'],
      [{ printer: 'prn_nope', text: 'x' }, 'printer'],
      [{ printer: printer.id, text: '' }, 'text'],
    ];
    for (const [body, field] of cases) {
      const response = await api.post('/v1/print', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.body.details), JSON.stringify(body)).toContain(field);
    }
  });

  it('answers 404 for another merchant’s or the other mode’s printer and job', async () => {
    const printer = await makePrinter();
    const job = (await api.post('/v1/print', { printer: printer.id, text: 'x' })).body;
    const stranger = client(server.url, (await signUp(server.url)).keys.secretTest);
    const live = client(server.url, merchant.keys.secretLive);
    for (const other of [stranger, live]) {
      expect((await other.get(`/v1/printers/${printer.id}`)).status).toBe(404);
      expect((await other.patch(`/v1/printers/${printer.id}`, { name: 'X' })).status).toBe(404);
      expect((await other.delete(`/v1/printers/${printer.id}`)).status).toBe(404);
      expect((await other.get(`/v1/print-jobs/${job.id}`)).status).toBe(404);
      expect((await other.post('/v1/print', { printer: printer.id, text: 'x' })).status).toBe(400);
      expect(JSON.stringify((await other.get('/v1/printers')).body)).not.toContain(printer.id);
    }
  });
});
