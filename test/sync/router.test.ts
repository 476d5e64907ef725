import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTRPCUntypedClient,
  httpLink,
  httpSubscriptionLink,
  splitLink,
  TRPCClientError,
} from '@trpc/client';
import { EventSource } from 'eventsource';
import {
  newId,
  type ChangeHint,
  type Command,
  type PullDocument,
  type PullResult,
  type PushResult,
} from '@tz/core';
import { client, eventually, signUp, startTestServer } from '../support/server.ts';
import { makeProduct, type Api } from '../support/retail.ts';
import { makeTill, pullUntil } from '../support/tills.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';

let server: RunningServer;
let api: Api;
let product: { id: string; price: number; barcodes: string[] };

function tillClient(credential: string | null) {
  const url = `${server.url}/trpc`;
  return createTRPCUntypedClient({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({
          url,
          // Node 20 has no EventSource of its own; browsers do.
          EventSource,
          connectionParams: () => ({ credential: credential ?? '' }),
        }),
        false: httpLink({
          url,
          headers: () => (credential ? { authorization: `Bearer ${credential}` } : {}),
        }),
      }),
    ],
  });
}

async function pairedClient() {
  const till = await makeTill(api);
  const paired = (await tillClient(null).mutation('sync.pair', { code: till.pairing_code })) as {
    credential: string;
    till: { id: string; store: string; receipt_prefix: string };
  };
  return { till: paired.till, credential: paired.credential, trpc: tillClient(paired.credential) };
}

const commandId = () => `cmd_${newId('request').slice(-26).toUpperCase()}`;

function saleCommand(store: string, receipt: string, overrides: Record<string, unknown> = {}): Command {
  return {
    id: commandId(),
    type: 'order.create',
    created_at: Date.now(),
    payload: {
      client_order_id: `sale-${receipt}`,
      store,
      receipt_number: receipt,
      lines: [{ product: product.id, quantity: 2 }],
      tenders: [{ method: 'cash', amount: product.price * 2 }],
      ...overrides,
    },
  };
}

beforeAll(async () => {
  server = await startTestServer();
  const merchant = await signUp(server.url, { business_name: 'Duka la Sync' });
  api = client(server.url, merchant.keys.secretTest);
  await api.patch('/v1/retail/store', { name: 'Duka Kuu' });
  product = await makeProduct(api, { price: 1500 });
});
afterAll(() => server?.close());

