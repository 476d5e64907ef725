import { firstValueFrom } from 'rxjs';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import type { TillStore } from '../api.ts';
import { memoryJournal } from './edit-journal.ts';
import type { EditJournal, EditRecord } from './edit-journal.ts';
import {
  makeEmployee,
  makeProduct,
  openTestTill,
  reopenTestTill,
  settle,
} from '../../../../test/till-data.ts';

const BARCODE = '6201234500017';
let open: TillStore[] = [];
afterEach(async () => {
  for (const store of open) await store.close();
  open = [];
});

/** A paired till with a cashier and a shift, and how to open it again on the same storage and journal. */
async function tillWithJournal(journal: EditJournal) {
  const storage = getRxStorageMemory();
  const name = `journal${Math.random().toString(36).slice(2, 8)}`;
  const seed = { products: [makeProduct()], employees: [await makeEmployee()] };
  const first = await openTestTill(seed, { storage, name, editJournal: journal });
  open.push(first.store);
  await settle(async () => expect(await first.store.findByBarcode(BARCODE)).not.toBeNull());
  await first.store.signIn('1234');
  await first.store.openShift(10_000);
  const item = (await first.store.findByBarcode(BARCODE))!;
  const reopen = async () => {
    const { store } = await reopenTestTill(seed, { storage, name, editJournal: journal });
    open.push(store);
    return store;
  };
  return { store: first.store, item, reopen };
}

const lines = async (store: TillStore) =>
  (await firstValueFrom(store.cart$)).lines.map((line) => [line.item.name, line.quantityMilli]);

describe('cart edits kept across a reload', () => {
  it('records an edit before it shows and forgets it once written', async () => {
    const journal = memoryJournal();
    const { store } = await tillWithJournal(journal);
    // Whenever the line is on screen, it is either in the journal or in the stored cart.
    const recordedWhenShown: number[] = [];
    const watching = store.cart$.subscribe((cart) => {
      if (cart.lines.length > 0 && recordedWhenShown.length === 0)
        recordedWhenShown.push(journal.records().length);
    });
    await store.addBarcode(BARCODE);
    watching.unsubscribe();
    expect(recordedWhenShown).toEqual([1]);
    expect(journal.records()).toEqual([]);
    expect(await lines(store)).toEqual([['Sukari 1kg', 1000]]);
  });

  it('writes the edits the page showed but never wrote when the till opens again, and sells them', async () => {
    const journal = memoryJournal();
    const { store, item, reopen } = await tillWithJournal(journal);
    await store.close();
    open = [];
    // What a page that went right after showing a scan leaves: its record, and a cart without it.
    const record: EditRecord = {
      id: '01JDZZZZZZZZZZZZZZZZZZZZZ1',
      saleId: '01JDZZZZZZZZZZZZZZZZZZZZS1',
      edit: { kind: 'add', item, quantityMilli: 1000, key: 'line_1' },
    };
    journal.put(record);
    journal.put({
      ...record,
      id: '01JDZZZZZZZZZZZZZZZZZZZZZ3',
      edit: { kind: 'add', item, quantityMilli: 1000, key: 'line_3' },
    });
    const reopened = await reopen();
    // F9 at once: both replayed scans are written before the sale reads the cart.
    const { sale } = await reopened.payCashExact();
    expect(sale.total).toBe(2 * 3500);
    expect(journal.records()).toEqual([]);
  });

  it('never applies an edit twice: a record left after its write landed changes nothing', async () => {
    const journal = memoryJournal();
    const { store, item, reopen } = await tillWithJournal(journal);
    const record: EditRecord = {
      id: '01JDZZZZZZZZZZZZZZZZZZZZZ2',
      saleId: '01JDZZZZZZZZZZZZZZZZZZZZS2',
      edit: { kind: 'add', item, quantityMilli: 1000, key: 'line_2' },
    };
    journal.put(record);
    await store.close();
    open = [];
    const first = await reopen();
    await settle(async () => expect(await lines(first)).toEqual([['Sukari 1kg', 1000]]));
    await first.close();
    open = [];
    // The page went between the write landing and the record's removal: the same record again.
    journal.put(record);
    const second = await reopen();
    await settle(() => expect(journal.records()).toEqual([]));
    expect(await lines(second)).toEqual([['Sukari 1kg', 1000]]);
  });
});
