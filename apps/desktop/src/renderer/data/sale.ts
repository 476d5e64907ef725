/**
 * Completing a sale: price the cart (core), allocate the tenders (core), take
 * the next receipt number, build the receipt (core), and write ONE document,
 * the `order.create` command carrying the order payload, the receipt and its
 * sync status. Nothing else needs to be written for the sale to exist, so a
 * crash can never leave half a sale.
 *
 * The receipt number is taken (an atomic increment of a counter in `kv`)
 * before the command is inserted: a crash between the two leaves a gap in the
 * numbers, never the same number on two sales.
 */
import {
  allocateTenders,
  buildRetailReceipt,
  commandPayloads,
  formatReceiptNumber,
  priceCart,
} from '@tz/core';
import type { PullDocument, ReceiptDocument, StoreReceiptSettings, TillPayment } from '@tz/core';
import { TillRefusal } from './api.ts';
import type { CompletedSale, Sale, TenderEntry } from './api.ts';
import { loadCart, removeSold } from './cart.ts';
import { currentStore, requireDevice, withRefusals } from './context.ts';
import type { Context } from './context.ts';
import { KV } from './kv.ts';
import { toCartInput, toOrderPayload, toTenderInputs } from './order-mapping.ts';
import type { CommandDoc } from './schema.ts';
import { requireCashier } from './session.ts';
import type { OpenShift } from './shifts.ts';
import { unixSeconds } from './shifts.ts';

export const receiptCounterKey = (prefix: string) => `${KV.receiptCounter}:${prefix}`;

/** The store as the receipt shows it; before the store has synced, the merchant's name. */
function receiptSettings(store: PullDocument<'stores'> | null, fallbackName: string): StoreReceiptSettings {
  if (!store) {
    return {
      name: fallbackName,
      addressLines: [],
      vatRegion: 'mainland',
      receiptHeaderLines: [],
      receiptFooterLines: [],
      receiptLanguage: 'sw',
    };
  }
  const settings: StoreReceiptSettings = {
    name: store.name,
    addressLines: store.address_lines,
    vatRegion: store.vat_region,
    receiptHeaderLines: store.receipt_header,
    receiptFooterLines: store.receipt_footer,
    receiptLanguage: store.receipt_language,
  };
  if (store.phone !== null) settings.phone = store.phone;
  if (store.tin !== null) settings.tin = store.tin;
  if (store.vrn !== null) settings.vrn = store.vrn;
  return settings;
}

export async function nextReceiptNumber(ctx: Context, prefix: string): Promise<string> {
  const sequence = await ctx.kv.update<number>(receiptCounterKey(prefix), 0, (last) => last + 1);
  return formatReceiptNumber(prefix, sequence);
}

async function requirePaid(ctx: Context, tenders: readonly TenderEntry[]): Promise<void> {
  for (const tender of tenders) {
    if (tender.method !== 'mobile_money') continue;
    const payment = await ctx.kv.get<TillPayment>(KV.payment(tender.payment));
    if (payment?.status !== 'paid' || payment.amount !== tender.amount) {
      throw new TillRefusal('payment_not_paid', 'That mobile money payment is not paid', {
        payment: tender.payment,
      });
    }
  }
}

let saleChain: Promise<unknown> = Promise.resolve();

/**
 * One sale at a time per device: a double tap (or two tabs) on one cart makes
 * one sale. Web Locks reach across tabs; elsewhere an in-process queue.
 */
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
  if (locks) return locks.request('till-sale', work) as Promise<T>;
  const run = saleChain.then(work, work);
  saleChain = run.catch(() => undefined);
  return run;
}

type Completed = CompletedSale & { command: CommandDoc };

export function completeSale(ctx: Context, tenders: TenderEntry[]): Promise<Completed> {
  return oneAtATime(() => completeOne(ctx, tenders));
}

