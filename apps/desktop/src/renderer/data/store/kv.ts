/**
 * Small documents the till keeps for itself in the `kv` collection: one
 * document per key, read and written whole, or changed atomically with
 * `update` (RxDB's incrementalModify reruns the change on the latest value
 * when two writers race, in this tab or another).
 */
import { map } from 'rxjs';
import type { Observable } from 'rxjs';
import type { RxCollection } from 'rxdb';
import type { KvDoc } from './schema.ts';

/** The keys, in one place. Parked carts and print attempts are `parked:<id>` and `print:<job>`. */
export const KV = {
  device: 'device',
  credential: 'credential',
  settings: 'settings',
  receiptCounter: 'counter:receipt',
  session: 'session',
  cart: 'cart',
  shift: 'shift',
  lastSale: 'last-sale',
  syncState: 'sync',
  /** An ended till's last export of its unsynced commands, to download again. */
  tillExport: 'till-export',
  lockout: (who: string) => `lockout:${who}`,
  parked: (id: string) => `parked:${id}`,
  printAttempt: (job: string) => `print:${job}`,
  payment: (id: string) => `payment:${id}`,
  /** Where the pull of a collection stopped. */
  pull: (collection: string) => `pull:${collection}`,
  /** How many pages of a paged log (products, variants, tickets) the last compaction left (`catalogue-pages.ts`). */
  cataloguePages: (kind: string) => `catalogue:pages:${kind}`,
} as const;

export class Kv {
  constructor(readonly collection: RxCollection<KvDoc>) {}

  async get<T>(id: string): Promise<T | null> {
    const doc = await this.collection.findOne(id).exec();
    return doc ? (doc.toJSON().value as T) : null;
  }

  watch<T>(id: string): Observable<T | null> {
    return this.collection
      .findOne(id)
      .$.pipe(map((doc) => (doc ? (structuredClone(doc.toJSON().value) as T) : null)));
  }

  async set(id: string, value: unknown): Promise<void> {
    await this.collection.upsert({ id, value });
  }

  async remove(id: string): Promise<void> {
    const doc = await this.collection.findOne(id).exec();
    if (doc) await doc.remove();
  }

  /** Changes a value atomically and returns what was written. */
  async update<T>(id: string, initial: T, change: (current: T) => T): Promise<T> {
    let doc = await this.collection.findOne(id).exec();
    if (!doc) {
      await this.claim(id, initial);
      doc = await this.collection.findOne(id).exec(true);
    }
    const written = await doc.incrementalModify((data) => {
      data.value = change(structuredClone(data.value) as T);
      return data;
    });
    return written.toJSON().value as T;
  }

  /** Inserts only when absent; false when the key already existed (an insert is atomic). */
  async claim(id: string, value: unknown): Promise<boolean> {
    try {
      await this.collection.insert({ id, value });
      return true;
    } catch (error) {
      if (isConflict(error)) return false;
      throw error;
    }
  }

  /** Keys starting with `prefix`, read through the primary index. */
  watchPrefix<T>(prefix: string): Observable<Array<{ id: string; value: T }>> {
    return this.collection
      .find({ selector: { id: { $gte: prefix, $lt: `${prefix}\uffff` } }, sort: [{ id: 'asc' }] })
      .$.pipe(map((docs) => docs.map((doc) => ({ id: doc.id, value: doc.toJSON().value as T }))));
  }
}

export function isConflict(error: unknown): boolean {
  const record = error as { code?: string; parameters?: { writeError?: { status?: number } } };
  return record.code === 'CONFLICT' || record.parameters?.writeError?.status === 409;
}
