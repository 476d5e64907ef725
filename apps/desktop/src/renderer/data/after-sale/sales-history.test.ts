import { filter, firstValueFrom } from 'rxjs';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SalesFilter, SalesPage, TillStore } from '../api.ts';
import { openDatabase } from '../store/database.ts';
import type { TillDatabase } from '../store/database.ts';
import { SalesIndex } from './sales-index.ts';
import {
  makeCommand,
  makeEmployee,
  makePrinter,
  makeProduct,
  openTestTill,
  pulled,
  settle,
} from '../../../../test/till-data.ts';
import type { TestTill } from '../../../../test/till-data.ts';

let till: TestTill | null = null;
let db: TillDatabase | null = null;
afterEach(async () => {
  await till?.store.close();
  await db?.close();
  till = null;
  db = null;
});

const search = (store: TillStore, wanted: SalesFilter): Promise<SalesPage> =>
  firstValueFrom(store.searchSales(wanted));
const numbers = (page: SalesPage) => page.sales.map((sale) => sale.receiptNumber);

/** Sells one Sukari (3,500) `count` times at the clock's time: totals 3,500, 7,000, ... */
async function sell(t: TestTill, count: number) {
  for (let i = 0; i < count; i++) await t.store.addBarcode('6201234500017');
  return t.store.completeSale([{ method: 'cash', amount: 3_500 * count }]);
}

describe('the Sales list on the till', () => {
  it('finds sales by receipt number, amount and shop day, and reprints an older one', async () => {
    till = await openTestTill({
      products: [makeProduct()],
      employees: [await makeEmployee()],
      printers: [makePrinter()],
    });
    const { store, clock, bridge } = till;
    await pulled(till, 'printers');
    await settle(async () => expect(await store.findByBarcode('6201234500017')).not.toBeNull());
    await store.signIn('1234');
    await store.openShift(0);
    // 25 Nov 23:30 and 26 Nov 00:30 in Dar es Salaam (20:30 and 21:30 UTC on the 25th), then 26 Nov 10:00.
    clock.ms = Date.UTC(2026, 10, 25, 20, 30);
    const first = await sell(till, 1);
    clock.ms = Date.UTC(2026, 10, 25, 21, 30);
    await sell(till, 2);
    clock.ms = Date.UTC(2026, 10, 26, 7, 0);
    await sell(till, 1);

    expect(numbers(await search(store, { text: '', day: null }))).toEqual([
      'T01-000003',
      'T01-000002',
      'T01-000001',
    ]);
    for (const typed of ['1', '000001', 'T01-000001', 't01-1']) {
      expect(numbers(await search(store, { text: typed, day: null }))).toEqual(['T01-000001']);
    }
    expect(numbers(await search(store, { text: '3,500', day: null }))).toEqual(['T01-000003', 'T01-000001']);
    expect(numbers(await search(store, { text: '7000', day: null }))).toEqual(['T01-000002']);
    // Today by the till's clock begins at midnight in Dar es Salaam: 00:30 is today, 23:30 yesterday.
    expect(numbers(await search(store, { text: '', day: 'today' }))).toEqual(['T01-000003', 'T01-000002']);
    expect(numbers(await search(store, { text: '', day: 'yesterday' }))).toEqual(['T01-000001']);
    expect(numbers(await search(store, { text: '', day: '2026-11-25' }))).toEqual(['T01-000001']);
    expect(numbers(await search(store, { text: '3500', day: 'today' }))).toEqual(['T01-000003']);
    expect(await search(store, { text: 'sukari', day: null })).toEqual({ sales: [], count: 0 });

    // A sale opened from the list carries its lines, tenders and cashier.
    const [opened] = (await search(store, { text: '2', day: null })).sales;
    expect(opened).toMatchObject({ receiptNumber: 'T01-000002', cashierName: 'Asha', total: 7_000 });
    expect(opened!.receipt.lines).toMatchObject([{ description: 'Sukari 1kg', quantityMilli: 2_000 }]);
    expect(opened!.receipt.tenders).toHaveLength(1);

    // The oldest sale prints again, not the last one, marked as a copy in the receipt's language.
    await firstValueFrom(store.lastPrint$.pipe(filter((state) => state.status === 'printed')));
    const before = bridge.printed.length;
    await expect(store.reprintSale(first.sale.clientOrderId)).resolves.toEqual({
      ok: true,
      paperNearEnd: false,
    });
    expect(bridge.printed.slice(before)).toEqual([
      expect.objectContaining({ what: { ...first.sale.receipt, copyMark: 'NAKALA' }, openDrawer: false }),
    ]);
    await expect(store.reprintSale('no_such_sale')).rejects.toMatchObject({ code: 'nothing_to_reprint' });
    // Alt+R still reprints the last.
    await store.reprintLast();
    expect(bridge.printed.at(-1)?.what).toMatchObject({ receiptNumber: 'T01-000003' });
  });

  it('keeps a search up to date: a new sale that answers it, and a refund of one it shows', async () => {
    till = await openTestTill({
      products: [makeProduct()],
      employees: [
        await makeEmployee(),
        await makeEmployee({ id: 'emp_manager', name: 'Baraka', role: 'manager', pinCode: '987654' }),
      ],
    });
    const { store } = till;
    await settle(async () => expect(await store.findByBarcode('6201234500017')).not.toBeNull());
    await store.signIn('1234');
    await store.openShift(0);
    await sell(till, 1);
    const pages: SalesPage[] = [];
    const watching = store.searchSales({ text: '3500', day: null }).subscribe((page) => pages.push(page));
    try {
      await settle(() => expect(pages.at(-1)?.count).toBe(1));
      await sell(till, 2);
      const third = await sell(till, 1);
      await settle(() => expect(numbers(pages.at(-1)!)).toEqual(['T01-000003', 'T01-000001']));
      await store.refund({ clientOrderId: third.sale.clientOrderId, managerPin: '987654' });
      await settle(() => expect(pages.at(-1)!.sales.map((sale) => sale.refundedAmount)).toEqual([3_500, 0]));
    } finally {
      watching.unsubscribe();
    }
  });
});