async function completeOne(ctx: Context, tenders: TenderEntry[]): Promise<Completed> {
  const cashier = await requireCashier(ctx);
  const { till, revoked } = await requireDevice(ctx);
  if (revoked) throw new TillRefusal('revoked', 'This till was revoked: it can no longer record sales');
  const shift = await ctx.kv.get<OpenShift>(KV.shift);
  if (!shift) throw new TillRefusal('shift_not_open', 'Open a shift before selling');
  const cart = await loadCart(ctx);
  if (cart.lines.length === 0 || cart.saleId === null)
    throw new TillRefusal('cart_empty', 'The cart is empty');

  // This cart was already sold (the cart was not cleared before a crash): answer that sale.
  const already = await ctx.db.commands
    .findOne({ selector: { client_order_id: cart.saleId, type: 'order.create' } })
    .exec();
  if (already) {
    await removeSold(ctx, cart);
    const command = already.toJSON() as CommandDoc;
    return { sale: saleFrom(command), change: 0, command };
  }

  const store = await currentStore(ctx);
  const pricingStore = store ?? { currency: 'TZS', vat_region: 'mainland' as const };
  const { priced, allocation } = await withRefusals(() => {
    const priced = priceCart(toCartInput(cart, pricingStore));
    const allocation = allocateTenders({
      currency: priced.currency,
      amountDue: priced.total,
      tenders: toTenderInputs(tenders),
    });
    return { priced, allocation };
  });
  await requirePaid(ctx, tenders);

  const soldAt = ctx.now();
  const receiptNumber = await nextReceiptNumber(ctx, till.receiptPrefix);
  const customer = cart.customer ? await ctx.db.customers.findOne(cart.customer).exec() : null;
  const receipt = await withRefusals(() =>
    buildRetailReceipt({
      order: priced,
      tenders: allocation,
      store: receiptSettings(store, till.merchant.businessName),
      receiptNumber,
      issuedAt: new Date(soldAt),
      cashier: cashier.name,
      till: till.name,
      customer: (customer?.toJSON().name as string | null | undefined) ?? undefined,
    }),
  );
  const payload = toOrderPayload(cart, {
    clientOrderId: cart.saleId,
    store: till.store,
    till: till.id,
    cashier: cashier.id,
    receiptNumber,
    currency: priced.currency,
    soldAt: unixSeconds(soldAt),
    tenders,
    shift: shift.id,
  });
  // The server will read it with this schema: a payload it would refuse is refused here instead.
  const checked = commandPayloads['order.create'].safeParse(payload);
  if (!checked.success) throw new TillRefusal('invalid', checked.error.issues[0]?.message ?? 'invalid sale');

  const paidBy = (method: string) =>
    allocation.tenders.filter((t) => t.method === method).reduce((sum, t) => sum + t.paid, 0);
  const command: CommandDoc = {
    id: ctx.ids.command(),
    type: 'order.create',
    created_at: soldAt,
    payload: payload,
    status: 'pending',
    client_order_id: cart.saleId,
    shift: shift.id,
    cashier: cashier.id,
    receipt_number: receiptNumber,
    receipt: receipt as unknown as Record<string, unknown>,
    sale: {
      total: priced.total,
      currency: priced.currency,
      cash: paidBy('cash'),
      mobile_money: paidBy('mobile_money'),
      card: paidBy('card'),
      lines: priced.lines.map((line) => ({
        unit: line.unit,
        quantity_milli: line.quantityMilli,
        total: line.total,
        tax: line.tax,
      })),
    },
    refund_amount: null,
    result: null,
    error: null,
    synced_at: null,
  };
  await ctx.db.commands.insert(command);
  await removeSold(ctx, cart);
  await ctx.kv.set(KV.lastSale, command.id);
  return { sale: saleFrom(command), change: allocation.change, command };
}

/** A sale as the screens show it, before the server's order and refunds are joined in. */
export function saleFrom(command: CommandDoc): Sale {
  const result = command.result ?? {};
  const order =
    typeof result.order === 'string' ? result.order : typeof result.id === 'string' ? result.id : null;
  return {
    commandId: command.id,
    clientOrderId: command.client_order_id,
    receiptNumber: command.receipt_number ?? '',
    total: command.sale?.total ?? 0,
    currency: command.sale?.currency ?? '',
    cashier: command.cashier,
    soldAt: command.created_at,
    status: command.status,
    refusal: command.error,
    order,
    flags: [],
    refundedAmount: 0,
    voided: false,
    receipt: command.receipt as unknown as ReceiptDocument,
  };
}
