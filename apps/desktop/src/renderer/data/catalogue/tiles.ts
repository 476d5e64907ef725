/**
 * The sale screen's product tiles (docs/TILL.md, "Tiles"): for goods without
 * a barcode (bread, loose sugar, airtime), the active products on shelves, the
 * Favourites first (by the product's `favourite_position`) and then one shelf
 * per category, each by name. Built from the catalogue in memory, never from
 * storage, and again soon after the catalogue or a category changes.
 */
import { auditTime, combineLatest, from, map, startWith, switchMap } from 'rxjs';
import type { Observable } from 'rxjs';
import type { PullDocument } from '@tz/core';
import type { CatalogueItem, TileShelf } from '../api.ts';
import { catalogueItem } from './catalogue-item.ts';
import type { Context } from '../store/context.ts';

type Product = PullDocument<'products'>;
type Category = Pick<PullDocument<'categories'>, 'id' | 'name'>;

/** A sync writes the catalogue a page at a time: shelves are rebuilt once the run of pages pauses. */
const REBUILD_AFTER_MS = 200;

/**
 * Names in the order a person expects ("Vocha 500" before "Vocha 1000", case and accents aside).
 * One collator for every comparison: `localeCompare` with options builds one per call, about 15
 * times slower over a large catalogue (bench/tiles.ts).
 */
const names = new Intl.Collator('sw', { sensitivity: 'base', numeric: true });
const byName = (a: { name: string }, b: { name: string }) => names.compare(a.name, b.name);

/**
 * The shelves of `products`: Favourites (when any product has a position),
 * then each category holding an active product, by name. A product whose
 * category the till does not know (deleted since) shows only among the
 * Favourites. An item says whether its product has variants: a tile then
 * offers them, as a search result does.
 */
export function tileShelves(
  products: Iterable<Product>,
  categories: readonly Category[],
  hasVariants: (product: string) => boolean,
): TileShelf[] {
  const favourites: Array<{ position: number; item: CatalogueItem }> = [];
  const byCategory = new Map<string, CatalogueItem[]>(categories.map((category) => [category.id, []]));
  for (const product of products) {
    if (!product.active) continue;
    const item = catalogueItem(product, null, null, hasVariants(product.id));
    const position = product.favourite_position;
    if (typeof position === 'number') favourites.push({ position, item });
    if (product.category !== null) byCategory.get(product.category)?.push(item);
  }
  const shelves: TileShelf[] = [];
  favourites.sort((a, b) => a.position - b.position || byName(a.item, b.item));
  if (favourites.length > 0)
    shelves.push({ key: 'favourites', name: null, items: favourites.map((entry) => entry.item) });
  for (const category of [...categories].sort(byName)) {
    const items = byCategory.get(category.id) ?? [];
    if (items.length > 0) shelves.push({ key: category.id, name: category.name, items: items.sort(byName) });
  }
  return shelves;
}

/** The shelves as they are now, again after each change to the catalogue or the categories. */
export function watchTiles(ctx: Context): Observable<TileShelf[]> {
  const categories$ = ctx.db.records
    .find({ selector: { kind: 'categories' } })
    .$.pipe(map((docs) => docs.map((doc) => doc.toJSON() as unknown as Category)));
  const catalogue$ = from(ctx.catalogue.ready()).pipe(
    switchMap(() => ctx.catalogue.changes$.pipe(startWith(undefined))),
  );
  return combineLatest([categories$, catalogue$]).pipe(
    auditTime(REBUILD_AFTER_MS),
    map(([categories]) =>
      tileShelves(
        ctx.catalogue.allProducts() ?? [],
        categories,
        (id) => ctx.catalogue.hasVariants(id) === true,
      ),
    ),
  );
}
