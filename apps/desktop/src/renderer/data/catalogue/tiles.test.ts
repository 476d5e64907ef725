import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { PullDocument } from '@tz/core';
import type { TileShelf } from '../api.ts';
import {
  makeEmployee,
  makeProduct,
  openTestTill,
  settle,
  type TestTill,
} from '../../../../test/till-data.ts';
import { tileShelves } from './tiles.ts';

const category = (id: string, name: string): PullDocument<'categories'> => ({ id, _deleted: false, name });
const names = (shelves: TileShelf[]) =>
  shelves.map((shelf) => [shelf.name ?? '★', shelf.items.map((item) => item.name)]);

describe('the tiles’ shelves', () => {
  it('put the Favourites first by position, then each category by name, its products by name', () => {
    const products = [
      makeProduct({ id: 'p1', name: 'Mkate', category: 'c_food', favourite_position: 2 }),
      makeProduct({ id: 'p2', name: 'Maandazi', category: 'c_food', favourite_position: 1 }),
      makeProduct({ id: 'p3', name: 'Vocha Airtel 1000', category: 'c_air' }),
      makeProduct({ id: 'p4', name: 'Chapati', category: 'c_food' }),
      // Off sale: on no shelf.
      makeProduct({ id: 'p5', name: 'Kashata', category: 'c_food', favourite_position: 3, active: false }),
      // No category, or one the till does not know: only among the Favourites.
      makeProduct({ id: 'p6', name: 'Maji', category: null, favourite_position: 3 }),
      makeProduct({ id: 'p7', name: 'Soda', category: 'c_gone' }),
      // Numbers in names sort as numbers.
      makeProduct({ id: 'p8', name: 'Vocha Airtel 500', category: 'c_air' }),
    ];
    const shelves = tileShelves(
      products,
      [category('c_food', 'Chakula'), category('c_air', 'Muda wa maongezi'), category('c_none', 'Usafi')],
      (id) => id === 'p4',
    );
    expect(names(shelves)).toEqual([
      ['★', ['Maandazi', 'Mkate', 'Maji']],
      ['Chakula', ['Chapati', 'Maandazi', 'Mkate']],
      ['Muda wa maongezi', ['Vocha Airtel 500', 'Vocha Airtel 1000']],
    ]);
    expect(shelves.map((shelf) => shelf.key)).toEqual(['favourites', 'c_food', 'c_air']);
    // A product with variants offers them, as a search result does.
    expect(shelves[1]!.items.find((item) => item.productId === 'p4')?.hasVariants).toBe(true);
    expect(shelves[1]!.items.find((item) => item.productId === 'p2')?.hasVariants).toBe(false);
  });

  it('has no Favourites shelf when no product has a position, and no shelf at all for an empty catalogue', () => {
    expect(
      names(tileShelves([makeProduct({ category: 'c1' })], [category('c1', 'Chai')], () => false)),
    ).toEqual([['Chai', ['Sukari 1kg']]]);
    expect(tileShelves([], [category('c1', 'Chai')], () => false)).toEqual([]);
  });
});

describe('a till’s tiles', () => {
  let till: TestTill | null = null;
  afterEach(async () => {
    await till?.store.close();
    till = null;
  });

  it('come from what it pulled, and follow a later sync', async () => {
    till = await openTestTill({
      employees: [await makeEmployee()],
      categories: [category('c_food', 'Chakula')],
      products: [
        makeProduct({ id: 'prod_1', name: 'Mkate', category: 'c_food', barcodes: [] }),
        makeProduct({
          id: 'prod_2',
          name: 'Maandazi',
          category: 'c_food',
          barcodes: [],
          favourite_position: 1,
        }),
      ],
    });
    const seen: TileShelf[][] = [];
    const subscription = till.store.tiles$.subscribe((shelves) => seen.push(shelves));
    await settle(() =>
      expect(names(seen.at(-1) ?? [])).toEqual([
        ['★', ['Maandazi']],
        ['Chakula', ['Maandazi', 'Mkate']],
      ]),
    );

    // The merchant moves bread to the Favourites, adds a category and takes doughnuts off sale.
    const { transport, store } = till;
    // The server's feed is a log: the changes come after what was pulled.
    transport.documents.categories = [
      ...(transport.documents.categories ?? []),
      category('c_drink', 'Vinywaji'),
    ];
    transport.documents.products = [
      ...(transport.documents.products ?? []),
      makeProduct({ id: 'prod_1', name: 'Mkate', category: 'c_food', barcodes: [], favourite_position: 1 }),
      makeProduct({ id: 'prod_2', name: 'Maandazi', category: 'c_food', barcodes: [], active: false }),
      makeProduct({ id: 'prod_3', name: 'Maji', category: 'c_drink', barcodes: [] }),
    ];
    await store.syncNow();
    await settle(() =>
      expect(names(seen.at(-1) ?? [])).toEqual([
        ['★', ['Mkate']],
        ['Chakula', ['Mkate']],
        ['Vinywaji', ['Maji']],
      ]),
    );
    subscription.unsubscribe();

    // A tile's item sells like a search result's.
    await settle(() => store.signIn('1234'));
    const shelves = await firstValueFrom(store.tiles$);
    await store.addItem(shelves[2]!.items[0]!);
    expect((await firstValueFrom(store.cart$)).lines.map((line) => line.item.name)).toEqual(['Maji']);
  });
});
