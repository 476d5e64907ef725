/**
 * The cart, kept in `kv` so a reload or crash mid-sale loses nothing, and
 * priced by core's `priceCart` on every change. Every edit is priced before it
 * is written, so a stored cart always prices.
 */
import { combineLatest, distinctUntilChanged, map, of, shareReplay, switchMap, tap } from 'rxjs';
import type { Observable } from 'rxjs';
import { itemCount, priceCart } from '@tz/core';
import type { Discount, StoreSettings } from '@tz/core';
import { TillRefusal } from '../api.ts';
import type { Cart, CatalogueItem, ParkedCart, ScanOutcome, TillCustomer, TillSettings } from '../api.ts';
import { scan, scanNow } from '../catalogue/catalogue.ts';
import type { Scanned } from '../catalogue/catalogue.ts';
import { labelQuantity } from '../catalogue/scale-labels.ts';
import { currentStore, sellingStore, withRefusals } from '../store/context.ts';
import type { Context, Device } from '../store/context.ts';
import { watchCustomer } from '../customers/customers.ts';
import { KV } from '../store/kv.ts';
import { EMPTY_CART, toCartInput } from './order-mapping.ts';
import type { StoredCart } from './order-mapping.ts';
import { approveByManager, requireCashier } from '../session/session.ts';
import { afterPaint, applyRecord, pendingEdits } from './cart-edits.ts';
import type { KeptCart } from './cart-edits.ts';
import type { CartEdit, EditRecord } from './edit-journal.ts';

export const DEFAULT_SETTINGS: TillSettings = {
  managerDiscountAboveBasisPoints: 1000,
  receiptPrinter: null,
  noSaleNeedsManager: false,
  tilesShown: true,
};

export async function settings(ctx: Context): Promise<TillSettings> {
  return { ...DEFAULT_SETTINGS, ...(await ctx.kv.get<Partial<TillSettings>>(KV.settings)) };
}

export async function loadCart(ctx: Context): Promise<StoredCart> {
  return (await ctx.kv.get<StoredCart>(KV.cart)) ?? EMPTY_CART;
}

/**
 * Applies an edit atomically; the edited cart must price or nothing is written.
 * In order, all before the first await: the edit is recorded in the journal
 * (`edit-journal.ts`, synchronous), shown (`cart-edits.ts`), then written.
 * Its record goes once the write has landed or been refused. `allowed`, when
 * given, is checked before the write: an edit it refuses leaves the screen.
 */
function edit(ctx: Context, change: CartEdit, allowed?: () => Promise<unknown>): Promise<void> {
  const record: EditRecord = { id: ctx.ids.local(), saleId: ctx.ids.clientOrder(), edit: change };
  ctx.journal.put(record);
  return write(ctx, record, allowed);
}

function write(ctx: Context, record: EditRecord, allowed?: () => Promise<unknown>): Promise<void> {
  const pending = pendingEdits(ctx);
  const entry = pending.start(record.id, (current) => applyRecord(current, record));
  const written = (async () => {
    try {
      // The edit is on screen and in the journal: its write waits for the frame that shows it.
      await afterPaint();
      await allowed?.();
      const store = await currentStore(ctx);
      await withRefusals(() =>
        ctx.kv.update<KeptCart>(KV.cart, EMPTY_CART, (current) => {
          const next = entry.apply(current);
          priceCart(toCartInput(next, store));
          return next;
        }),
      );
      pending.written(entry);
    } catch (error) {
      pending.failed(entry);
      throw error;
    } finally {
      ctx.journal.remove(record.id);
    }
  })();
  pending.track(written);
  return written;
}

/**
 * Opening the till: the edits a reload or crash cut off before their write
 * landed are written now, oldest first (they were on screen). One the cart
 * already took changes nothing; one that no longer applies is dropped.
 */
export async function replayEdits(ctx: Context): Promise<void> {
  // All started at once, in order (the cart's writes queue in call order), so a sale waiting for
  // pending edits never finds a gap between two of them.
  await Promise.all(ctx.journal.records().map((record) => write(ctx, record).catch(() => undefined)));
}

/**
 * The cart on screen. An edit shows in the same task it was made in: nothing
 * between the edit and the screen waits for storage (the attached customer is
 * read once when it changes, not at every edit).
 */
