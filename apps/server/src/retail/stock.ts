import {
  AppError,
  MAX_STOCK_MILLI,
  newId,
  restockMovements,
  saleStockMovements,
  type ProductId,
  type QuantityUnit,
  type StockAdjustmentCommand,
  type StockLevel,
  type StockLine,
  type StockMovement,
  type StoreId,
  type VariantId,
} from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import { listPage, type ListQuery } from '../db/list-page.ts';
import { recordEvent } from '../infra/events.ts';
import { unixSeconds } from '../infra/time.ts';
import { invalid } from './shared.ts';
import { storeForRequest } from './stores.ts';

export interface StockLevelRow {
  id: string;
  livemode: boolean;
  store_id: string;
  product_id: string;
  variant_id: string | null;
  on_hand_milli: number;
  reorder_level_milli: number | null;
  updated_at: Date;
}

/** A level as read under lock; its timestamp is not needed to move it. */
export type LockedLevel = Omit<StockLevelRow, 'updated_at'>;

interface ItemInfo {
  unit: QuantityUnit;
  track_stock: boolean;
}

const isLow = (onHand: number, reorderLevel: number | null) =>
  onHand < 0 || (reorderLevel !== null && onHand <= reorderLevel);

export const stockLevelObject = (row: StockLevelRow, item: ItemInfo) => ({
  id: row.id,
  object: 'stock_level' as const,
  store: row.store_id,
  product: row.product_id,
  variant: row.variant_id,
  unit: item.unit,
  tracked: item.track_stock,
  on_hand_milli: row.on_hand_milli,
  reorder_level_milli: row.reorder_level_milli,
  /** More was sold than was counted: someone should recount. */
  negative: row.on_hand_milli < 0,
  low: isLow(row.on_hand_milli, row.reorder_level_milli),
  livemode: row.livemode,
  updated: unixSeconds(row.updated_at),
});
export type StockLevelObject = ReturnType<typeof stockLevelObject>;

export type AdjustmentReason = StockAdjustmentCommand['reason'];

export type StockAdjustmentInput = StockAdjustmentCommand;

const levelKey = (productId: string, variantId: string | null | undefined) =>
  `${productId}/${variantId ?? ''}`;

/** Creates missing levels (at zero) and locks all of them, in one order, so concurrent sales never deadlock. */
async function lockLevels(
  db: Queryable,
  tenant: Tenant,
  storeId: string,
  items: ReadonlyArray<{ productId: string; variantId: string | null }>,
): Promise<StockLevelRow[]> {
  const unique = [
    ...new Map(items.map((item) => [levelKey(item.productId, item.variantId), item])).values(),
  ].sort((a, b) => (levelKey(a.productId, a.variantId) < levelKey(b.productId, b.variantId) ? -1 : 1));
  const select = () =>
    db.query<StockLevelRow>(
      `SELECT l.* FROM retail_stock_levels l
       JOIN unnest($2::text[], $3::text[]) AS i(product_id, variant_id)
         ON l.product_id = i.product_id AND l.variant_id IS NOT DISTINCT FROM i.variant_id
       WHERE l.store_id = $1 ORDER BY l.product_id, l.variant_id NULLS FIRST FOR UPDATE OF l`,
      [storeId, unique.map((item) => item.productId), unique.map((item) => item.variantId)],
    );
  let levels = (await select()).rows;
  if (levels.length < unique.length) {
    const have = new Set(levels.map((level) => levelKey(level.product_id, level.variant_id)));
    const missing = unique.filter((item) => !have.has(levelKey(item.productId, item.variantId)));
    await db.query(
      `INSERT INTO retail_stock_levels (id, merchant_id, livemode, store_id, product_id, variant_id, on_hand_milli)
       SELECT i.id, $1, $2, $3, i.product_id, i.variant_id, 0 FROM unnest($4::text[], $5::text[], $6::text[]) AS i(id, product_id, variant_id)
       ON CONFLICT (store_id, product_id, variant_id) DO NOTHING`,
      [
        tenant.merchantId,
        tenant.livemode,
        storeId,
        missing.map(() => newId('stockLevel')),
        missing.map((item) => item.productId),
        missing.map((item) => item.variantId),
      ],
    );
    levels = (await select()).rows;
  }
  return levels;
}

/** Movements computed by the core rules, with the locked level each one moves. */
export interface StockPlan {
  movements: StockMovement[];
  levels: LockedLevel[];
  units: ReadonlyMap<string, ItemInfo>;
}

export interface MovementSource {
  reason: string;
  orderId?: string | undefined;
  refundId?: string | undefined;
  note?: string | undefined;
}

/**
 * The SQL that applies a plan: new on-hand figures and the audit trail, as
 * two CTEs (`moved`, `logged`) to put in a statement's WITH list. `guard`
 * names a CTE that must have a row for anything to move (the order insert).
 */
