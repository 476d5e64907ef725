/**
 * The pulled catalogue (products and variants) is stored a page at a time:
 * one record holds a pulled page of up to 1,000 documents, under a key made
 * of the page's checkpoint. A first sync of 100,000 products is then about
 * 100 IndexedDB writes, not 100,000 (each record costs IndexedDB a read and a
 * write, however small), and reading it back into memory after a reload is
 * 100 reads. The door's tickets are stored the same way, their pages among
 * the `records` under the kind `tickets` (`pageKind`): a first sync of 50,000
 * tickets is 50 records.
 *
 * Keys sort in the server's change order, so the pages are a log: read in
 * key order, a document's last copy is its current state (a later page holds
 * a newer version, or its deletion: `_deleted` is kept as the server sent it).
 * Copies a later page made stale stay until the pull compacts the log: when
 * the pages number more than twice as many as the last compaction (or the
 * first sync) left, plus `SLACK`, every current document is written again
 * into full pages, and the old pages removed, in one storage write.
 */
import type { BulkWriteRow, RxCollection, RxDocumentData, RxStorageWriteErrorConflict } from 'rxdb';
import type { Checkpoint, PullCollection } from '@tz/core';
import { KV } from '../store/kv.ts';
import type { Kv } from '../store/kv.ts';

/** A stored product or variant as the server sent it. */
export type Stored = Record<string, unknown> & { id: string };

/** One record of a log (the catalogue's, or the tickets' with their `kind`). */
export interface CataloguePage {
  id: string;
  kind?: 'tickets';
  items: Stored[];
}

export const PAGE_ITEMS = 1000;
/** Small pages (a live edit each) allowed beyond twice the compacted count before compacting. */
export const SLACK = 32;

/** Whether a pulled collection is the catalogue (products and variants). */
export const isCatalogue = (collection: PullCollection): collection is 'products' | 'variants' =>
  collection === 'products' || collection === 'variants';

/** Whether a pulled collection is stored as pages: the catalogue, and the door's tickets. */
export const isPaged = (collection: PullCollection): boolean =>
  isCatalogue(collection) || collection === 'tickets';

/**
 * What marks a log's pages where they share their RxDB collection: the
 * tickets' pages are `records` of the kind `tickets` (indexed by kind, then
 * key); the catalogue's have a collection each.
 */
export const pageKind = (kind: string): { kind?: 'tickets' } => (kind === 'tickets' ? { kind } : {});

/** A pulled page's key: its checkpoint, zero-padded so keys sort in the feed's order. */
export function pageKey(checkpoint: Checkpoint): string {
  return `${String(checkpoint.seq).padStart(16, '0')}:${checkpoint.id}`;
}

/**
 * The key of a compaction's `n`th page, given the last key it replaces: that
 * key's checkpoint, then the compaction's round and `n`. So it sorts after
 * every page it replaces (an earlier round's included) and before the next
 * pulled page (a later checkpoint), and keys do not grow round after round.
 */
export function compactedKey(last: string, n: number): string {
  const plus = last.indexOf('+');
  const round = plus < 0 ? 0 : Number(last.slice(plus + 1, plus + 7)) + 1;
  const pad = (value: number) => String(value).padStart(6, '0');
  return `${plus < 0 ? last : last.slice(0, plus)}+${pad(round)}${pad(n)}`;
}

/**
 * Writes records over whatever the collection holds under their ids: as new
 * (the storage reads each id once), and a record it already held again on
 * top of its stored state.
 */
export async function writeOver(
  target: RxCollection<Record<string, unknown>>,
  what: string,
  records: Array<Record<string, unknown>>,
  extra: Array<BulkWriteRow<Record<string, unknown>>> = [],
): Promise<void> {
  let rows: Array<BulkWriteRow<Record<string, unknown>>> = [
    ...records.map((record) => ({
      document: { ...record, _attachments: {} } as RxDocumentData<Record<string, unknown>>,
    })),
    ...extra,
  ];
  // A record the collection holds is refused with its stored state (409): write it on top of that.
  for (let attempt = 0; rows.length > 0; attempt++) {
    const { error } = await target.storageInstance.bulkWrite(rows, 'till-pull');
    const held = error.filter(
      (e): e is RxStorageWriteErrorConflict<Record<string, unknown>> => e.status === 409,
    );
    if (held.length < error.length || attempt === 3) {
      const failed = error.find((e) => e.status !== 409) ?? error[0]!;
      throw new Error(`Could not store pulled ${what} ${failed.documentId} (${failed.status})`);
    }
    rows = held.map((e) => ({ document: e.writeRow.document, previous: e.documentInDb }));
  }
}

/**
 * The pages of the log `kind` after the key `after` (up to `limit`), in key
 * order: plain data, past RxDB's document cache.
 */
export async function readPages(
  collection: RxCollection<Record<string, unknown>>,
  after: string,
  limit?: number,
  kind = '',
): Promise<Array<RxDocumentData<CataloguePage>>> {
  const query = collection
    .find({
      selector: { ...pageKind(kind), id: { $gt: after } },
      sort: [{ id: 'asc' }],
      ...(limit ? { limit } : {}),
    })
    .getPreparedQuery();
  return (await collection.storageInstance.query(query)).documents as unknown as Array<
    RxDocumentData<CataloguePage>
  >;
}

/** Pages by key, the removed left out. */
export async function pagesById(
  collection: RxCollection<Record<string, unknown>>,
  keys: string[],
): Promise<Map<string, CataloguePage>> {
  if (keys.length === 0) return new Map();
  const rows = (await collection.storageInstance.findDocumentsById(
    keys,
    false,
  )) as unknown as CataloguePage[];
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Rewrites the log `kind` as full pages when it has grown past its bound (see
 * the header). The first time it only notes the count: after a first sync the
 * log is already compact.
 */
export async function compactIfGrown(
  collection: RxCollection<Record<string, unknown>>,
  kind: string,
  kv: Kv,
  writes?: { beforeWrite(): Promise<void>; afterWrite(): void },
): Promise<boolean> {
  const count = await collection.count({ selector: pageKind(kind) }).exec();
  const compacted = await kv.get<number>(KV.cataloguePages(kind));
  if (compacted === null) {
    await kv.set(KV.cataloguePages(kind), count);
    return false;
  }
  if (count <= 2 * compacted + SLACK) return false;
  const old = await readPages(collection, '', undefined, kind);
  const current = new Map<string, Stored>();
  for (const page of old) for (const item of page.items) current.set(item.id, item);
  const items = [...current.values()];
  const pages: CataloguePage[] = [];
  for (let first = 0; first < items.length; first += PAGE_ITEMS)
    pages.push({
      id: compactedKey(old.at(-1)!.id, pages.length),
      ...pageKind(kind),
      items: items.slice(first, first + PAGE_ITEMS),
    });
  const removals = old.map((page) => ({ previous: page, document: { ...page, _deleted: true } }));
  await writes?.beforeWrite();
  try {
    await writeOver(
      collection,
      kind,
      pages as unknown as Array<Record<string, unknown>>,
      removals as unknown as Array<BulkWriteRow<Record<string, unknown>>>,
    );
  } finally {
    writes?.afterWrite();
  }
  await kv.set(KV.cataloguePages(kind), pages.length);
  return true;
}
