/**
 * Stock movements for a store. A sale is never refused because the recorded
 * stock is wrong (two offline tills may sell the last item): stock may go
 * negative, and the movement says so, so someone can recount.
 */
import { invalidField } from '../errors.ts';
import type { Id } from '../ids.ts';
import type { ProductId, VariantId } from './pricing.ts';

export type StoreId = Id<'store'>;

/**
 * The most stock, in thousandths, that a count or an adjustment may set or
 * leave on hand (either sign), and the largest reorder level: 999,999,999.999
 * units keeps every figure and sum well inside JavaScript's exact integers.
 */
export const MAX_STOCK_MILLI = 999_999_999_999;

/** What a store holds of one product or variant. */
export interface StockLevel {
  storeId: StoreId;
  productId: ProductId;
  /** Absent for a product without variants. */
  variantId?: VariantId | undefined;
  /** Untracked items (services, made to order) never move. */
  tracked: boolean;
  /** In thousandths of the unit; may already be negative. */
  onHandMilli: number;
  reorderLevelMilli?: number | undefined;
}

/** One line of an order, refund or void, as far as stock cares. */
export interface StockLine {
  productId: ProductId;
  variantId?: VariantId | undefined;
  quantityMilli: number;
}

export type StockMovementReason = 'sale' | 'refund' | 'void';

export interface StockMovement {
  storeId: StoreId;
  productId: ProductId;
  variantId?: VariantId;
  reason: StockMovementReason;
  /** Negative for a sale, positive for a restock. */
  deltaMilli: number;
  onHandBeforeMilli: number;
  onHandAfterMilli: number;
  /** Stock is below zero after the movement. */
  negative: boolean;
  /** Stock is at or below the reorder level after the movement. */
  low: boolean;
}

/**
 * Decrements tracked stock for a sale. Lines for the same item become one
 * movement. Items with no level at this store, or untracked, do not move.
 */
export function saleStockMovements(
  storeId: StoreId,
  lines: readonly StockLine[],
  levels: readonly StockLevel[],
): StockMovement[] {
  return stockMovements(storeId, lines, levels, 'sale');
}

/** Puts refunded or voided quantities back on hand. */
export function restockMovements(
  storeId: StoreId,
  lines: readonly StockLine[],
  levels: readonly StockLevel[],
  reason: 'refund' | 'void',
): StockMovement[] {
  return stockMovements(storeId, lines, levels, reason);
}

const stockKey = (productId: string, variantId: string | undefined): string =>
  `${productId}/${variantId ?? ''}`;

function stockMovements(
  storeId: StoreId,
  lines: readonly StockLine[],
  levels: readonly StockLevel[],
  reason: StockMovementReason,
): StockMovement[] {
  const levelsByKey = new Map<string, StockLevel>();
  levels.forEach((level, index) => {
    if (level.storeId !== storeId) return;
    const key = stockKey(level.productId, level.variantId);
    if (levelsByKey.has(key)) {
      throw invalidField(
        'parameter_invalid',
        `levels[${index}]`,
        'duplicates the stock level of another entry',
      );
    }
    levelsByKey.set(key, level);
  });

  // Sum per item, keeping the order in which items first appear.
  const quantities = new Map<string, { line: StockLine; quantityMilli: number }>();
  lines.forEach((line, index) => {
    if (!Number.isSafeInteger(line.quantityMilli) || line.quantityMilli <= 0) {
      throw invalidField('quantity_invalid', `lines[${index}].quantityMilli`, 'must be greater than zero');
    }
    const key = stockKey(line.productId, line.variantId);
    const entry = quantities.get(key);
    if (entry) entry.quantityMilli += line.quantityMilli;
    else quantities.set(key, { line, quantityMilli: line.quantityMilli });
  });

  const sign = reason === 'sale' ? -1 : 1;
  const movements: StockMovement[] = [];
  for (const [key, { line, quantityMilli }] of quantities) {
    const level = levelsByKey.get(key);
    if (!level?.tracked) continue;
    const deltaMilli = sign * quantityMilli;
    const after = level.onHandMilli + deltaMilli;
    const movement: StockMovement = {
      storeId,
      productId: line.productId,
      reason,
      deltaMilli,
      onHandBeforeMilli: level.onHandMilli,
      onHandAfterMilli: after,
      negative: after < 0,
      low: level.reorderLevelMilli !== undefined && after <= level.reorderLevelMilli,
    };
    if (line.variantId !== undefined) movement.variantId = line.variantId;
    movements.push(movement);
  }
  return movements;
}
