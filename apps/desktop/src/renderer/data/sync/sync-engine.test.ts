import { filter, firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { PUSH_BATCH_MAX } from '@tz/core';
import type { Command, CommandResult } from '@tz/core';
import type { TillStore } from '../api.ts';
import {
  TEST_TIMING,
  makeEmployee,
  makeProduct,
  openTestTill,
  revokedError,
  settle,
} from '../../../../test/till-data.ts';
import type { TestTill } from '../../../../test/till-data.ts';

let till: TestTill | null = null;
afterEach(async () => {
  await till?.store.close();
  till = null;
});

const down = () => {
  throw new TypeError('fetch failed');
};
const applied = (c: Command): CommandResult => ({ id: c.id, status: 'applied', result: { ok: true } });
const amountOf = (c: Command) => (c.payload as { amount?: number }).amount;
const status = (store: TillStore) => firstValueFrom(store.sync$);

async function signedInWithShift(t: TestTill) {
  await settle(async () => expect(await t.store.findByBarcode('6201234500017')).not.toBeNull());
  await t.store.signIn('1234');
  await t.store.openShift(0);
}

async function seeded() {
  const t = await openTestTill({ products: [makeProduct()], employees: [await makeEmployee()] });
  await signedInWithShift(t);
  return t;
}

describe('push', () => {
  it('sends pending commands in creation order, in batches of at most PUSH_BATCH_MAX', async () => {
    till = await seeded();
    const { store, transport } = till;
    transport.answer = down;
    for (let i = 1; i <= 250; i++) await store.cashMovement('pay_in', i, 'float top-up');
    transport.pushes = [];
    transport.answer = (commands) => commands.map(applied);
    await store.syncNow();

    const sent = transport.pushes.flat().filter((c) => c.type === 'shift.cash_movement');
    expect(sent.map(amountOf)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(Math.max(...transport.pushes.map((batch) => batch.length))).toBeLessThanOrEqual(PUSH_BATCH_MAX);
    expect(new Set(sent.map((c) => c.id)).size).toBe(250);
    expect((await status(store)).unsynced).toBe(0);
    expect(transport.reports.at(-1)).toEqual({ app_version: '0.1.0', backlog: 0 });
  });

  it('records applied and refused results and keeps a refusal with its reason', async () => {
    till = await seeded();
    const { store, transport } = till;
    transport.answer = down;
    await store.cashMovement('pay_in', 1, 'one');
    await store.cashMovement('pay_in', 2, 'two');
    transport.answer = (commands) =>
      commands.map((c) =>
        amountOf(c) === 2
          ? { id: c.id, status: 'refused', error: { code: 'parameter_invalid', message: 'shift is closed' } }
          : applied(c),
      );
    await store.syncNow();
    const after = await status(store);
    expect(after.unsynced).toBe(0);
    expect(after.refused).toEqual([
      expect.objectContaining({
        type: 'shift.cash_movement',
        refusal: { code: 'parameter_invalid', message: 'shift is closed' },
      }),
    ]);
    // A refusal is never dropped: later rounds leave it there.
    transport.answer = (commands) => commands.map(applied);
    await store.cashMovement('pay_out', 3, 'three');
    await store.syncNow();
    expect((await status(store)).refused).toHaveLength(1);
    expect(transport.pushes.flat().filter((c) => amountOf(c) === 2)).toHaveLength(1);

    // A manager saves it, with the server's reason, to a file; it stays on the till.
    const file = await store.exportRefused();
    expect(file.count).toBe(1);
    expect(file.filename).toMatch(/-refused-\d{8}-\d{4}\.json$/);
    const saved = JSON.parse(file.text) as { commands: Array<Record<string, unknown>> };
    expect(saved.commands).toEqual([
      expect.objectContaining({
        type: 'shift.cash_movement',
        payload: expect.objectContaining({ amount: 2, reason: 'two' }),
        error: { code: 'parameter_invalid', message: 'shift is closed' },
      }),
    ]);
    expect((await status(store)).refused).toHaveLength(1);
  });

  it('sends a command again when the server gave it no result, and stops the round there', async () => {
    till = await seeded();
    const { store, transport } = till;
    transport.answer = down;
    await store.cashMovement('pay_in', 1, 'one');
    await store.cashMovement('pay_in', 2, 'two');
    let busy = true;
    transport.answer = (commands) => commands.filter((c) => !(busy && amountOf(c) === 1)).map(applied);
    await store.syncNow();
    expect((await status(store)).unsynced).toBe(1);
    expect((await status(store)).connection).toBe('unreachable');
    busy = false;
    await store.syncNow();
    expect((await status(store)).unsynced).toBe(0);
    expect(transport.pushes.flat().filter((c) => amountOf(c) === 1).length).toBeGreaterThanOrEqual(2);
  });

  it('sends a command written during a push as soon as that push ends, not a round later', async () => {
    till = await seeded();
    const { store, transport } = till;
    await settle(async () => expect((await status(store)).unsynced).toBe(0));
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    transport.answer = async (commands) => {
      if (commands.some((c) => amountOf(c) === 1)) await held;
      return commands.map(applied);
    };
    await store.cashMovement('pay_in', 1, 'one');
    await settle(() => expect(transport.pushes.flat().some((c) => amountOf(c) === 1)).toBe(true));
    await store.cashMovement('pay_in', 2, 'two');
    // Asked to push while a push runs (as the new command's write asks): that push, then one more.
    const pushed = store.syncNow();
    release();
    await pushed;
    expect((await status(store)).unsynced).toBe(0);
    expect(transport.pushes.flat().filter((c) => amountOf(c) === 2)).toHaveLength(1);
  });

  it('retries by itself with backoff while the server is down, and says so', async () => {
    till = await seeded();
    const { store, transport } = till;
    let failures = 0;
    transport.answer = (commands) => {
      if (failures++ < 3) throw new TypeError('fetch failed');
      return commands.map(applied);
    };
    await store.addBarcode('6201234500017');
    await store.completeSale([{ method: 'cash', amount: 3500 }]);
    await settle(async () => expect((await status(store)).connection).toBe('unreachable'));
    const seen = await status(store);
    expect(seen.unsynced).toBeGreaterThan(0);
    expect(seen.lastError).toBe('fetch failed');
    const synced = await firstValueFrom(
      store.sync$.pipe(filter((s) => s.unsynced === 0 && s.connection === 'online')),
    );
    expect(synced.lastSyncAt).toBe(till.clock.ms);
    expect(failures).toBeGreaterThanOrEqual(4);
    expect((await firstValueFrom(store.sales$))[0]?.status).toBe('applied');
  });

  it('stops syncing when revoked, keeping every unsynced sale on the till', async () => {
    till = await seeded();
    const { store, transport } = till;
    transport.answer = () => {
      throw revokedError();
    };
    await store.addBarcode('6201234500017');
    await store.completeSale([{ method: 'cash', amount: 3500 }]);
    const revoked = await firstValueFrom(store.sync$.pipe(filter((s) => s.revoked)));
    expect(revoked.unsynced).toBe(2);
    expect((await firstValueFrom(store.pairing$)).status).toBe('revoked');
    expect((await firstValueFrom(store.sales$))[0]?.status).toBe('pending');
    const calls = transport.pushes.length;
    // Proving no push comes needs a wait past its retry delay (TEST_TIMING: at most 100 ms).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(transport.pushes.length).toBe(calls);
    await store.addBarcode('6201234500017');
    await expect(store.completeSale([{ method: 'cash', amount: 3500 }])).rejects.toMatchObject({
      code: 'till_revoked',
    });
  });

  it('treats a command refused as till_revoked as revoked, not as refused', async () => {
    till = await seeded();
    const { store, transport } = till;
    transport.answer = (commands) =>
      commands.map((c) => ({
        id: c.id,
        status: 'refused',
        error: { code: 'till_revoked', message: 'revoked' },
      }));
    await store.cashMovement('pay_in', 5, 'x');
    const revoked = await firstValueFrom(store.sync$.pipe(filter((s) => s.revoked)));
    expect(revoked.refused).toEqual([]);
    expect(revoked.unsynced).toBeGreaterThan(0);
  });
});

describe('pull', () => {
  it('pulls each collection from its checkpoint and again when the live stream names it', async () => {
    till = await seeded();
    const { store, transport } = till;
    expect(await store.search('suk')).toEqual([
      expect.objectContaining({ productId: 'prod_1', price: 3500 }),
    ]);
    transport.documents.products = [
      ...(transport.documents.products ?? []),
      makeProduct({ id: 'prod_2', name: 'Sukuma', barcodes: ['42'] }),
    ];
    transport.hint({ collections: ['products'] });
    await settle(async () => expect(await store.findByBarcode('42')).toMatchObject({ name: 'Sukuma' }));
    const productPulls = transport.pulls.filter((p) => p.collection === 'products');
    expect(productPulls[0]?.checkpoint).toBeNull();
    // The hint's pull starts after the last document already pulled.
    expect(productPulls.at(-1)?.checkpoint).toEqual({ seq: 1, id: 'prod_1' });
    expect((await store.search('SUK')).map((item) => item.productId)).toEqual(['prod_1', 'prod_2']);
  });
});

describe('status while idle', () => {
  const HEARTBEAT = { heartbeatMs: 50, maxHeartbeatMs: 200, heartbeatTimeoutMs: 400 };
  async function idleOnline() {
    const t = await openTestTill({ products: [makeProduct()] }, { timing: { ...TEST_TIMING, ...HEARTBEAT } });
    await settle(async () => expect((await status(t.store)).connection).toBe('online'));
    return t;
  }
  const troubled = (t: TestTill) => t.transport.handlers!.onError(new TypeError('network error'));
  const connection = async (t: TestTill) => (await status(t.store)).connection;

  it('says server unreachable soon after the live stream errs and the server does not answer', async () => {
    till = await idleOnline();
    const { transport } = till;
    const reports = transport.reports.length;
    transport.report = () => Promise.reject(new TypeError('fetch failed'));
    troubled(till);
    await settle(async () => expect(await connection(till!)).toBe('unreachable'));
    expect((await status(till.store)).lastError).toBe('fetch failed');

    // The server returns: with no sale to push and no stream, the next check finds it.
    transport.report = (input) => {
      transport.reports.push(input);
      return Promise.resolve({ status: 'paired' });
    };
    await settle(async () => expect(await connection(till!)).toBe('online'));
    expect(transport.reports.length).toBeGreaterThan(reports);
  });

  it('says server unreachable when the server stops answering at all (a silent stream)', async () => {
    till = await idleOnline();
    const silent: Array<() => void> = [];
    till.transport.report = () => new Promise((resolve) => silent.push(() => resolve({ status: 'paired' })));
    const at = Date.now();
    troubled(till);
    await settle(async () => expect(await connection(till!)).toBe('unreachable'));
    expect(Date.now() - at).toBeGreaterThanOrEqual(HEARTBEAT.heartbeatTimeoutMs - 20);
    for (const answer of silent) answer(); // lets the till close
  });

  it('raises no false alarm when the stream errs but a slow server still answers', async () => {
    till = await idleOnline();
    const { transport } = till;
    const seen: string[] = [];
    const watching = till.store.sync$.subscribe((s) => seen.push(s.connection));
    transport.report = (input) =>
      new Promise<void>((resolve) => setTimeout(resolve, HEARTBEAT.heartbeatTimeoutMs / 2)).then(() => {
        transport.reports.push(input);
        return { status: 'paired' as const };
      });
    const reports = transport.reports.length;
    troubled(till);
    await settle(() => expect(transport.reports.length).toBeGreaterThan(reports));
    // Proving no alarm follows the answer needs a moment after it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    watching.unsubscribe();
    expect(seen.filter((s) => s !== 'online')).toEqual([]);
  });
});
