/**
 * Cart edits shown before their write lands: a scanned line is on screen in
 * the next frame, not after an IndexedDB write, and the write follows at once.
 * The stored cart stays the truth, and what is sold:
 * - every edit has an id, and the stored cart keeps the ids of its last
 *   edits, so an edit shows on top of the stored cart until the stored cart
 *   has taken it (never twice, never lost from the screen meanwhile);
 * - an edit whose write failed (it did not price, its line was gone) is
 *   dropped, and the stored cart shows again;
 * - a written edit is dropped at the first stored cart seen after its write,
 *   even one that no longer lists it (cleared, parked or sold since);
 * - applying an edit the cart already lists changes nothing, so a write
 *   replayed after a reload (`edit-journal.ts`) never counts twice.
 */
import { BehaviorSubject } from 'rxjs';
import { TillRefusal } from '../api.ts';
import type { CartLine } from '../api.ts';
import type { Context } from '../store/context.ts';
import type { CartEdit, EditRecord } from './edit-journal.ts';
import type { StoredCart } from './order-mapping.ts';

/** The cart as stored: with the ids of the edits it took last. */
export type KeptCart = StoredCart & { edits?: string[] };

const EDITS_KEPT = 32;

interface Pending {
  id: string;
  apply: (cart: KeptCart) => KeptCart;
  /** How many stored carts had been seen when its write landed. */
  writtenAt: number | null;
}

export class PendingEdits {
  private pending: Pending[] = [];
  private seen = 0;
  private writes = new Set<Promise<unknown>>();
  /** Ticks when an edit starts or fails. */
  readonly changed$ = new BehaviorSubject<void>(undefined);

  /** An edit about to be written: `apply` makes it, and records its id in the cart. */
  start(id: string, change: (cart: KeptCart) => StoredCart): Pending {
    const entry: Pending = {
      id,
      apply: (cart) =>
        cart.edits?.includes(id)
          ? cart
          : { ...change(cart), edits: [...(cart.edits ?? []), id].slice(-EDITS_KEPT) },
      writtenAt: null,
    };
    this.pending.push(entry);
    this.changed$.next();
    return entry;
  }

  /** Keeps a write in flight until it settles: `settled()` waits for it. */
  track(write: Promise<unknown>): void {
    const kept = write.catch(() => undefined).finally(() => this.writes.delete(kept));
    this.writes.add(kept);
  }

  /** Every edit started so far has been written or refused. */
  async settled(): Promise<void> {
    while (this.writes.size > 0) await Promise.all([...this.writes]);
  }

  written(entry: Pending): void {
    entry.writtenAt = this.seen;
  }

  failed(entry: Pending): void {
    this.pending = this.pending.filter((one) => one !== entry);
    this.changed$.next();
  }

  /** Call for every stored cart, before `shown`. */
  stored(): void {
    this.seen += 1;
  }

  /** The stored cart with the edits it has not taken yet; `check` throws for a cart that does not price. */
  shown(stored: KeptCart, check: (cart: KeptCart) => void): KeptCart {
    this.pending = this.pending.filter(
      (one) => !stored.edits?.includes(one.id) && (one.writtenAt === null || one.writtenAt >= this.seen),
    );
    let cart = stored;
    for (const one of this.pending) {
      try {
        const next = one.apply(cart);
        check(next);
        cart = next;
      } catch {
        // Its write is refused the same way, and the screen says so then.
      }
    }
    return cart;
  }
}

let paint: Promise<void> | null = null;

/**
 * Resolves once the next frame has been drawn, or after 50 ms when none comes
 * (a hidden page draws no frames); at once where nothing draws (tests in
 * Node). Edits made before one frame share its promise, so their writes start
 * in the order the edits were made.
 */
export function afterPaint(): Promise<void> {
  if (typeof requestAnimationFrame !== 'function') return Promise.resolve();
  paint ??= new Promise<void>((resolve) => {
    const done = () => {
      paint = null;
      resolve();
    };
    const fallback = setTimeout(done, 50);
    // Animation frame callbacks run just before the frame is drawn; the task after it comes after.
    requestAnimationFrame(() => {
      clearTimeout(fallback);
      setTimeout(done, 0);
    });
  });
  return paint;
}

function lineOf(cart: StoredCart, key: string): CartLine {
  const line = cart.lines.find((candidate) => candidate.key === key);
  if (!line) throw new TillRefusal('not_found', 'That line is no longer in the cart');
  return line;
}

function replaceLine(cart: StoredCart, key: string, change: (line: CartLine) => CartLine): StoredCart {
  lineOf(cart, key);
  return { ...cart, lines: cart.lines.map((line) => (line.key === key ? change(line) : line)) };
}

/** The cart with one edit made; it makes the same cart each time (its ids are in the edit). */
export function applyEdit(cart: StoredCart, edit: CartEdit): StoredCart {
  switch (edit.kind) {
    case 'add': {
      const same = cart.lines.find(
        (line) =>
          line.item.unit === 'piece' &&
          line.item.productId === edit.item.productId &&
          line.item.variantId === edit.item.variantId &&
          line.discount === null &&
          line.priceOverride === null,
      );
      if (same && edit.item.unit === 'piece') {
        return replaceLine(cart, same.key, (line) => ({
          ...line,
          quantityMilli: line.quantityMilli + edit.quantityMilli,
        }));
      }
      const line: CartLine = {
        key: edit.key,
        item: edit.item,
        quantityMilli: edit.quantityMilli,
        discount: null,
        priceOverride: null,
      };
      return { ...cart, lines: [...cart.lines, line] };
    }
    case 'quantity':
      return replaceLine(cart, edit.key, (line) => ({ ...line, quantityMilli: edit.quantityMilli }));
    case 'remove':
      return { ...cart, lines: cart.lines.filter((line) => line.key !== edit.key) };
    case 'line_discount':
      return replaceLine(cart, edit.key, (line) => ({ ...line, discount: edit.discount }));
    case 'price_override':
      return replaceLine(cart, edit.key, (line) => ({ ...line, priceOverride: edit.override }));
    case 'order_discount':
      return { ...cart, orderDiscount: edit.discount, discountApprovedBy: edit.approvedBy };
    case 'customer':
      return { ...cart, customer: edit.customer };
  }
}

/** A recorded edit applied: a cart without a sale id takes the record's. */
export function applyRecord(cart: StoredCart, record: EditRecord): StoredCart {
  const changed = applyEdit(cart, record.edit);
  return changed.saleId === null ? { ...changed, saleId: record.saleId } : changed;
}

const byContext = new WeakMap<Context, PendingEdits>();

export function pendingEdits(ctx: Context): PendingEdits {
  let edits = byContext.get(ctx);
  if (!edits) {
    edits = new PendingEdits();
    byContext.set(ctx, edits);
  }
  return edits;
}
