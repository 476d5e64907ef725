/**
 * Cart edits not yet written, kept where a reload cannot lose them. A scanned
 * line shows in the next frame, before its IndexedDB write lands (a write that
 * takes several ms, tens on a busy machine, more than a frame). So that what
 * is on screen is never lost, each edit is first recorded here synchronously
 * (`localStorage.setItem`, a fraction of a millisecond), then shown, then
 * written; its record goes once the write has landed or been refused. Opening
 * the till replays whatever records are left (`replayEdits` in `cart.ts`).
 *
 * Writing the edit before showing it was the other way: it would put an
 * IndexedDB round trip (p99 above a frame on its own) between the scan and the
 * screen. Replaying is safe because a write is idempotent: the stored cart
 * keeps the ids of its last edits and an edit it lists is never applied again.
 *
 * localStorage survives a reload and a renderer crash (the browser process
 * holds it), and is shared by the till's tabs; each record is its own key, so
 * two tabs never overwrite each other's.
 */
import type { Discount } from '@tz/core';
import type { CartLine, CatalogueItem } from '../api.ts';

/** A cart edit as data, so it can be kept and replayed. */
export type CartEdit =
  | { kind: 'add'; item: CatalogueItem; quantityMilli: number; key: string }
  | { kind: 'quantity'; key: string; quantityMilli: number }
  | { kind: 'remove'; key: string }
  | { kind: 'line_discount'; key: string; discount: Discount | null }
  | { kind: 'price_override'; key: string; override: CartLine['priceOverride'] }
  | { kind: 'order_discount'; discount: Discount | null; approvedBy: string | null }
  | { kind: 'customer'; customer: string | null };

export interface EditRecord {
  id: string;
  /** The sale id a cart without one takes at this edit (the same on a replay). */
  saleId: string;
  edit: CartEdit;
}

export interface EditJournal {
  put(record: EditRecord): void;
  remove(id: string): void;
  /** Every record left, oldest first (ids are ULIDs). */
  records(): EditRecord[];
}

export function localStorageJournal(storage: Storage, name: string): EditJournal {
  const prefix = `till.edit:${name}:`;
  return {
    put(record) {
      try {
        storage.setItem(prefix + record.id, JSON.stringify(record));
      } catch {
        // Storage full or blocked: the edit is still shown and written, only not kept until then.
      }
    },
    remove: (id) => storage.removeItem(prefix + id),
    records() {
      const found: EditRecord[] = [];
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i);
        if (!key?.startsWith(prefix)) continue;
        try {
          found.push(JSON.parse(storage.getItem(key) ?? '') as EditRecord);
        } catch {
          storage.removeItem(key); // Not ours to read: nothing on screen depended on it.
        }
      }
      return found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
  };
}

/** For tests and pages without localStorage; pass the same one to a reopened store to see a "reload". */
export function memoryJournal(): EditJournal {
  const kept = new Map<string, EditRecord>();
  return {
    put: (record) => void kept.set(record.id, structuredClone(record)),
    remove: (id) => void kept.delete(id),
    records: () => [...kept.values()].sort((a, b) => (a.id < b.id ? -1 : 1)),
  };
}

export function defaultJournal(name: string): EditJournal {
  try {
    if (typeof localStorage !== 'undefined') return localStorageJournal(localStorage, name);
  } catch {
    // Storage blocked by the browser: edits are still written, only not kept across a reload before then.
  }
  return memoryJournal();
}