describe('the sales index', () => {
  it('reads thousands of sales a page at a time, once, and answers keys from memory', async () => {
    db = await openDatabase({
      name: `sales${Math.random().toString(36).slice(2, 8)}`,
      storage: getRxStorageMemory(),
      multiInstance: false,
    });
    const start = Date.UTC(2026, 0, 1, 6, 0);
    const commands = Array.from({ length: 3_000 }, (_, at) => {
      const sequence = at + 1;
      return makeCommand({
        id: `cmd_${String(sequence).padStart(8, '0')}`,
        client_order_id: `sale_${sequence}`,
        created_at: start + at * 3_600_000,
        receipt_number: `T01-${String(sequence).padStart(6, '0')}`,
        sale: {
          total: 1_000 + (at % 7) * 500,
          currency: 'TZS',
          cash: 0,
          mobile_money: 0,
          card: 0,
          lines: [],
        },
      });
    });
    // A refund among them is not a sale.
    await db.commands.bulkInsert([
      ...commands,
      makeCommand({ id: 'cmd_refund', type: 'order.refund', receipt_number: null }),
    ]);
    const query = vi.spyOn(db.commands.storageInstance, 'query');
    const index = new SalesIndex(db.commands);
    const now = start + 3_000 * 3_600_000;

    const all = await index.find({ text: '', day: null }, 50, now);
    expect(all.count).toBe(3_000);
    expect(all.ids).toHaveLength(50);
    expect(all.ids[0]).toBe('cmd_00003000');
    // Pages of 500 through the [type, id] index, each stopped at its end.
    const pages = await Promise.all(query.mock.results.map((result) => result.value));
    expect(pages.map((page: { documents: unknown[] }) => page.documents.length)).toEqual([
      500, 500, 500, 500, 500, 500, 0,
    ]);
    const reads = query.mock.calls.length;

    expect((await index.find({ text: '1234', day: null }, 50, now)).ids[0]).toBe('cmd_00001234');
    const amount = await index.find({ text: '4,000', day: null }, 50, now);
    expect(amount.count).toBe(Math.floor(3_000 / 7));
    const day = await index.find({ text: '', day: '2026-01-02' }, 50, now);
    expect(day.count).toBe(24);
    // None of those read storage again.
    expect(query.mock.calls.length).toBe(reads);

    // A sale written now is found at once.
    await db.commands.insert(
      makeCommand({ id: 'cmd_00003001', client_order_id: 'sale_3001', receipt_number: 'T01-003001' }),
    );
    await settle(async () =>
      expect((await index.find({ text: '3001', day: null }, 50, now)).ids).toEqual(['cmd_00003001']),
    );
    index.stop();
  });
});