describe('the tills’ tRPC door', () => {
  it('pairs once with the code, then pulls the catalogue from the change feed in pages', async () => {
    const { trpc } = await pairedClient();
    const products = (checkpoint: PullResult['checkpoint'], limit: number) =>
      trpc.query('sync.pull', { collection: 'products', checkpoint, limit }) as Promise<
        PullResult<'products'>
      >;
    // The feed may hold rows back a moment while other transactions are open (support/tills.ts).
    const first = await eventually(async () => {
      const page = await products(null, 1);
      return page.documents.length > 0 && page;
    });
    expect(first.documents).toHaveLength(1);
    expect(first.documents[0]).toMatchObject({ _deleted: false });
    const rest = await pullUntil<PullDocument<'products'>>(
      (checkpoint) => products(checkpoint, 1000),
      (docs) => [...first.documents, ...docs].some((doc) => doc.id === product.id),
      { checkpoint: first.checkpoint },
    );
    const ids = [...first.documents, ...rest].map((doc) => doc.id);
    expect(ids).toContain(product.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('refuses a second exchange of a pairing code and a call without a credential', async () => {
    const till = await makeTill(api);
    await tillClient(null).mutation('sync.pair', { code: till.pairing_code });
    const again = await tillClient(null)
      .mutation('sync.pair', { code: till.pairing_code })
      .catch((error: unknown) => error);
    expect(again).toBeInstanceOf(TRPCClientError);
    expect((again as TRPCClientError<never>).data).toMatchObject({
      code: 'pairing_code_used',
      httpStatus: 400,
    });
    const anonymous = await tillClient(null)
      .query('sync.pull', { collection: 'products', checkpoint: null, limit: 10 })
      .catch((error: unknown) => error);
    expect((anonymous as TRPCClientError<never>).data).toMatchObject({ httpStatus: 401 });
  });

  it('applies a pushed sale once, however often it is pushed, and answers the stored outcome', async () => {
    const { till, trpc } = await pairedClient();
    const command = saleCommand(till.store, `${till.receipt_prefix}-000001`);
    const pushes = (await Promise.all([
      trpc.mutation('sync.push', { commands: [command] }),
      trpc.mutation('sync.push', { commands: [command] }),
    ])) as PushResult[];
    const later = (await trpc.mutation('sync.push', { commands: [command] })) as PushResult;
    const applied = [...pushes, later].flatMap((push) => push.results).filter((r) => r.status === 'applied');
    expect(applied.length).toBeGreaterThanOrEqual(2);
    const orderIds = new Set(
      applied.map((result) => (result.status === 'applied' ? result.result.order : null)),
    );
    expect(orderIds.size).toBe(1);
    const listed = await api.get(`/v1/orders?receipt_number=${till.receipt_prefix}-000001`);
    expect(listed.body.data).toHaveLength(1);
  });

  it('refuses a malformed command with its reason and still applies the next one', async () => {
    const { till, trpc } = await pairedClient();
    const bad: Command = {
      id: commandId(),
      type: 'order.create',
      created_at: Date.now(),
      payload: { lines: [] },
    };
    const good = saleCommand(till.store, `${till.receipt_prefix}-000002`);
    const push = (await trpc.mutation('sync.push', { commands: [bad, good] })) as PushResult;
    expect(push.results[0]).toMatchObject({
      id: bad.id,
      status: 'refused',
      error: { code: 'parameter_invalid' },
    });
    expect(push.results[1]).toMatchObject({ id: good.id, status: 'applied' });
  });

  it('records an offline sale at the price the till charged, flagged, and the till pulls the flag', async () => {
    const { till, trpc } = await pairedClient();
    const sale = saleCommand(till.store, `${till.receipt_prefix}-000004`, {
      lines: [{ product: product.id, quantity: 1, unit_price: 1000 }],
      tenders: [{ method: 'cash', amount: 1000 }],
    });
    const push = (await trpc.mutation('sync.push', { commands: [sale] })) as PushResult;
    expect(push.results[0]).toMatchObject({ status: 'applied' });
    const receipt = `${till.receipt_prefix}-000004`;
    const orders = await pullUntil<PullDocument<'orders'>>(
      (checkpoint) =>
        trpc.query('sync.pull', { collection: 'orders', checkpoint, limit: 1000 }) as Promise<PullResult>,
      (docs) => docs.some((doc) => doc.receipt_number === receipt),
    );
    const pulled = orders.find((doc) => doc.receipt_number === receipt);
    // Nothing was ever counted into stock, so the sale also took it below zero.
    expect(pulled).toMatchObject({ total: 1000, flags: ['price_changed', 'stock_short'] });
  });

  it('refunds and voids a sale by the till’s own id for it', async () => {
    const { till, trpc } = await pairedClient();
    const sale = saleCommand(till.store, `${till.receipt_prefix}-000003`);
    const refund: Command = {
      id: commandId(),
      type: 'order.refund',
      created_at: Date.now(),
      payload: { client_order_id: `sale-${till.receipt_prefix}-000003`, lines: [{ line: 0, quantity: 1 }] },
    };
    const push = (await trpc.mutation('sync.push', { commands: [sale, refund] })) as PushResult;
    expect(push.results.map((r) => r.status)).toEqual(['applied', 'applied']);
    expect(push.results[1]).toMatchObject({
      result: { status: 'partially_refunded', refunded_amount: 1500 },
    });
    const voided: Command = {
      id: commandId(),
      type: 'order.void',
      created_at: Date.now(),
      payload: { client_order_id: 'no-such-sale' },
    };
    const missing = (await trpc.mutation('sync.push', { commands: [voided] })) as PushResult;
    expect(missing.results[0]).toMatchObject({ status: 'refused', error: { code: 'resource_missing' } });
  });

  it('refuses a refund or void of another store’s sale, and leaves that sale as it was', async () => {
    const other = await api.post('/v1/retail/stores', { name: 'Duka la Kariakoo' });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const there = await pairedClient();
    const sold = await makeTill(api, { store: other.body.id });
    const away = (await tillClient(null).mutation('sync.pair', { code: sold.pairing_code })) as {
      credential: string;
      till: { store: string; receipt_prefix: string };
    };
    const sale = saleCommand(away.till.store, `${away.till.receipt_prefix}-000001`);
    const made = (await tillClient(away.credential).mutation('sync.push', {
      commands: [sale],
    })) as PushResult;
    expect(made.results[0]).toMatchObject({ status: 'applied' });
    const order = (made.results[0] as unknown as { result: { order: string } }).result.order;

    const refund: Command = {
      id: commandId(),
      type: 'order.refund',
      created_at: Date.now(),
      payload: { order },
    };
    const byClientId: Command = {
      id: commandId(),
      type: 'order.refund',
      created_at: Date.now(),
      payload: { client_order_id: `sale-${away.till.receipt_prefix}-000001` },
    };
    const voided: Command = {
      id: commandId(),
      type: 'order.void',
      created_at: Date.now(),
      payload: { order },
    };
    const push = (await there.trpc.mutation('sync.push', {
      commands: [refund, byClientId, voided],
    })) as PushResult;
    expect(push.results).toMatchObject([
      { id: refund.id, status: 'refused', error: { code: 'resource_missing' } },
      { id: byClientId.id, status: 'refused', error: { code: 'resource_missing' } },
      { id: voided.id, status: 'refused', error: { code: 'resource_missing' } },
    ]);
    // Pushed again, the refusal is the stored one: the till keeps it as refused.
    const again = (await there.trpc.mutation('sync.push', { commands: [voided] })) as PushResult;
    expect(again.results[0]).toMatchObject({ status: 'refused', error: { code: 'resource_missing' } });
    const after = await api.get(`/v1/orders/${order}`);
    expect(after.body).toMatchObject({ status: 'paid', refunded_amount: 0 });
    // The sale's own store refunds it.
    const own = (await tillClient(away.credential).mutation('sync.push', {
      commands: [{ ...refund, id: commandId() }],
    })) as PushResult;
    expect(own.results[0]).toMatchObject({ status: 'applied', result: { status: 'refunded' } });
  });

  it('tells an online till within 2 s that a product changed, and resumes after the last id it saw', async () => {
    const { trpc } = await pairedClient();
    const hints: Array<{ id: string; data: ChangeHint }> = [];
    const subscription = trpc.subscription(
      'sync.changes',
      { lastEventId: null },
      { onData: (event: unknown) => hints.push(event as { id: string; data: ChangeHint }) },
    );
    try {
      await eventually(() => Promise.resolve(hints.length > 0));
      const seen = hints.length;
      const started = Date.now();
      await api.patch(`/v1/retail/products/${product.id}`, { price: 1600 });
      await eventually(() =>
        Promise.resolve(hints.slice(seen).some((hint) => hint.data.collections.includes('products'))),
      );
      expect(Date.now() - started).toBeLessThan(2000);
      expect(Number(hints.at(-1)!.id)).toBeGreaterThan(Number(hints[seen - 1]!.id));
    } finally {
      subscription.unsubscribe();
    }
  });

  it('answers an unknown currency for mobile money with a 400, never a 500', async () => {
    const { trpc } = await pairedClient();
    const error = await trpc
      .mutation('sync.startPayment', { id: commandId(), amount: 1000, currency: 'XXX', phone: '0700000001' })
      .catch((thrown: unknown) => thrown);
    expect((error as TRPCClientError<never>).data).toMatchObject({
      code: 'parameter_invalid',
      httpStatus: 400,
    });
  });

  it('stops a revoked till, saying so', async () => {
    const { till, trpc } = await pairedClient();
    expect((await api.delete(`/v1/tills/${till.id}`)).status).toBe(200);
    const error = await trpc
      .query('sync.pull', { collection: 'products', checkpoint: null, limit: 10 })
      .catch((thrown: unknown) => thrown);
    expect((error as TRPCClientError<never>).data).toMatchObject({ code: 'till_revoked', httpStatus: 401 });
  });
});
