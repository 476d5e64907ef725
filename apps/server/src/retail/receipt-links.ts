/**
 * Digital receipts: a sale's page at `/receipt/{token}`, found by the random
 * token the till made for it (no key; the token is the capability). Only the
 * token's SHA-256 is stored, so a read of the table opens no receipt.
 */
import { isReceiptToken, type Currency, type RetailOrderStatus } from '@tz/core';
import type { Tenant } from '../actor.ts';
import { write, type Queryable } from '../db/database.ts';
import { sha256 } from '../infra/secrets.ts';
import { retrieveOrder, type OrderObject } from './orders/read.ts';
import type { StoreRow } from './stores.ts';

const tokenHash = (token: string): string => sha256(`receipt:${token}`);

/**
 * Links a till's sale to its receipt token, in the sale's transaction. A token
 * or an order already linked keeps its first link: a till that reused a token
 * never takes over another sale's page.
 */
export async function recordReceiptLink(
  db: Queryable,
  tenant: Tenant,
  orderId: string,
  token: string,
): Promise<void> {
  await write(
    db,
    `INSERT INTO retail_receipt_links (token_hash, merchant_id, livemode, order_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [tokenHash(token), tenant.merchantId, tenant.livemode, orderId],
  );
}

/** Everything the receipt page shows, in neither language: the page picks the words. */
export interface ReceiptView {
  business_name: string;
  store: Pick<
    StoreRow,
    | 'name'
    | 'address_lines'
    | 'phone'
    | 'tin'
    | 'vrn'
    | 'receipt_header'
    | 'receipt_footer'
    | 'receipt_language'
  >;
  livemode: boolean;
  status: RetailOrderStatus;
  receipt_number: string;
  currency: Currency;
  sold_at: Date;
  /** As printed on the paper receipt: names, not ids. */
  cashier: string | null;
  customer: string | null;
  lines: OrderObject['lines'];
  subtotal: number;
  order_discount: number;
  order_discount_rule: OrderObject['discount'];
  tax_breakdown: OrderObject['tax_breakdown'];
  tax_total: number;
  total: number;
  tenders: Array<OrderObject['tenders'][number] & { provider_reference: string | null }>;
  change_due: number;
  refunds: OrderObject['refunds'];
  refunded_amount: number;
  voided_at: Date | null;
}

export class DigitalReceipts {
  /** The receipt a token opens, or null: unknown, or a sale whose till has not synced it yet. */
  async view(db: Queryable, token: string): Promise<ReceiptView | null> {
    if (!isReceiptToken(token)) return null;
    const link = await db.query<{ merchant_id: string; livemode: boolean; order_id: string }>(
      `SELECT merchant_id, livemode, order_id FROM retail_receipt_links WHERE token_hash = $1`,
      [tokenHash(token)],
    );
    const found = link.rows[0];
    if (!found) return null;
    const tenant: Tenant = { merchantId: found.merchant_id, livemode: found.livemode };
    const order = await retrieveOrder(db, tenant, found.order_id);
    const details = await db.query<
      ReceiptView['store'] & { business_name: string; references: Record<string, string> }
    >(
      `SELECT s.name, s.address_lines, s.phone, s.tin, s.vrn, s.receipt_header, s.receipt_footer, s.receipt_language,
         m.business_name,
         (SELECT coalesce(json_object_agg(p.id, p.provider_reference), '{}') FROM payments p
           WHERE p.id = ANY($3::text[]) AND p.merchant_id = $2 AND p.provider_reference IS NOT NULL) AS references
       FROM retail_stores s JOIN merchants m ON m.id = s.merchant_id
       WHERE s.id = $1 AND s.merchant_id = $2`,
      [
        order.store,
        tenant.merchantId,
        order.tenders.flatMap((tender) => (tender.payment ? [tender.payment] : [])),
      ],
    );
    const { business_name, references, ...store } = details.rows[0]!;
    const paper = order.receipt;
    return {
      business_name,
      store,
      livemode: order.livemode,
      status: order.status,
      receipt_number: order.receipt_number,
      currency: order.currency,
      sold_at: new Date((order.paid_at ?? order.created) * 1000),
      cashier: paper.cashier ?? null,
      customer: paper.customer ?? null,
      lines: order.lines,
      subtotal: order.subtotal,
      order_discount: order.order_discount,
      order_discount_rule: order.discount,
      tax_breakdown: order.tax_breakdown,
      tax_total: order.tax_total,
      total: order.total,
      tenders: order.tenders.map((tender) => ({
        ...tender,
        provider_reference: tender.payment ? (references[tender.payment] ?? null) : null,
      })),
      change_due: order.change_due,
      refunds: order.refunds,
      refunded_amount: order.refunded_amount,
      voided_at: order.voided_at === null ? null : new Date(order.voided_at * 1000),
    };
  }
}
