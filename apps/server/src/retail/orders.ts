/**
 * Retail orders: a sale recorded with its receipt and stock moves, then
 * refunded or voided. The parts live in orders/: loading what a sale reads,
 * resolving its lines and tenders, writing it, reading orders back, and
 * refunds and voids.
 */
import {
  buildRetailReceipt,
  storeReceiptSettings,
  type CreateOrderCommand,
  type VoidOrderCommand,
  type TillOrderPayload,
} from '@tz/core';
import type { Actor, Tenant, TillActor } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { ListQuery } from '../db/list-page.ts';
import { recordEvent } from '../infra/events.ts';
import { applyRule, invalid } from './shared.ts';
import { planStockMoves, recordLowStock } from './stock.ts';
import { loadSaleContext } from './orders/load.ts';
import {
  findOrder,
  findOrderId,
  listOrders,
  orderObject,
  retrieveOrder,
  type OrderFilters,
  type OrderObject,
  type OrderReference,
} from './orders/read.ts';
import { refundOrder, voidOrder, type OrderScope, type RefundInput } from './orders/refund-void.ts';
import { resolveSale, saleReceiptNumber, saleStoreId } from './orders/sale.ts';
import { insertSale, saleRecords } from './orders/write.ts';
import { actorName, insertFolioLine } from '../hospitality/folio.ts';

export type { OrderFilters, OrderObject, OrderReference } from './orders/read.ts';
export type { RefundInput } from './orders/refund-void.ts';

/**
 * A sale as the services take it: the REST body, whose `till` and `cashier`
 * are what the order keeps (a till's ids, or the names an API key's order
 * gives) and, when those are ids, the names its receipt prints.
 */
export type CreateOrderInput = CreateOrderCommand & {
  printed?: { till?: string | undefined; cashier?: string | undefined };
};

/**
 * A till's `order.create` as the services take it. A sale from before tills
 * sent the names carries only the ids: its receipt prints the till's and the
 * employee's names as they are now, rather than the ids.
 */
export async function tillSaleInput(
  db: Queryable,
  till: TillActor,
  payload: Omit<TillOrderPayload, 'receipt_token'>,
): Promise<CreateOrderInput> {
  const {
    till_id: tillId,
    till_name: tillName,
    cashier_id: cashierId,
    cashier_name: cashierName,
    ...sale
  } = payload;
  let printed = { till: tillName, cashier: cashierName };
  if (
    (tillId !== undefined && tillName === undefined) ||
    (cashierId !== undefined && cashierName === undefined)
  ) {
    const names = await db.query<{ till: string | null; cashier: string | null }>(
      `SELECT (SELECT name FROM tills WHERE id = $1 AND merchant_id = $3 AND livemode = $4) AS till,
         (SELECT name FROM employees WHERE id = $2 AND merchant_id = $3 AND livemode = $4) AS cashier`,
      [tillId ?? null, cashierId ?? null, till.merchantId, till.livemode],
    );
    const found = names.rows[0];
    printed = {
      till: tillName ?? found?.till ?? undefined,
      cashier: cashierName ?? found?.cashier ?? undefined,
    };
  }
  return { ...sale, store: till.storeId, till: tillId, cashier: cashierId, printed };
}

export interface CreatedOrder {
  order: OrderObject;
  /** False when the client order id named an order already recorded: that order is returned. */
  created: boolean;
}

export class OrderService {
  /**
   * Records a paid sale: prices the cart and applies the tenders with the core
   * rules, numbers the receipt, moves stock (never refusing a sale for it), and
   * writes order.created and order.paid. A repeated `client_order_id` returns
   * the order already recorded. A till's sale happened at the counter: it is
   * recorded at the till's store, and what changed since is flagged.
   */
  async create(
    db: Queryable,
    actor: Actor,
    input: CreateOrderInput,
    now = new Date(),
  ): Promise<CreatedOrder> {
    const tenant: Tenant = { merchantId: actor.merchantId, livemode: actor.livemode };
    const asFact = actor.kind === 'till';
    const storeId = saleStoreId(actor, input);
    const context = await loadSaleContext(db, tenant, input, storeId);
    if (context.existing !== null)
      return { order: await retrieveOrder(db, tenant, context.existing), created: false };
    const sale = await resolveSale(db, tenant, input, context, { asFact, storeId, now });

    const receiptNumber = await saleReceiptNumber(db, input, sale.store, context.receiptSequence);
    const paidAt = input.sold_at !== undefined ? new Date(input.sold_at * 1000) : now;
    const receipt = applyRule(() =>
      buildRetailReceipt({
        order: sale.priced,
        tenders: sale.allocation,
        store: storeReceiptSettings(sale.store),
        receiptNumber,
        issuedAt: paidAt,
        ...(input.printed ?? { till: input.till, cashier: input.cashier }),
        customer: sale.customerName,
      }),
    );
    const sold = sale.lines.map((line) => line.sold);
    const locked = context.store ? context.levels : [];
    const stockPlan = await planStockMoves(db, tenant, sale.store.id, sold, 'sale', locked);
    if (asFact && stockPlan.movements.some((move) => move.deltaMilli < 0 && move.onHandAfterMilli < 0)) {
      sale.flags.add('stock_short');
    }

    const records = saleRecords(tenant, actor.tillId, input, sale, { receiptNumber, receipt, paidAt });
    const createdAt = await insertSale(db, tenant, records, stockPlan);
    if (!createdAt) {
      // A concurrent request with the same client order id committed first: answer with its order.
      const existing =
        input.client_order_id === undefined
          ? undefined
          : await findOrder(db, tenant, 'client_order_id', input.client_order_id);
      if (existing) return { order: existing, created: false };
      throw invalid('receipt_number_taken', 'receipt_number', 'is already on another order');
    }
    const object = orderObject(
      { ...records.order, created_at: createdAt },
      { lines: records.lines, tenders: records.tenders, refunds: [] },
    );
    // A sale charged to a room is an extra on the stay's folio, in the sale's transaction.
    for (const tender of sale.allocation.tenders)
      if (tender.method === 'room')
        await insertFolioLine(
          db,
          { id: tender.reservation, merchant_id: tenant.merchantId, livemode: tenant.livemode },
          {
            kind: 'extra',
            description: `Receipt ${receiptNumber}`,
            amount: tender.paid,
            orderId: records.order.id,
            by: actorName(actor),
          },
        );
    await recordLowStock(db, tenant, stockPlan);
    await recordEvent(db, { ...tenant, type: 'order.created', object });
    await recordEvent(db, { ...tenant, type: 'order.paid', object });
    return { order: object, created: true };
  }

  retrieve(db: Queryable, tenant: Tenant, id: string): Promise<OrderObject> {
    return retrieveOrder(db, tenant, id);
  }

  list(db: Queryable, tenant: Tenant, filters: OrderFilters, query: ListQuery) {
    return listOrders(db, tenant, filters, query);
  }

  /** The order a till's command names, by id or by its own client order id. */
  findId(db: Queryable, tenant: Tenant, reference: OrderReference): Promise<string> {
    return findOrderId(db, tenant, reference);
  }

  refund(
    db: Queryable,
    scope: OrderScope,
    id: string,
    input: RefundInput,
    now = new Date(),
  ): Promise<OrderObject> {
    return refundOrder(db, scope, id, input, now);
  }

  void(
    db: Queryable,
    scope: OrderScope,
    id: string,
    input: VoidOrderCommand,
    now = new Date(),
  ): Promise<OrderObject> {
    return voidOrder(db, scope, id, input, now);
  }
}
