/**
 * Stock left of what the cart holds, for its lines to show (docs/TILL.md,
 * "Stock on cart lines"): the pulled stock levels at this till's store of the
 * cart's tracked items, read when the cart's items change or a level does
 * (a sync, a sale on another till). Off the cart's own path: an edit shows
 * before its item's level is read.
 */
import { combineLatest, distinctUntilChanged, map, of, switchMap } from 'rxjs';
import type { Observable } from 'rxjs';
import type { PullDocument } from '@tz/core';
import { stockKey } from '../api.ts';
import type { Cart, CartStock } from '../api.ts';
import type { Context, Device } from '../store/context.ts';
import { KV } from '../store/kv.ts';

export function watchCartStock(ctx: Context, cart$: Observable<Cart>): Observable<CartStock> {
  const products$ = cart$.pipe(
    map((cart) =>
      [
        ...new Set(cart.lines.filter((line) => line.item.trackStock).map((line) => line.item.productId)),
      ].sort(),
    ),
    distinctUntilChanged((a, b) => a.join() === b.join()),
  );
  const store$ = ctx.kv.watch<Device>(KV.device).pipe(
    map((device) => device?.till.store ?? null),
    distinctUntilChanged(),
  );
  return combineLatest([products$, store$]).pipe(
    switchMap(([products, store]) =>
      products.length === 0 || store === null
        ? of([])
        : ctx.db.stock_levels.find({ selector: { store, product: { $in: products } } }).$,
    ),
    map((docs) => {
      const stock: CartStock = {};
      for (const doc of docs) {
        const level = doc.toJSON() as unknown as PullDocument<'stock_levels'>;
        stock[stockKey({ productId: level.product, variantId: level.variant })] = level.on_hand_milli;
      }
      return stock;
    }),
  );
}
