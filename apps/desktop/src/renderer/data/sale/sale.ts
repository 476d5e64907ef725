/**
 * Completing a sale: price the cart (core), allocate the tenders (core), take
 * the next receipt number, build the receipt (core), and write ONE document,
 * the `order.create` command carrying the order payload, the receipt and its
 * sync status. Nothing else needs to be written for the sale to exist, so a
 * crash can never leave half a sale.
 *
 * Storage round trips the screen waits for: the check that this cart was not
 * sold already (a read: only a crash before the cart was cleared leaves a
 * sold cart; it runs while the cart is priced and the receipt made) and the
 * insert. The sale lock is usually held already
 * (`sale-lock.ts`), and the receipt number comes from memory under it
 * (`receipt-numbers.ts`), read from storage only when the lock changed hands.
 *
 * The screen hears "done" as soon as the command is written; clearing the
 * sold lines from the cart and writing the receipt counter follow, and the
 * next sale (or another tab taking the lock) waits for them.
 */
import {
  allocateTenders,
  buildRetailReceipt,
  commandPayloads,
  mobileMoneyTenderProblem,
  newReceiptToken,
  priceCart,
  storeReceiptSettings,
} from '@tz/core';
import type { ReceiptDocument, TenderAllocation, TillPayment } from '@tz/core';
import { TillRefusal } from '../api.ts';
import type { CompletedSale, Sale, TenderEntry } from '../api.ts';
import { loadCart, removeSold } from '../cart/cart.ts';
import { pendingEdits } from '../cart/cart-edits.ts';
import { currentStore, requireDevice, withRefusals } from '../store/context.ts';
import { digitalReceiptOf } from './digital-receipt.ts';
import { commandRefusal } from './refusals.ts';
import type { Context } from '../store/context.ts';
import { findCustomer } from '../customers/customers.ts';
import { KV } from '../store/kv.ts';
import { forgetNumbers, nextReceiptNumber, numberUsed } from './receipt-numbers.ts';
import { saleLock } from './sale-lock.ts';
import type { SaleLock } from './sale-lock.ts';
import { toCartInput, toOrderPayload, toTenderInputs } from '../cart/order-mapping.ts';
import type { CommandDoc } from '../store/schema.ts';
import { requireCashier } from '../session/session.ts';
import type { OpenShift } from '../shifts/shifts.ts';
import { unixSeconds } from '../shifts/shifts.ts';

/** The mobile money tenders' payments, each able to pay its tender by core's rule, else a refusal. */
export async function requirePaid(
  ctx: Context,
  tenders: readonly TenderEntry[],
  currency: string,
): Promise<Map<string, TillPayment>> {
  const paid = new Map<string, TillPayment>();
  for (const tender of tenders) {
    if (tender.method !== 'mobile_money') continue;
    const payment = await ctx.kv.get<TillPayment>(KV.payment(tender.payment));
    const problem = payment ? mobileMoneyTenderProblem(payment, currency, tender.amount) : null;
    if (!payment || problem?.code === 'payment_not_paid') {
      throw new TillRefusal('payment_not_paid', 'That mobile money payment is not paid', {
        payment: tender.payment,
      });
    }
    // Another currency or amount: the server would refuse the sale, so it is not made.
    if (problem) throw new TillRefusal(problem.code, problem.message, { payment: tender.payment });
    paid.set(payment.id, payment);
  }
  return paid;
}

/** What the receipt shows of each mobile money payment: the provider's reference, else the payer's number. */
export function withPayers(
  allocation: TenderAllocation,
  payments: Map<string, TillPayment>,
): TenderAllocation {
  const tenders = allocation.tenders.map((tender) => {
    const payment = tender.method === 'mobile_money' ? payments.get(tender.paymentId) : undefined;
    if (!payment) return tender;
    return {
      ...tender,
      phone: payment.phone,
      ...(payment.reference ? { reference: payment.reference } : {}),
    };
  });
  return { ...allocation, tenders };
}

/**
 * The sale command made for a client order id, if any. Read through the
 * `client_order_id` index alone (a sale and its few refunds and voids): with
 * `type` in the selector the planner reads the `type` index instead, every
 * sale on the till, which made each sale slower than the one before.
 */
