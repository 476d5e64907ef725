/**
 * A collection's stored documents a page at a time in id order, for reading
 * the catalogue into memory. On Dexie (the browser) a page is one IndexedDB
 * `getAll` over the primary key: RxDB's query walks a cursor with one callback
 * per document, which took about 10 s for 100,000 products on a loaded host.
 * Other storages (memory, in tests) answer through RxDB's query.
 */
import type { RxCollection } from 'rxdb';

export type Stored = Record<string, unknown> & { id: string };

/** The part of RxDB's Dexie storage state read here (`internals` of its storage instance). */
interface DexieState {
  dexieTable: {
    where(key: string): { above(key: string): { limit(n: number): { toArray(): Promise<Stored[]> } } };
  };
}

interface Instance {
  originalStorageInstance?: Instance;
  internals?: Promise<unknown>;
}

export interface Page {
  documents: Stored[];
  /** The id to read on from; null after the last page. */
  next: string | null;
}

export async function readPage(
  collection: RxCollection<Record<string, unknown>>,
  after: string,
  limit: number,
): Promise<Page> {
  const wrapped = collection.storageInstance as unknown as Instance;
  const internals = await (wrapped.originalStorageInstance ?? wrapped).internals;
  if (internals && typeof internals === 'object' && 'dexieTable' in internals) {
    const rows = await (internals as DexieState).dexieTable.where('id').above(after).limit(limit).toArray();
    // Dexie keeps `_deleted` as '1'/'0' (it is indexed); deleted rows still count for paging.
    return {
      documents: rows.filter((row) => row._deleted !== '1' && row._deleted !== true),
      next: rows.length < limit ? null : rows.at(-1)!.id,
    };
  }
  const query = collection
    .find({ selector: { id: { $gt: after } }, sort: [{ id: 'asc' }], limit })
    .getPreparedQuery();
  const documents = (await collection.storageInstance.query(query)).documents as unknown as Stored[];
  return { documents, next: documents.length < limit ? null : documents.at(-1)!.id };
}
