/**
 * How many documents a till holds in a pulled collection stored as pages
 * (`catalogue-pages.ts`: a record per page of 1,000), read straight from the
 * collection's IndexedDB database in the till's page: the distinct ids in
 * its pages (of the kind `tickets` among the `records`, when `kind` says so).
 * Waits until every document is there; the time it took is a first sync's.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { PULLED_SCHEMAS } from '../../apps/desktop/src/renderer/data/store/schema.ts';

/** RxDB's Dexie storage names a collection's database after its schema version. */
export const tillDatabase = (collection: 'products' | 'records') =>
  `rxdb-dexie-till--${PULLED_SCHEMAS[collection].version}--${collection}`;

export function countStored(page: Page, name: string, count: number, kind?: string): Promise<number> {
  return page.evaluate(
    ({ name, pages, kind }) =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open(name);
        open.onupgradeneeded = () => open.transaction?.abort(); // not made yet
        open.onerror = () => resolve(0);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('docs')) return (db.close(), resolve(0));
          const store = db.transaction('docs').objectStore('docs');
          const counted = store.count();
          counted.onsuccess = () => {
            if (counted.result < pages) return (db.close(), resolve(0));
            const all = store.getAll();
            all.onsuccess = () => {
              const ids = new Set<string>();
              type Record = { _deleted: unknown; kind?: string; items?: Array<{ id: string }> };
              for (const record of all.result as Record[])
                if (
                  record._deleted !== '1' &&
                  record._deleted !== true &&
                  (kind === null || record.kind === kind)
                )
                  for (const item of record.items ?? []) ids.add(item.id);
              db.close();
              resolve(ids.size);
            };
          };
        };
      }),
    { name, pages: Math.ceil(count / 1000), kind: kind ?? null },
  );
}

/** Polls every 200 ms until `count` documents are stored; throws past `limitMs`. */
export async function waitStored(
  page: Page,
  name: string,
  count: number,
  { kind, since, limitMs = 600_000 }: { kind?: string; since: number; limitMs?: number },
): Promise<void> {
  let stored = 0;
  while (stored < count) {
    if (performance.now() - since > limitMs) throw new Error(`sync stalled at ${stored} of ${count}`);
    await sleep(200);
    stored = await countStored(page, name, count, kind).catch(() => 0);
  }
}