export async function saleOf(ctx: Context, clientOrderId: string): Promise<CommandDoc | null> {
  const docs = await ctx.db.commands
    .find({ selector: { client_order_id: clientOrderId }, sort: [{ id: 'asc' }] })
    .exec();
  const sale = docs.find((doc) => doc.type === 'order.create');
  return sale ? (sale.toJSON() as CommandDoc) : null;
}

const locks = new WeakMap<Context, SaleLock>();

/** One sale at a time on this till, in this tab and across tabs (see `sale-lock.ts`). */
export function oneAtATime<T>(ctx: Context, work: (turn: number) => Promise<T>): Promise<T> {
  let lock = locks.get(ctx);
  if (!lock) {
    lock = saleLock();
    locks.set(ctx, lock);
  }
  return lock.run(work);
}

/** The till is closing: give the sale lock to whichever tab asks next. */
export function closeSales(ctx: Context): void {
  locks.get(ctx)?.close();
  locks.delete(ctx);
  forgetNumbers(ctx);
}

/** Awaits every promise at once; a failure is the first in list order, as if each were awaited in turn. */
async function allInOrder<T extends readonly unknown[] | []>(work: {
  [K in keyof T]: Promise<T[K]>;
}): Promise<T> {
  const settled = await Promise.allSettled(work as unknown as Array<Promise<unknown>>);
  const values = settled.map((result) => {
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  });
  return values as unknown as T;
}

type Completed = CompletedSale & { command: CommandDoc };

/** The tenders, or how to make them from the total as priced inside the sale (cash for exactly the total). */
export type Tenders = TenderEntry[] | ((total: number) => TenderEntry[]);

export function completeSale(ctx: Context, tenders: Tenders): Promise<Completed> {
  let answer: ((sale: Completed) => void) | undefined;
  const answered = new Promise<Completed>((resolve) => (answer = resolve));
  // What is on screen is what is sold: edits already shown are written first.
  const run = pendingEdits(ctx)
    .settled()
    .then(() =>
      oneAtATime(ctx, async (turn) => {
        const { completed, tidy } = await completeOne(ctx, tenders, turn);
        answer?.(completed);
        await tidy;
      }),
    );
  return Promise.race([answered, run.then(() => answered)]);
}