export function watchCart(ctx: Context): Observable<Cart> {
  const store$ = ctx.kv
    .watch<Device>(KV.device)
    .pipe(
      switchMap((device) =>
        (device ? ctx.db.stores.findOne(device.till.store).$ : of(null)).pipe(
          map((doc) => sellingStore(doc, device)),
        ),
      ),
    );
  const pending = pendingEdits(ctx);
  const stored$ = ctx.kv.watch<KeptCart>(KV.cart).pipe(
    map((cart) => cart ?? EMPTY_CART),
    tap(() => pending.stored()),
  );
  const shown$ = combineLatest([stored$, pending.changed$, store$]).pipe(
    map(([stored, , store]) => ({
      cart: pending.shown(stored, (next) => priceCart(toCartInput(next, store))),
      store,
    })),
    // Replayed, so the customer's pipeline below sees the cart that came before it subscribed.
    shareReplay({ bufferSize: 1, refCount: true }),
  );
  const customer$ = shown$.pipe(
    map(({ cart }) => cart.customer),
    distinctUntilChanged(),
    switchMap((id) =>
      // Paired with the id it is for: a till's id the server linked shows as the customer it names.
      id ? watchCustomer(ctx, id).pipe(map((customer) => ({ id, customer }))) : of({ id, customer: null }),
    ),
  );
  return combineLatest([shown$, customer$]).pipe(
    // Until a newly attached customer is read, the cart shows without one rather than waiting.
    map(([{ cart, store }, customer]) =>
      priced(cart, store, customer.id === cart.customer ? customer.customer : null),
    ),
    // One pipeline for every screen, so each stored cart is counted once.
    shareReplay({ bufferSize: 1, refCount: true }),
  );
}

function priced(cart: StoredCart, store: StoreSettings, customer: TillCustomer | null): Cart {
  try {
    return {
      lines: cart.lines,
      orderDiscount: cart.orderDiscount,
      customer,
      priced: priceCart(toCartInput(cart, store)),
    };
  } catch {
    // The store's currency or region changed under a stored cart: show it without the order discount.
    const plain = { ...cart, orderDiscount: null };
    return { lines: cart.lines, orderDiscount: null, customer, priced: priceCart(toCartInput(plain, store)) };
  }
}

/**
 * Adds an item, on screen before this returns: a scan answered from memory is
 * drawn in the frame after its Enter. Only a signed-in cashier sells; that is
 * checked before the write (the sale screen, where items are added, is only
 * open to one).
 */
export function addItem(ctx: Context, item: CatalogueItem, quantityMilli?: number): Promise<void> {
  if (item.hasVariants) {
    return Promise.reject(new TillRefusal('choose_variant', 'This product is sold by its variants'));
  }
  const change: CartEdit = { kind: 'add', item, quantityMilli: quantityMilli ?? 1000, key: ctx.ids.local() };
  return edit(ctx, change, () => requireCashier(ctx));
}

/**
 * Adds what a scanned code sells, at once when the catalogue is in memory: a scale label's
 * product with the quantity its weight or price gives, a piece by its own barcode. A product
 * with variants, or one sold by weight scanned by its own barcode, waits for the screen to ask.
 */