export function stockMoveCtes(
  params: unknown[],
  tenant: Tenant,
  plan: StockPlan,
  source: MovementSource,
  guard?: string,
) {
  const p = (value: unknown) => `$${params.push(value)}`;
  return `moved AS (
       UPDATE retail_stock_levels l SET on_hand_milli = m.after, updated_at = now()
       FROM ${guard ? `${guard}, ` : ''}unnest(${p(plan.levels.map((level) => level.id))}::text[],
         ${p(plan.movements.map((movement) => movement.deltaMilli))}::bigint[],
         ${p(plan.movements.map((movement) => movement.onHandAfterMilli))}::bigint[]) AS m(id, delta, after)
       WHERE l.id = m.id RETURNING l.*, m.delta
     ), logged AS (
       INSERT INTO retail_stock_movements (merchant_id, livemode, store_id, product_id, variant_id, reason, delta_milli,
         on_hand_after_milli, order_id, refund_id, note)
       SELECT ${p(tenant.merchantId)}, ${p(tenant.livemode)}, store_id, product_id, variant_id, ${p(source.reason)}, delta,
         on_hand_milli, ${p(source.orderId ?? null)}, ${p(source.refundId ?? null)}, ${p(source.note ?? null)} FROM moved
     )`;
}

/** stock.low for each item the plan takes to (or below) its reorder level, or below zero, that was not there before. */
export async function recordLowStock(db: Queryable, tenant: Tenant, plan: StockPlan): Promise<void> {
  for (const [index, movement] of plan.movements.entries()) {
    const level = plan.levels[index]!;
    if (isLow(movement.onHandBeforeMilli, level.reorder_level_milli) || !(movement.low || movement.negative))
      continue;
    const after: StockLevelRow = {
      ...level,
      on_hand_milli: movement.onHandAfterMilli,
      updated_at: new Date(),
    };
    const item = plan.units.get(level.product_id) ?? { unit: 'piece', track_stock: true };
    await recordEvent(db, { ...tenant, type: 'stock.low', object: stockLevelObject(after, item) });
  }
}

async function writeMovements(db: Queryable, tenant: Tenant, plan: StockPlan, source: MovementSource) {
  if (plan.movements.length === 0) return [];
  const params: unknown[] = [];
  const ctes = stockMoveCtes(params, tenant, plan, source);
  const updated = await db.query<StockLevelRow>(
    `WITH ${ctes} SELECT id, livemode, store_id, product_id, variant_id, on_hand_milli, reorder_level_milli, updated_at FROM moved`,
    params,
  );
  await recordLowStock(db, tenant, plan);
  return updated.rows;
}

export interface SoldItem {
  productId: string;
  variantId: string | null;
  quantityMilli: number;
  unit: QuantityUnit;
  trackStock: boolean;
}

/**
 * Moves stock for a sale (down) or a refund or void (back up). Never refuses:
 * an item may go below zero, and its level then reads `negative`.
 */
/**
 * Plans stock movements for a sale (down) or a refund or void (back up) with
 * the core rules. Never refuses: an item may go below zero, and its level then
 * reads `negative`. Levels not in `locked` are created (at zero) and locked.
 */
export async function planStockMoves(
  db: Queryable,
  tenant: Tenant,
  storeId: string,
  items: readonly SoldItem[],
  reason: 'sale' | 'refund' | 'void',
  locked: readonly LockedLevel[] = [],
): Promise<StockPlan> {
  const tracked = items.filter((item) => item.trackStock);
  const units = new Map(tracked.map((item) => [item.productId, { unit: item.unit, track_stock: true }]));
  if (tracked.length === 0) return { movements: [], levels: [], units };
  const have = new Set(locked.map((level) => levelKey(level.product_id, level.variant_id)));
  const levels: readonly LockedLevel[] = tracked.every((item) =>
    have.has(levelKey(item.productId, item.variantId)),
  )
    ? locked
    : await lockLevels(db, tenant, storeId, tracked);
  const coreLevels: StockLevel[] = levels.map((level) => ({
    storeId: storeId as StoreId,
    productId: level.product_id as ProductId,
    variantId: (level.variant_id ?? undefined) as VariantId | undefined,
    tracked: true,
    onHandMilli: level.on_hand_milli,
    reorderLevelMilli: level.reorder_level_milli ?? undefined,
  }));
  const lines: StockLine[] = tracked.map((item) => ({
    productId: item.productId as ProductId,
    variantId: (item.variantId ?? undefined) as VariantId | undefined,
    quantityMilli: item.quantityMilli,
  }));
  const movements =
    reason === 'sale'
      ? saleStockMovements(storeId as StoreId, lines, coreLevels)
      : restockMovements(storeId as StoreId, lines, coreLevels, reason);
  const byKey = new Map(levels.map((level) => [levelKey(level.product_id, level.variant_id), level]));
  return {
    movements,
    levels: movements.map((movement) => byKey.get(levelKey(movement.productId, movement.variantId))!),
    units,
  };
}