/** The sale, once written, and the cart's clearing, which the next sale waits for. */
async function completeOne(
  ctx: Context,
  asked: Tenders,
  turn: number,
): Promise<{ completed: Completed; tidy: Promise<unknown> }> {
  // Independent reads together: most answer from RxDB's document cache, not IndexedDB.
  const [cashier, { till, revoked, retired }, shift, cart, store] = await allInOrder([
    requireCashier(ctx),
    requireDevice(ctx),
    ctx.kv.get<OpenShift>(KV.shift),
    loadCart(ctx),
    currentStore(ctx),
  ]);
  if (revoked) throw new TillRefusal('till_revoked', 'This till was revoked: it can no longer record sales');
  if (retired) throw new TillRefusal('till_retired', 'This till was retired: it can no longer record sales');
  if (!shift) throw new TillRefusal('shift_not_open', 'Open a shift before selling');
  if (cart.lines.length === 0 || cart.saleId === null)
    throw new TillRefusal('cart_empty', 'The cart is empty');
  const saleId = cart.saleId;
  // Started now, beside the pricing and the receipt; awaited (or its failure seen) below.
  const soldAlready = saleOf(ctx, saleId);
  soldAlready.catch(() => undefined);

  const { priced, allocation, tenders } = await withRefusals(() => {
    const priced = priceCart(toCartInput(cart, store));
    const tenders = typeof asked === 'function' ? asked(priced.total) : asked;
    const allocation = allocateTenders({
      currency: priced.currency,
      amountDue: priced.total,
      tenders: toTenderInputs(tenders),
    });
    return { priced, allocation, tenders };
  });
  const payments = await requirePaid(ctx, tenders, priced.currency);

  const soldAt = ctx.now();
  // The receipt and the command are made while the check that this cart was not sold already
  // reads: the insert is the only step that waits for it.
  const making = (async () => {
    const [receiptNumber, customer] = await Promise.all([
      nextReceiptNumber(ctx, till.receiptPrefix, turn),
      cart.customer ? findCustomer(ctx, cart.customer) : null,
    ]);
    const receipt = await withRefusals(() =>
      buildRetailReceipt({
        order: priced,
        tenders: withPayers(allocation, payments),
        store: storeReceiptSettings(store),
        receiptNumber,
        issuedAt: new Date(soldAt),
        cashier: cashier.name,
        till: till.name,
        customer: customer?.name ?? undefined,
      }),
    );
    const payload = {
      ...toOrderPayload(cart, {
        clientOrderId: saleId,
        store: till.store,
        till: { id: till.id, name: till.name },
        cashier: { id: cashier.id, name: cashier.name },
        receiptNumber,
        currency: priced.currency,
        soldAt: unixSeconds(soldAt),
        tenders,
        shift: shift.id,
      }),
      // The receipt page's token, made now so its link works before the sale syncs.
      receipt_token: newReceiptToken(),
    };
    // The server will read it with this schema: a payload it would refuse is refused here instead.
    const checked = commandPayloads['order.create'].safeParse(payload);
    if (!checked.success)
      throw new TillRefusal('invalid', checked.error.issues[0]?.message ?? 'invalid sale');

    const command: CommandDoc = {
      id: ctx.ids.command(),
      type: 'order.create',
      created_at: soldAt,
      payload: payload,
      status: 'pending',
      client_order_id: saleId,
      shift: shift.id,
      cashier: cashier.id,
      receipt_number: receiptNumber,
      receipt: receipt as unknown as Record<string, unknown>,
      sale: {
        total: priced.total,
        currency: priced.currency,
        ...paidByMethod(allocation),
        room_charges: tenders.flatMap((tender) =>
          tender.method === 'room'
            ? [{ reservation: tender.reservation, room: tender.room, guest: tender.guest }]
            : [],
        ),
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
    const phone = customer?.phone;
    return { command, digitalReceipt: digitalReceiptOf(ctx, till, command, phone) };
  })();
  const [already, made] = await Promise.allSettled([soldAlready, making]);
  if (already.status === 'rejected') throw already.reason;
  if (already.value) {
    // This cart was already sold (the cart was not cleared before a crash): answer that sale.
    const command = already.value;
    const digitalReceipt = digitalReceiptOf(ctx, till, command, null);
    return {
      completed: {
        sale: saleFrom(command),
        change: 0,
        command,
        ...(digitalReceipt ? { digitalReceipt } : {}),
      },
      tidy: removeSold(ctx, cart),
    };
  }
  if (made.status === 'rejected') throw made.reason;
  const { command, digitalReceipt } = made.value;
  const receiptNumber = command.receipt_number!;
  await ctx.db.commands.insert(command);
  // The sale exists now; the cart and the last-sale pointer are separate documents, written after.
  return {
    completed: {
      sale: saleFrom(command),
      change: allocation.change,
      command,
      ...(digitalReceipt ? { digitalReceipt } : {}),
    },
    tidy: Promise.all([
      removeSold(ctx, cart),
      ctx.kv.set(KV.lastSale, command.id),
      numberUsed(ctx, receiptNumber, turn),
    ]),
  };
}

/** What a sale's tenders took, by method (cash kept: handed over less change), as its command keeps it. */
export function paidByMethod(allocation: TenderAllocation): {
  cash: number;
  mobile_money: number;
  card: number;
} {
  const paidBy = (method: string) =>
    allocation.tenders.filter((t) => t.method === method).reduce((sum, t) => sum + t.paid, 0);
  return { cash: paidBy('cash'), mobile_money: paidBy('mobile_money'), card: paidBy('card') };
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
    cashierName: typeof command.receipt?.cashier === 'string' ? command.receipt.cashier : '',
    soldAt: command.created_at,
    status: command.status,
    refusal: commandRefusal(command),
    order,
    flags: [],
    refundedAmount: 0,
    voided: false,
    receipt: command.receipt as unknown as ReceiptDocument,
  };
}
