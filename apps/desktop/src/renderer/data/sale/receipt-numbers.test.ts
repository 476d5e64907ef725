import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import type { TillStore } from '../api.ts';
import type { Context } from '../store/context.ts';
import { openDatabase } from '../store/database.ts';
import type { TillDatabase } from '../store/database.ts';
import { Kv } from '../store/kv.ts';
import { lastUsedSequence, nextReceiptNumber, numberUsed, receiptCounterKey } from './receipt-numbers.ts';
import { saleLock } from './sale-lock.ts';
import {
  makeCommand,
  makeEmployee,
  makeProduct,
  openTestTill,
  reopenTestTill,
  settle,
} from '../../../../test/till-data.ts';

const BARCODE = '6201234500017';
const open: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const item of open.reverse()) await item.close();
  open.length = 0;
});

async function sell(store: TillStore): Promise<string> {
  await store.addBarcode(BARCODE);
  const { sale } = await store.completeSale([{ method: 'cash', amount: 3500 }]);
  return sale.receiptNumber;
}

/** A paired till with a cashier and a shift, and how to open it again on the same storage (a reload). */
async function till() {
  const storage = getRxStorageMemory();
  const name = `numbers${Math.random().toString(36).slice(2, 8)}`;
  const seed = { products: [makeProduct()], employees: [await makeEmployee()] };
  const start = async (first: boolean) => {
    const store = first
      ? (await openTestTill(seed, { storage, name })).store
      : (await reopenTestTill(seed, { storage, name })).store;
    await settle(async () => expect(await store.findByBarcode(BARCODE)).not.toBeNull());
    await store.signIn('1234');
    if (first) await store.openShift(10_000);
    return store;
  };
  /** The database itself, as a crashed tab left it; the till must be closed. */
  const raw = async () => openDatabase({ name, storage, multiInstance: false });
  return { start, raw };
}

describe('receipt numbers', () => {
  it('go on from the last sale after a reload', async () => {
    const t = await till();
    const first = await t.start(true);
    expect([await sell(first), await sell(first)]).toEqual(['T01-000001', 'T01-000002']);
    await first.close();
    const second = await t.start(false);
    open.push(second);
    expect(await sell(second)).toBe('T01-000003');
  });

  it('are neither repeated nor skipped when the till died between a sale and its counter write', async () => {
    const t = await till();
    const first = await t.start(true);
    await sell(first);
    await sell(first);
    await first.close();
    // The counter as it was before the last sale: its write after the sale never happened.
    const db = await t.raw();
    await db.kv.upsert({ id: receiptCounterKey('T01'), value: 1 });
    await db.close();
    const second = await t.start(false);
    open.push(second);
    expect(await sell(second)).toBe('T01-000003');
  });

  it('never go back below a counter ahead of the sales (numbers an earlier version gave up)', async () => {
    const t = await till();
    const first = await t.start(true);
    await sell(first);
    await first.close();
    const db = await t.raw();
    await db.kv.upsert({ id: receiptCounterKey('T01'), value: 10 });
    await db.close();
    const second = await t.start(false);
    open.push(second);
    expect(await sell(second)).toBe('T01-000011');
  });
});

/** Two tabs of one till: two contexts, each with its own sale lock and memory, on one database. */
describe('receipt numbers across two tabs sharing one database', () => {
  let seq = 0;
  async function shared() {
    const db = await openDatabase({
      name: `tabs${Math.random().toString(36).slice(2, 8)}`,
      storage: getRxStorageMemory(),
      multiInstance: false,
    });
    open.push(db);
    const tab = () => {
      const lock = saleLock();
      open.push({ close: () => Promise.resolve(lock.close()) });
      return { ctx: { db, kv: new Kv(db.kv) } as unknown as Context, lock };
    };
    return { db, tab };
  }

  /** One sale as `completeSale` makes it: take a number under the lock, write the command, then the counter. */
  async function sale(
    db: TillDatabase,
    { ctx, lock }: { ctx: Context; lock: ReturnType<typeof saleLock> },
    options: { crashBeforeInsert?: boolean; crashAfterInsert?: boolean } = {},
  ): Promise<string | null> {
    return lock.run(async (turn) => {
      const receiptNumber = await nextReceiptNumber(ctx, 'T01', turn);
      if (options.crashBeforeInsert) return null;
      seq += 1;
      await db.commands.insert(
        makeCommand({
          id: `cmd_${String(seq).padStart(8, '0')}`,
          created_at: seq,
          payload: {},
          client_order_id: `sale_${seq}`,
          receipt_number: receiptNumber,
        }),
      );
      if (!options.crashAfterInsert) await numberUsed(ctx, receiptNumber, turn);
      return receiptNumber;
    });
  }

  it('alternating tabs never give one number twice or skip one', async () => {
    const { db, tab } = await shared();
    const a = tab();
    const b = tab();
    const numbers: Array<string | null> = [];
    for (const who of [a, a, b, a, b, b, a]) numbers.push(await sale(db, who));
    numbers.push(...(await Promise.all([sale(db, a), sale(db, b), sale(db, a), sale(db, b)])));
    expect(numbers).toEqual(Array.from({ length: 11 }, (_, i) => `T01-${String(i + 1).padStart(6, '0')}`));
  });

  it('a crash before the write uses no number; a crash after it leaves the number on its sale', async () => {
    const { db, tab } = await shared();
    const a = tab();
    expect(await sale(db, a)).toBe('T01-000001');
    expect(await sale(db, a, { crashBeforeInsert: true })).toBeNull();
    // The tab that died is gone with its memory and its lock; another takes the next number.
    const b = tab();
    expect(await sale(db, b)).toBe('T01-000002');
    expect(await sale(db, b, { crashAfterInsert: true })).toBe('T01-000003');
    expect(await lastUsedSequence(b.ctx, 'T01')).toBe(3);
    expect((await db.kv.findOne(receiptCounterKey('T01')).exec())?.value).toBe(2);
    const c = tab();
    expect(await sale(db, c)).toBe('T01-000004');
    expect(await sale(db, a)).toBe('T01-000005');
  });
});
