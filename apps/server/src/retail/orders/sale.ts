/**
 * A sale resolved before anything is written: its store, customer, priced
 * lines, tenders and receipt number. An API key's sale is refused for what
 * does not match the catalogue; a till's sale already happened at the
 * counter (`asFact`), so it stands and what differed becomes its flags.
 */
import {
  allocateTenders,
  formatReceiptNumber,
  isStorePrefix,
  parseReceiptNumber,
  priceCart,
  TILL_CLOCK_LEEWAY_SECONDS,
  type CreateOrderCommand,
  type Currency,
  type OrderFlag,
  type PricedCart,
  type TenderAllocation,
} from '@tz/core';
import type { Actor, Tenant } from '../../actor.ts';
import type { Queryable } from '../../db/database.ts';
import { applyRule, invalid } from '../shared.ts';
import { defaultStore, receiptSequenceName } from '../stores.ts';
import type { SaleContext, SaleStore } from './load.ts';
import { coreDiscount, resolveLine, type ResolvedLine } from './lines.ts';
import { resolveTenders } from './tenders.ts';

/** A time a till stamped (unix seconds), refused when ahead of the server's clock by more than the leeway. */
export function tillTime(seconds: number | undefined, field: string, now: Date): Date | undefined {
  if (seconds === undefined) return undefined;
  if (seconds > now.getTime() / 1000 + TILL_CLOCK_LEEWAY_SECONDS) {
    throw invalid('parameter_invalid', field, 'is in the future');
  }
  return new Date(seconds * 1000);
}

/** The store a sale is recorded at: a till's own (naming another is refused), else the one named or the default. */
export function saleStoreId(actor: Actor, input: CreateOrderCommand): string | undefined {
  if (actor.kind !== 'till') return input.store;
  if (input.store !== undefined && input.store !== actor.storeId) {
    throw invalid('parameter_invalid', 'store', 'is not the till’s store');
  }
  return actor.storeId;
}

export interface ResolvedSale {
  store: SaleStore;
  currency: Currency;
  customerId: string | null;
  customerName: string | undefined;
  lines: ResolvedLine[];
  priced: PricedCart;
  allocation: TenderAllocation;
  flags: Set<OrderFlag>;
}

export async function resolveSale(
  db: Queryable,
  tenant: Tenant,
  input: CreateOrderCommand,
  context: SaleContext,
  options: { asFact: boolean; storeId: string | undefined; now: Date },
): Promise<ResolvedSale> {
  const { asFact } = options;
  if (input.receipt_number !== undefined) checkTillReceiptNumber(input.receipt_number);
  const soldAt = tillTime(input.sold_at, 'sold_at', options.now) ?? options.now;
  if (!context.store && options.storeId !== undefined) {
    throw invalid('parameter_invalid', 'store', 'is not a store of this account');
  }
  // The first sale of an account without a store makes its default store.
  const store: SaleStore = context.store ?? (await defaultStore(db, tenant));
  const currency = input.currency ?? store.currency;
  if (currency !== store.currency) {
    throw invalid('currency_mismatch', 'currency', `is ${currency} but the store sells in ${store.currency}`);
  }
  const flags = new Set<OrderFlag>();
  // A till's id for a customer whose phone was known already names that customer.
  let customerId = context.customer?.id ?? input.customer ?? null;
  if (customerId !== null && !context.customer) {
    if (!asFact) throw invalid('parameter_invalid', 'customer', 'is not a customer of this account');
    customerId = null;
    flags.add('customer_unknown');
  }
  // The money was taken, so the sale stands; a sale after the cashier's deactivation is for review.
  if (asFact && input.cashier !== undefined && (await deactivatedBefore(db, tenant, input.cashier, soldAt))) {
    flags.add('cashier_inactive');
  }
  const lines = input.lines.map((line, index) => resolveLine(line, index, context.catalog, currency, asFact));
  for (const line of lines) for (const flag of line.flags) flags.add(flag);
  const priced = applyRule(() =>
    priceCart({
      currency,
      vatRegion: store.vat_region,
      lines: lines.map((line) => line.cart),
      orderDiscount: coreDiscount(input.discount),
    }),
  );
  const tenders = await resolveTenders(db, tenant, input.tenders, currency);
  const allocation = applyRule(() => allocateTenders({ currency, amountDue: priced.total, tenders }));
  return {
    store,
    currency,
    customerId,
    customerName: context.customer?.name ?? undefined,
    lines,
    priced,
    allocation,
    flags,
  };
}

/**
 * The till's own receipt number, else the next of the store's sequence: read
 * with the sale's context when it could be, else now. Server-given numbers use
 * the store's own prefix (S01...), which no till is ever given.
 */
export async function saleReceiptNumber(
  db: Queryable,
  input: CreateOrderCommand,
  store: SaleStore,
  sequence: number | null,
): Promise<string> {
  if (input.receipt_number !== undefined) return input.receipt_number;
  if (sequence !== null) return formatReceiptNumber(store.receipt_prefix, sequence);
  const next = await db.query<{ sequence: number }>(`SELECT nextval($1::regclass) AS sequence`, [
    receiptSequenceName(store.id),
  ]);
  return formatReceiptNumber(store.receipt_prefix, next.rows[0]!.sequence);
}

function checkTillReceiptNumber(receiptNumber: string): void {
  const parts = parseReceiptNumber(receiptNumber);
  if (!parts)
    throw invalid(
      'parameter_invalid',
      'receipt_number',
      'must be a till prefix and sequence, e.g. T01-000123',
    );
  if (isStorePrefix(parts.tillPrefix)) {
    throw invalid(
      'parameter_invalid',
      'receipt_number',
      'uses a prefix reserved for numbers the server gives',
    );
  }
}

/** Whether employee `id` (as a till names its cashier) was inactive at `at`, deactivated at or before it. */
async function deactivatedBefore(db: Queryable, tenant: Tenant, id: string, at: Date): Promise<boolean> {
  const found = await db.query(
    `SELECT 1 FROM employees WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND NOT active
       AND deactivated_at <= $4`,
    [id, tenant.merchantId, tenant.livemode, at],
  );
  return found.rows.length > 0;
}
