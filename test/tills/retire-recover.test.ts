/**
 * Ending a till, through the tills' real door (`/trpc`) and the REST API:
 * retiring lets its backlog in and then stops it; a revoked till still reports
 * what it holds, and its signed export is imported once per command.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSource } from 'eventsource';
import { makeTillExport, newId, tillExportKey, type Command, type TillExportFile } from '@tz/core';
import { trpcTransport } from '../../apps/desktop/src/renderer/data/sync/transport.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { client, signUp, startTestServer } from '../support/server.ts';
import { makeProduct, type Api } from '../support/retail.ts';
import { makeTill } from '../support/tills.ts';

let server: RunningServer;
let api: Api;
let product: { id: string; price: number };

beforeAll(async () => {
  server = await startTestServer();
  const merchant = await signUp(server.url, { business_name: 'Duka la Mwisho' });
  api = client(server.url, merchant.keys.secretTest);
  product = await makeProduct(api, { price: 1500 });
});
afterAll(() => server?.close());

/** A till paired through the door, with the transport the till itself uses. */
async function pairedTill() {
  const created = await makeTill(api);
  let credential: string | null = null;
  const transport = trpcTransport({ serverUrl: server.url, credential: () => credential, EventSource });
  const paired = await transport.pair({ code: created.pairing_code });
  credential = paired.credential;
  return {
    id: paired.till.id,
    store: paired.till.store,
    prefix: paired.till.receipt_prefix,
    credential,
    transport,
  };
}

let receipts = 0;
function sale(till: { store: string; prefix: string }): Command {
  const receipt = `${till.prefix}-${String(++receipts).padStart(6, '0')}`;
  return {
    id: `cmd_${newId('request').slice(-26).toUpperCase()}`,
    type: 'order.create',
    created_at: Date.now(),
    payload: {
      client_order_id: `sale-${receipt}`,
      store: till.store,
      receipt_number: receipt,
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: product.price }],
    },
  };
}

async function exportOf(till: { id: string; credential: string }, commands: Command[]) {
  return makeTillExport(await tillExportKey(till.credential), {
    till: till.id,
    livemode: false,
    exported_at: Date.now(),
    commands,
  });
}

const failureCode = (promise: Promise<unknown>) =>
  promise.then(
    () => 'none',
    (error: { data?: { code?: string } }) => error.data?.code,
  );

async function ordersOfTill(tillId: string) {
  const rows = await server.database.pool.query<{ id: string; client_order_id: string; flags: string[] }>(
    `SELECT id, client_order_id, flags FROM retail_orders WHERE till_id = $1 ORDER BY client_order_id`,
    [tillId],
  );
  return rows.rows;
}

describe('retiring a till', () => {
  it('accepts the backlog it held, then stops it once it reports nothing left', async () => {
    const till = await pairedTill();
    const backlog = [sale(till), sale(till)];
    const retired = await api.post(`/v1/tills/${till.id}/retire`);
    expect(retired.status).toBe(200);
    expect(retired.body).toMatchObject({ status: 'retiring', finished_at: null });
    expect(retired.body.retired_at).toEqual(expect.any(Number));

    // Its next report tells it: sell nothing new, send what you hold.
    expect(await till.transport.report({ app_version: 't', backlog: 2 })).toEqual({ status: 'retiring' });
    const pushed = await till.transport.push({ commands: backlog });
    expect(pushed.results.map((r) => r.status)).toEqual(['applied', 'applied']);
    expect(await till.transport.report({ app_version: 't', backlog: 0 })).toEqual({ status: 'retired' });

    const after = (await api.get(`/v1/tills/${till.id}`)).body;
    expect(after).toMatchObject({ status: 'retired', backlog: 0 });
    expect(after.finished_at).toEqual(expect.any(Number));
    expect((await ordersOfTill(till.id)).map((o) => o.client_order_id)).toEqual(
      backlog.map((c) => (c.payload as { client_order_id: string }).client_order_id),
    );
    // Its credential has stopped: a new sale is refused for the whole call.
    expect(await failureCode(till.transport.push({ commands: [sale(till)] }))).toBe('till_retired');
    expect(await ordersOfTill(till.id)).toHaveLength(2);
    // Retiring again changes nothing; it cannot be paired again, but it can still be revoked.
    expect((await api.post(`/v1/tills/${till.id}/retire`)).body.status).toBe('retired');
    expect((await api.post(`/v1/tills/${till.id}/pairing-code`)).body.code).toBe('state_transition_invalid');
    expect((await api.delete(`/v1/tills/${till.id}`)).body.status).toBe('revoked');
    expect((await api.post(`/v1/tills/${till.id}/retire`)).body.code).toBe('state_transition_invalid');
  });

  it('retires a till never paired at once', async () => {
    const till = await makeTill(api);
    const retired = await api.post(`/v1/tills/${till.id}/retire`);
    expect(retired.body).toMatchObject({ status: 'retired' });
    expect(retired.body.finished_at).toEqual(expect.any(Number));
  });
});

