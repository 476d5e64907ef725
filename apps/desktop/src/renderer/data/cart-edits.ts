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
 *   even one that no longer lists it (cleared, parked or sold since).
 */
import { BehaviorSubject } from 'rxjs';
import type { Context } from './context.ts';
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
  /** Ticks when an edit starts or fails. */
  readonly changed$ = new BehaviorSubject<void>(undefined);

  /** An edit about to be written: `apply` makes it, and records its id in the cart. */
  start(id: string, change: (cart: KeptCart) => StoredCart): Pending {
    const entry: Pending = {
      id,
      apply: (cart) => ({ ...change(cart), edits: [...(cart.edits ?? []), id].slice(-EDITS_KEPT) }),
      writtenAt: null,
    };
    this.pending.push(entry);
    this.changed$.next();
    return entry;
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

const byContext = new WeakMap<Context, PendingEdits>();

export function pendingEdits(ctx: Context): PendingEdits {
  let edits = byContext.get(ctx);
  if (!edits) {
    edits = new PendingEdits();
    byContext.set(ctx, edits);
  }
  return edits;
}