export function addBarcode(ctx: Context, code: string): Promise<ScanOutcome> {
  const add = (found: Scanned | null): Promise<ScanOutcome> => {
    if (!found) return Promise.resolve({ kind: 'not_found' });
    const { item, label } = found;
    if (item.hasVariants) return Promise.resolve({ kind: 'choose_variant', item });
    if (!label && item.unit !== 'piece') return Promise.resolve({ kind: 'weigh', item });
    const quantityMilli = label ? labelQuantity(label, item) : 1000;
    return addItem(ctx, item, quantityMilli).then(() => ({ kind: 'added', item, quantityMilli }));
  };
  try {
    const known = scanNow(ctx, code);
    return known === undefined ? scan(ctx, code).then(add) : add(known);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

export async function setQuantity(ctx: Context, key: string, quantityMilli: number): Promise<void> {
  await edit(ctx, { kind: 'quantity', key, quantityMilli });
}

export async function removeLine(ctx: Context, key: string): Promise<void> {
  await edit(ctx, { kind: 'remove', key });
}

export async function setLineDiscount(ctx: Context, key: string, discount: Discount | null): Promise<void> {
  await edit(ctx, { kind: 'line_discount', key, discount });
}

export async function setPriceOverride(
  ctx: Context,
  key: string,
  override: { unitPrice: number; reason: string } | null,
): Promise<void> {
  await edit(ctx, { kind: 'price_override', key, override });
}

/** A discount's size in basis points of what it discounts. */
function discountBasisPoints(discount: Discount, subtotal: number): number {
  if (discount.type === 'percent') return discount.basisPoints;
  return subtotal === 0 ? 10_000 : Math.ceil((discount.amount * 10_000) / subtotal);
}

export async function setOrderDiscount(
  ctx: Context,
  discount: Discount | null,
  managerPin?: string,
): Promise<void> {
  await requireCashier(ctx);
  let approvedBy: string | null = null;
  if (discount) {
    const store = await currentStore(ctx);
    const subtotal = await withRefusals(
      async () => priceCart(toCartInput(await loadCart(ctx), store)).subtotal,
    );
    const limit = (await settings(ctx)).managerDiscountAboveBasisPoints;
    if (discountBasisPoints(discount, subtotal) > limit)
      approvedBy = (await approveByManager(ctx, managerPin)).id;
  }
  await edit(ctx, { kind: 'order_discount', discount, approvedBy });
}

export async function setCustomer(ctx: Context, customer: string | null): Promise<void> {
  await edit(ctx, { kind: 'customer', customer });
}

/**
 * Takes the sold lines out of the cart. Anything scanned while the sale was
 * being completed stays, as the start of a new sale.
 */
export async function removeSold(ctx: Context, sold: StoredCart): Promise<void> {
  const soldQuantity = new Map(sold.lines.map((line) => [line.key, line.quantityMilli]));
  await ctx.kv.update<KeptCart>(KV.cart, EMPTY_CART, (current) => {
    if (current.saleId !== sold.saleId) return current;
    const lines = current.lines.flatMap((line) => {
      const left = line.quantityMilli - (soldQuantity.get(line.key) ?? 0);
      return left > 0 ? [{ ...line, quantityMilli: left }] : [];
    });
    // The edit ids stay: an edit replayed after this (a reload) is still known as taken.
    const edits = keptEdits(current);
    return lines.length === 0
      ? { ...EMPTY_CART, ...edits }
      : { ...EMPTY_CART, ...edits, saleId: ctx.ids.clientOrder(), lines };
  });
}

const keptEdits = (cart: KeptCart) => (cart.edits ? { edits: cart.edits } : {});

/** Replaces the whole cart, keeping the ids of the edits the cart took. */
async function replaceCart(ctx: Context, cart: StoredCart): Promise<void> {
  await ctx.kv.update<KeptCart>(KV.cart, EMPTY_CART, (current) => ({ ...cart, ...keptEdits(current) }));
}

export async function clearCart(ctx: Context): Promise<void> {
  await replaceCart(ctx, EMPTY_CART);
}

interface ParkedDoc extends Omit<ParkedCart, 'id' | 'itemCount'> {
  cart: StoredCart;
  /** Absent on carts parked before items were counted by unit. */
  itemCount?: number;
}

export async function park(ctx: Context, label?: string): Promise<void> {
  const cashier = await requireCashier(ctx);
  const cart = await loadCart(ctx);
  if (cart.lines.length === 0) throw new TillRefusal('cart_empty', 'There is nothing to park');
  const priced = priceCart(toCartInput(cart, await currentStore(ctx)));
  const parked: ParkedDoc = {
    cart,
    parkedAt: ctx.now(),
    cashier: cashier.name,
    label: label ?? '',
    total: priced.total,
    itemCount: itemCount(priced.lines),
  };
  await ctx.kv.set(KV.parked(ctx.ids.local()), parked);
  await clearCart(ctx);
}

export async function resume(ctx: Context, id: string): Promise<void> {
  const parked = await ctx.kv.get<ParkedDoc>(KV.parked(id));
  if (!parked) throw new TillRefusal('not_found', 'That parked sale was already resumed');
  if ((await loadCart(ctx)).lines.length > 0) await park(ctx);
  await replaceCart(ctx, parked.cart);
  await ctx.kv.remove(KV.parked(id));
}

export function watchParked(ctx: Context): Observable<ParkedCart[]> {
  return ctx.kv.watchPrefix<ParkedDoc>(KV.parked('')).pipe(
    map((docs) =>
      docs.map(({ id, value }) => ({
        id: id.slice(KV.parked('').length),
        parkedAt: value.parkedAt,
        cashier: value.cashier,
        label: value.label,
        total: value.total,
        itemCount: value.itemCount ?? value.cart.lines.length,
      })),
    ),
  );
}