/** Plans and applies the stock movements of a refund or void. */
export async function moveStockForOrder(
  db: Queryable,
  tenant: Tenant,
  storeId: string,
  items: readonly SoldItem[],
  reason: 'sale' | 'refund' | 'void',
  source: { orderId: string; refundId?: string | undefined },
): Promise<void> {
  const plan = await planStockMoves(db, tenant, storeId, items, reason);
  await writeMovements(db, tenant, plan, { ...source, reason });
}

export class StockService {
  /** Sets or adjusts what a store holds of an item, and its reorder level. */
  async adjust(db: Queryable, tenant: Tenant, input: StockAdjustmentInput): Promise<StockLevelObject> {
    const store = await storeForRequest(db, tenant, input.store);
    const product = await db.query<ItemInfo & { deleted_at: Date | null; live_variants: number }>(
      `SELECT unit, track_stock, deleted_at,
         (SELECT count(*) FROM retail_variants v WHERE v.product_id = p.id AND v.deleted_at IS NULL)::int AS live_variants
       FROM retail_products p WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      [input.product, tenant.merchantId, tenant.livemode],
    );
    const item = product.rows[0];
    if (!item || item.deleted_at)
      throw invalid('product_unknown', 'product', 'is not a product of this account');
    if (input.variant !== undefined) {
      const variant = await db.query(
        `SELECT 1 FROM retail_variants WHERE id = $1 AND product_id = $2 AND deleted_at IS NULL`,
        [input.variant, input.product],
      );
      if (!variant.rowCount)
        throw invalid('parameter_invalid', 'variant', 'is not a variant of this product');
    } else if (item.live_variants > 0) {
      throw invalid(
        'parameter_missing',
        'variant',
        'is required: stock of a product with variants is kept per variant',
      );
    }
    const variantId = input.variant ?? null;
    const [level] = await lockLevels(db, tenant, store.id, [{ productId: input.product, variantId }]);
    if (!level) throw new AppError('internal_error', 'stock level missing after creation');

    let current = level;
    if (input.reorderLevelMilli !== undefined) {
      const changed = await db.query<StockLevelRow>(
        `UPDATE retail_stock_levels SET reorder_level_milli = $2, updated_at = now() WHERE id = $1 RETURNING *`,
        [level.id, input.reorderLevelMilli],
      );
      current = changed.rows[0]!;
    }
    const delta =
      input.setOnHandMilli !== undefined
        ? input.setOnHandMilli - current.on_hand_milli
        : (input.adjustByMilli ?? 0);
    if (input.setOnHandMilli !== undefined || input.adjustByMilli !== undefined) {
      const after = current.on_hand_milli + delta;
      if (Math.abs(after) > MAX_STOCK_MILLI) {
        throw invalid(
          'quantity_invalid',
          'adjust_by',
          `would leave ${after} thousandths on hand; at most ${MAX_STOCK_MILLI} either way`,
        );
      }
      // The core movement type knows sales, refunds and voids; an adjustment is written with its own reason.
      const movement: StockMovement = {
        storeId: store.id as StoreId,
        productId: input.product as ProductId,
        reason: delta < 0 ? 'sale' : 'refund',
        deltaMilli: delta,
        onHandBeforeMilli: current.on_hand_milli,
        onHandAfterMilli: after,
        negative: after < 0,
        low: current.reorder_level_milli !== null && after <= current.reorder_level_milli,
      };
      if (variantId !== null) movement.variantId = variantId as VariantId;
      const plan: StockPlan = {
        movements: [movement],
        levels: [current],
        units: new Map([[input.product, item]]),
      };
      const [moved] = await writeMovements(db, tenant, plan, { reason: input.reason, note: input.note });
      current = moved ?? current;
    }
    const object = stockLevelObject(current, item);
    await recordEvent(db, { ...tenant, type: 'stock.adjusted', object });
    return object;
  }

  /** A store's stock levels, newest first; `low` keeps those at or below their reorder level, or negative. */
  async list(
    db: Queryable,
    tenant: Tenant,
    storeId: string,
    filters: { low?: boolean | undefined; product?: string | undefined },
    query: ListQuery,
  ) {
    const params: unknown[] = [tenant.merchantId, tenant.livemode, storeId];
    let where = 'merchant_id = $1 AND livemode = $2 AND store_id = $3';
    if (filters.low)
      where +=
        ' AND ((reorder_level_milli IS NOT NULL AND on_hand_milli <= reorder_level_milli) OR on_hand_milli < 0)';
    if (filters.product) where += ` AND product_id = $${params.push(filters.product)}`;
    const page = await listPage(
      db,
      { table: 'retail_stock_levels', where, params },
      query,
      (row: StockLevelRow) => row,
    );
    const items = await db.query<ItemInfo & { id: string }>(
      `SELECT id, unit, track_stock FROM retail_products WHERE id = ANY($1::text[])`,
      [page.data.map((row) => row.product_id)],
    );
    const byId = new Map(items.rows.map((row) => [row.id, row]));
    return {
      ...page,
      data: page.data.map((row) =>
        stockLevelObject(row, byId.get(row.product_id) ?? { unit: 'piece', track_stock: true }),
      ),
    };
  }
}
