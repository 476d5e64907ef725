/** After a sale: refunds (in full or in part) and same-day voids. */
import {
  AppError,
  newId,
  notFound,
  planRefund,
  RETAIL_ORDER_STATES,
  remainingRefundLines,
  statusAfterRefundPlan,
  transitionRetailOrder,
  type RefundableLine,
  type RefundOrderCommand,
  type RetailOrderStatus,
  type VoidOrderCommand,
} from '@tz/core';
import type { Actor, Tenant } from '../../actor.ts';
import type { Queryable } from '../../db/database.ts';
import { recordEvent } from '../../infra/events.ts';
import { storedStates, transition } from '../../infra/transitions.ts';
import { applyRule } from '../shared.ts';
import { moveStockForOrder, type SoldItem } from '../stock.ts';
import { retrieveOrder, type LineRow, type OrderObject } from './read.ts';
import { tillTime } from './sale.ts';

const ORDERS = storedStates(RETAIL_ORDER_STATES, 'retail_orders');

interface LockedOrder {
  id: string;
  store_id: string;
  status: RetailOrderStatus;
  paid_at: Date | null;
  created_at: Date;
}

/**
 * Who refunds or voids: the merchant's tenant, and for a till its store. A
 * till acts only on its own store's sales: another store's order is, to it,
 * no order at all (as another merchant's is to an API key).
 */
export type OrderScope = Tenant & Pick<Actor, 'storeId'>;

async function lockOrder(db: Queryable, scope: OrderScope, id: string): Promise<LockedOrder> {
  const found = await db.query<LockedOrder>(
    `SELECT id, store_id, status, paid_at, created_at FROM retail_orders
     WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND ($4::text IS NULL OR store_id = $4)
     FOR UPDATE`,
    [id, scope.merchantId, scope.livemode, scope.storeId ?? null],
  );
  if (!found.rows[0]) throw notFound('order', id);
  await refuseRoomCharge(db, id);
  return found.rows[0];
}

/** A sale charged to a room is on the guest's folio: it is corrected there, with an adjustment. */
async function refuseRoomCharge(db: Queryable, orderId: string): Promise<void> {
  const found = await db.query<{ reservation_id: string }>(
    `SELECT reservation_id FROM retail_order_tenders WHERE order_id = $1 AND method = 'room' LIMIT 1`,
    [orderId],
  );
  const stay = found.rows[0]?.reservation_id;
  if (stay !== undefined)
    throw new AppError(
      'state_transition_invalid',
      `The sale was charged to the room of ${stay}: correct it on that folio with an adjustment`,
      { details: { id: `is charged to ${stay}` } },
    );
}

async function linesForStock(db: Queryable, orderId: string) {
  const found = await db.query<LineRow & { track_stock: boolean }>(
    `SELECT l.*, p.track_stock FROM retail_order_lines l JOIN retail_products p ON p.id = l.product_id
     WHERE l.order_id = $1 ORDER BY l.position`,
    [orderId],
  );
  return found.rows;
}

export type RefundInput = RefundOrderCommand;

/**
 * Refunds some lines (or everything left): returns a proportional share of
 * what was paid for each line, puts the goods back on hand when `restock`,
 * and writes order.refunded. An offline till's refund is dated when it
 * happened at the counter (`refunded_at`), so it counts on that day.
 */
export async function refundOrder(
  db: Queryable,
  scope: OrderScope,
  id: string,
  input: RefundInput,
  now = new Date(),
): Promise<OrderObject> {
  const refundedAt = tillTime(input.refunded_at, 'refunded_at', now) ?? null;
  const order = await lockOrder(db, scope, id);
  if (order.status !== 'paid' && order.status !== 'partially_refunded') {
    transitionRetailOrder(order.status, 'refunded');
  }
  const lines = await linesForStock(db, id);
  const refundable: RefundableLine[] = lines.map((line) => ({
    unit: line.unit,
    quantityMilli: line.quantity_milli,
    total: line.total,
    tax: line.tax,
    refundedQuantityMilli: line.refunded_quantity_milli,
  }));
  const request =
    input.lines?.map((line) => ({ line: line.line, quantityMilli: line.quantity_milli })) ??
    remainingRefundLines(refundable);
  const plan = applyRule(() => planRefund(refundable, request));
  const status = transitionRetailOrder(order.status, statusAfterRefundPlan(refundable, plan));

  const refundId = newId('orderRefund');
  const planned = plan.lines.map((line) => ({
    line: line.line,
    quantity_milli: line.quantityMilli,
    amount: line.amount,
    tax: line.tax,
  }));
  await db.query(
    `WITH refund AS (
       INSERT INTO retail_refunds (id, merchant_id, livemode, order_id, amount, tax, lines, restocked, reason, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, coalesce($10, now()))
     ), moved AS (
       UPDATE retail_order_lines l SET refunded_quantity_milli = l.refunded_quantity_milli + r.quantity_milli,
         refunded_amount = l.refunded_amount + r.amount
       FROM jsonb_to_recordset($7::jsonb) AS r(line int, quantity_milli bigint, amount bigint)
       WHERE l.order_id = $4 AND l.position = r.line
     )
     SELECT 1`,
    [
      refundId,
      scope.merchantId,
      scope.livemode,
      id,
      plan.amount,
      plan.tax,
      JSON.stringify(planned),
      input.restock,
      input.reason ?? null,
      refundedAt,
    ],
  );
  await transition(db, ORDERS, order, status, {
    set: 'refunded_amount = refunded_amount + $1',
    params: [plan.amount],
  });
  if (input.restock) {
    const items = plan.lines.map((planned): SoldItem => {
      const line = lines[planned.line]!;
      return {
        productId: line.product_id,
        variantId: line.variant_id,
        quantityMilli: planned.quantityMilli,
        unit: line.unit,
        trackStock: line.track_stock,
      };
    });
    await moveStockForOrder(db, scope, order.store_id, items, 'refund', { orderId: id, refundId });
  }
  const object = await retrieveOrder(db, scope, id);
  await recordEvent(db, { ...scope, type: 'order.refunded', object });
  return object;
}

/**
 * Cancels a sale on the business day it was made, as if it never happened:
 * every line goes back on hand and a mobile money payment is freed for
 * another order. Later, refund instead.
 */
export async function voidOrder(
  db: Queryable,
  scope: OrderScope,
  id: string,
  input: VoidOrderCommand,
  now = new Date(),
): Promise<OrderObject> {
  const order = await lockOrder(db, scope, id);
  // An offline till's void is judged by when it happened at the counter.
  const voidedAt = tillTime(input.voided_at, 'voided_at', now) ?? now;
  const status = transitionRetailOrder(order.status, 'voided', {
    paidAt: order.paid_at ?? order.created_at,
    now: voidedAt,
  });
  await db.query(`UPDATE retail_order_tenders SET active = false WHERE order_id = $1`, [id]);
  await transition(db, ORDERS, order, status, {
    set: 'voided_at = $1, void_reason = $2',
    params: [voidedAt, input.reason ?? null],
  });
  const lines = await linesForStock(db, id);
  await moveStockForOrder(
    db,
    scope,
    order.store_id,
    lines
      .filter((line) => line.quantity_milli > line.refunded_quantity_milli)
      .map((line) => ({
        productId: line.product_id,
        variantId: line.variant_id,
        quantityMilli: line.quantity_milli - line.refunded_quantity_milli,
        unit: line.unit,
        trackStock: line.track_stock,
      })),
    'void',
    { orderId: id },
  );
  const object = await retrieveOrder(db, scope, id);
  await recordEvent(db, { ...scope, type: 'order.voided', object });
  return object;
}
