import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import type { ProductId, VariantId } from './pricing.ts';
import { restockMovements, saleStockMovements } from './stock.ts';
import type { StockLevel, StockLine, StoreId } from './stock.ts';

const store = 'store_kariakoo' as StoreId;
const otherStore = 'store_mwenge' as StoreId;
const rice = 'prod_rice' as ProductId;
const shirt = 'prod_shirt' as ProductId;
const shirtLarge = 'var_shirt_l' as VariantId;
const airtime = 'prod_airtime' as ProductId;

function makeLevel(overrides: Partial<StockLevel> = {}): StockLevel {
  return { storeId: store, productId: rice, tracked: true, onHandMilli: 10_000, ...overrides };
}

describe('saleStockMovements', () => {
  it('decrements tracked items and reports before and after', () => {
    const [movement, ...rest] = saleStockMovements(
      store,
      [{ productId: rice, quantityMilli: 2_500 }],
      [makeLevel()],
    );
    expect(rest).toEqual([]);
    expect(movement).toEqual({
      storeId: store,
      productId: rice,
      reason: 'sale',
      deltaMilli: -2_500,
      onHandBeforeMilli: 10_000,
      onHandAfterMilli: 7_500,
      negative: false,
      low: false,
    });
  });

  it('ignores untracked items and items with no level at this store', () => {
    const movements = saleStockMovements(
      store,
      [
        { productId: airtime, quantityMilli: 1_000 },
        { productId: shirt, quantityMilli: 1_000 },
      ],
      [
        makeLevel({ productId: airtime, tracked: false }),
        makeLevel({ productId: shirt, storeId: otherStore }),
      ],
    );
    expect(movements).toEqual([]);
  });

  it('sells past zero and flags the stock as negative and low', () => {
    const [movement] = saleStockMovements(
      store,
      [{ productId: rice, quantityMilli: 3_000 }],
      [makeLevel({ onHandMilli: 1_000, reorderLevelMilli: 0 })],
    );
    expect(movement).toMatchObject({ onHandAfterMilli: -2_000, negative: true, low: true });
  });

  it('flags low stock at the reorder level, not above it', () => {
    const sell = (quantityMilli: number) =>
      saleStockMovements(
        store,
        [{ productId: rice, quantityMilli }],
        [makeLevel({ reorderLevelMilli: 5_000 })],
      )[0];
    expect(sell(5_000)?.low).toBe(true);
    expect(sell(4_999)?.low).toBe(false);
  });

  it('keeps variants apart and joins repeated lines of the same item into one movement', () => {
    const movements = saleStockMovements(
      store,
      [
        { productId: shirt, variantId: shirtLarge, quantityMilli: 1_000 },
        { productId: rice, quantityMilli: 500 },
        { productId: shirt, variantId: shirtLarge, quantityMilli: 2_000 },
      ],
      [
        makeLevel({ productId: shirt, variantId: shirtLarge, onHandMilli: 4_000 }),
        makeLevel({ productId: shirt, onHandMilli: 99_000 }),
        makeLevel(),
      ],
    );
    expect(movements.map((m) => [m.productId, m.variantId, m.deltaMilli, m.onHandAfterMilli])).toEqual([
      [shirt, shirtLarge, -3_000, 1_000],
      [rice, undefined, -500, 9_500],
    ]);
  });

  it('refuses non-positive quantities and duplicate levels', () => {
    expect(() => saleStockMovements(store, [{ productId: rice, quantityMilli: 0 }], [makeLevel()])).toThrow(
      AppError,
    );
    expect(() => saleStockMovements(store, [], [makeLevel(), makeLevel()])).toThrow(AppError);
  });
});

describe('restockMovements', () => {
  it('puts refunded quantities back, clearing the negative flag', () => {
    const [movement] = restockMovements(
      store,
      [{ productId: rice, quantityMilli: 3_000 }],
      [makeLevel({ onHandMilli: -1_000 })],
      'refund',
    );
    expect(movement).toMatchObject({
      reason: 'refund',
      deltaMilli: 3_000,
      onHandAfterMilli: 2_000,
      negative: false,
    });
  });

  it('undoes a sale exactly when the order is voided', () => {
    const lineArb: fc.Arbitrary<StockLine> = fc.record({
      productId: fc.constantFrom(rice, shirt),
      quantityMilli: fc.integer({ min: 1, max: 50_000 }),
    });
    fc.assert(
      fc.property(
        fc.array(lineArb, { maxLength: 6 }),
        fc.integer({ min: -5_000, max: 5_000 }),
        (lines, onHandMilli) => {
          const levels = [makeLevel({ onHandMilli }), makeLevel({ productId: shirt, onHandMilli })];
          const sold = saleStockMovements(store, lines, levels);
          const afterSale = levels.map((level) => ({
            ...level,
            onHandMilli:
              sold.find((m) => m.productId === level.productId)?.onHandAfterMilli ?? level.onHandMilli,
          }));
          const restocked = restockMovements(store, lines, afterSale, 'void');
          expect(restocked.map((m) => m.onHandAfterMilli)).toEqual(sold.map((m) => m.onHandBeforeMilli));
          expect(restocked.map((m) => m.deltaMilli)).toEqual(sold.map((m) => -m.deltaMilli));
        },
      ),
      { numRuns: 500 },
    );
  });
});
