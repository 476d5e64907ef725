import type { Page } from 'playwright-core';

/**
 * What IndexedDB alone costs the first sync, in the till's page: `count` of the till's stored
 * product documents (copies of the first page's 1,000, new ids) written to a scratch database in
 * transactions of 1,000, each id read first as a write that may replace must (the least a store
 * of one record per product pays), and the same documents as one record per 1,000 (as the till
 * stores them).
 */
export async function indexedDbFloor(page: Page, productsDatabase: string, count: number) {
  return page.evaluate(
    async ({ productsDatabase, count }) => {
      const open = (name: string, create: boolean) =>
        new Promise<IDBDatabase>((resolve, reject) => {
          const request = indexedDB.open(name);
          request.onupgradeneeded = () => {
            if (create) request.result.createObjectStore('docs', { keyPath: 'id' });
          };
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error ?? new Error('IndexedDB did not open'));
        });
      const done = (tx: IDBTransaction) =>
        new Promise<void>((resolve, reject) => {
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error ?? new Error('IndexedDB failed'));
        });
      const source = await open(productsDatabase, false);
      // The first stored page's products (the till stores them 1,000 to a record).
      const sample = await new Promise<Array<Record<string, unknown>>>((resolve) => {
        const request = source.transaction('docs').objectStore('docs').getAll(null, 1);
        request.onsuccess = () =>
          resolve((request.result[0] as { items: Array<Record<string, unknown>> }).items);
      });
      source.close();
      const copy = (n: number) => ({
        ...sample[n % sample.length],
        id: `floor_${String(n).padStart(8, '0')}`,
      });
      const timed = async (write: (store: IDBObjectStore, first: number) => void) => {
        indexedDB.deleteDatabase('bench-sync-floor');
        const db = await open('bench-sync-floor', true);
        const started = performance.now();
        for (let first = 0; first < count; first += 1000) {
          const tx = db.transaction('docs', 'readwrite');
          write(tx.objectStore('docs'), first);
          await done(tx);
        }
        const ms = performance.now() - started;
        db.close();
        indexedDB.deleteDatabase('bench-sync-floor');
        return ms;
      };
      const records = await timed((store, first) => {
        for (let n = first; n < first + 1000; n++) store.get(`floor_${String(n).padStart(8, '0')}`);
        for (let n = first; n < first + 1000; n++) store.put(copy(n));
      });
      const pages = await timed((store, first) => {
        store.put({ id: `page_${first}`, docs: Array.from({ length: 1000 }, (_, i) => copy(first + i)) });
      });
      return { records, pages };
    },
    { productsDatabase, count },
  );
}