describe('a revoked till', () => {
  it('still reports its backlog, and is told it was revoked', async () => {
    const till = await pairedTill();
    await api.delete(`/v1/tills/${till.id}`);
    expect(await failureCode(till.transport.report({ app_version: 't', backlog: 2 }))).toBe('till_revoked');
    expect((await api.get(`/v1/tills/${till.id}`)).body).toMatchObject({ status: 'revoked', backlog: 2 });
    expect(await failureCode(till.transport.push({ commands: [sale(till)] }))).toBe('till_revoked');
  });

  it('has its exported sales imported once each, flagged recovered, even one pushed before', async () => {
    const till = await pairedTill();
    const pushedBefore = sale(till);
    expect((await till.transport.push({ commands: [pushedBefore] })).results[0]!.status).toBe('applied');
    const stranded = [sale(till), sale(till)];
    await api.delete(`/v1/tills/${till.id}`);

    const file = await exportOf(till, [pushedBefore, ...stranded]);
    const first = await api.post(`/v1/tills/${till.id}/recover`, file);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      object: 'till_recovery',
      recovered: 2,
      already_applied: 1,
      refused: 0,
    });
    expect(first.body.results.map((r: { recovered: boolean }) => r.recovered)).toEqual([false, true, true]);

    const orders = await ordersOfTill(till.id);
    expect(orders).toHaveLength(3);
    expect(orders.map((o) => o.flags.includes('recovered'))).toEqual([false, true, true]);
    const recoveredEvents = await server.database.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM events WHERE type = 'order.recovered' AND data->'object'->>'id' = ANY ($1)`,
      [orders.map((o) => o.id)],
    );
    expect(Number(recoveredEvents.rows[0]!.n)).toBe(2);

    // The same file again changes nothing.
    const again = await api.post(`/v1/tills/${till.id}/recover`, file);
    expect(again.body).toMatchObject({ recovered: 0, already_applied: 3 });
    expect(await ordersOfTill(till.id)).toHaveLength(3);
    const order = (await api.get(`/v1/orders/${orders[1]!.id}`)).body;
    expect(order.flags).toContain('recovered');
  });

  it('refuses an export altered, signed with another key, or of another till', async () => {
    const till = await pairedTill();
    const other = await pairedTill();
    const commands = [sale(till)];
    await api.delete(`/v1/tills/${till.id}`);
    const file = await exportOf(till, commands);

    const altered: TillExportFile = {
      ...file,
      body: file.body.replace(`"amount":${product.price}`, '"amount":1'),
    };
    expect(altered.body).not.toBe(file.body);
    const forged = await exportOf({ id: till.id, credential: other.credential }, commands);
    const foreign = await exportOf(other, [sale(other)]);
    for (const bad of [altered, forged, { ...foreign, till: till.id }]) {
      const response = await api.post(`/v1/tills/${till.id}/recover`, bad);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: 'invalid_request_error', code: 'till_export_invalid' });
    }
    expect((await api.post(`/v1/tills/${till.id}/recover`, foreign)).body.code).toBe('till_export_invalid');
    // A paired till sends its own.
    expect((await api.post(`/v1/tills/${other.id}/recover`, foreign)).body.code).toBe(
      'state_transition_invalid',
    );
    expect(await ordersOfTill(till.id)).toHaveLength(0);
  });
});
