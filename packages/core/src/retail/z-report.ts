/**
 * The Z report of a shift: per tender method, what the drawer (or the
 * account) should hold against what the cashier counted. The till prints it
 * from its own orders and the server computes it from the orders it recorded,
 * with this one function, so both show the same numbers.
 *
 * - Sales are what each tender paid to its orders: cash handed over less the
 *   change given, mobile money and card as charged. Voided sales count for
 *   nothing (a void undoes the sale and its money).
 * - Refunds of the shift's orders are given back in cash first, up to the cash
 *   the order took, then to mobile money, then to card.
 * - Cash expected = opening float + cash sales − cash refunds + pay-ins − pay-outs
 *   + cash the front desk took into the drawer (a guest's deposit or folio
 *   payment in shillings; foreign cash is counted apart).
 * - A method with no count has `counted` and `difference` null and stays out
 *   of the counted totals.
 * - A shift belongs to a till (its drawer): every cashier who signs in while it
 *   is open sells into it, and `cashiers` shows each one's sales and refunds.
 * - A no-sale (the drawer opened with no sale) moves no money: it is counted,
 *   for the shift and for the cashier who opened the drawer, and nothing more.
 */
import type { TenderMethod } from './tender.ts';

export const TENDER_METHODS = ['cash', 'mobile_money', 'card'] as const satisfies readonly TenderMethod[];

export interface ZReportOrder {
  status: 'open' | 'paid' | 'partially_refunded' | 'refunded' | 'voided';
  /** Each tender's amount handed over. */
  tenders: ReadonlyArray<{ method: TenderMethod; amount: number }>;
  /** Change given back in cash. */
  changeDue: number;
  refundedAmount: number;
  /** Who rang the sale up; null or absent when the till did not say. */
  cashier?: string | null;
}

export interface ZReportInput {
  openingFloat: number;
  orders: readonly ZReportOrder[];
  cashMovements: ReadonlyArray<{ kind: 'pay_in' | 'pay_out'; amount: number }>;
  /** What the cashier counted at close, per method; absent before the close. */
  counted?: ReadonlyArray<{ method: TenderMethod; amount: number }> | undefined;
  /** Each time the drawer was opened with no sale, and who opened it (null when the till did not say). */
  noSales?: ReadonlyArray<{ cashier: string | null }> | undefined;
  /** Cash in shillings the front desk took into this drawer (deposits, folio payments), and who took it. */
  deskCash?: ReadonlyArray<{ amount: number; cashier: string | null }> | undefined;
}

export interface ZReportLine {
  method: TenderMethod;
  /** Handed over at the counter (cash before change). */
  taken: number;
  /** Cash given back as change (0 for other methods). */
  change: number;
  /** taken − change. */
  sales: number;
  refunds: number;
  /** Cash only: the opening float, pay-ins and pay-outs (0 for other methods). */
  float: number;
  payIns: number;
  payOuts: number;
  /** Cash only: taken at the front desk (0 for other methods). */
  desk: number;
  /** float + sales − refunds + payIns − payOuts + desk. */
  expected: number;
  counted: number | null;
  /** counted − expected: positive is over, negative is short. */
  difference: number | null;
}

/** One cashier's part of the shift: their sales (tenders less change) and the refunds of them. */
export interface ZReportCashier {
  /** The cashier's id as the orders name it; null for sales that name nobody. */
  cashier: string | null;
  orderCount: number;
  sales: number;
  refunds: number;
  /** How often they opened the drawer with no sale. */
  noSales: number;
  /** Cash they took at the front desk. */
  deskCash: number;
}

export interface ZReport {
  orderCount: number;
  voidedCount: number;
  /** Sales of all methods, before refunds. */
  salesTotal: number;
  refundsTotal: number;
  lines: ZReportLine[];
  expectedTotal: number;
  /** Of the methods counted; null when none was. */
  countedTotal: number | null;
  /** Sum of the counted methods' differences; null when none was counted. */
  differenceTotal: number | null;
  /** Per cashier, in the order they first sold (or, with no sale, first opened the drawer) in the shift. */
  cashiers: ZReportCashier[];
  /** Times the drawer was opened with no sale. */
  noSaleCount: number;
}

export type PerMethod = Record<TenderMethod, number>;
const zero = (): PerMethod => ({ cash: 0, mobile_money: 0, card: 0 });

/**
 * Refunds leave from cash first, up to the cash the order took, then mobile
 * money, then card: what each method gives back of `refunded`, the order's
 * refunds so far, against what each method paid for it.
 */
export function refundsByMethod(refunded: number, paid: PerMethod): PerMethod {
  const out = zero();
  let left = refunded;
  for (const method of TENDER_METHODS) {
    const share = Math.min(left, paid[method]);
    out[method] = share;
    left -= share;
  }
  // Refunds never exceed what was paid; anything over (bad data) shows as cash rather than vanishing.
  out.cash += left;
  return out;
}

export function zReport(input: ZReportInput): ZReport {
  const taken = zero();
  const change = zero();
  const refunds = zero();
  let orderCount = 0;
  let voidedCount = 0;
  const cashiers = new Map<string | null, ZReportCashier>();
  const partOf = (who: string | null): ZReportCashier => {
    let part = cashiers.get(who);
    if (!part) {
      part = { cashier: who, orderCount: 0, sales: 0, refunds: 0, noSales: 0, deskCash: 0 };
      cashiers.set(who, part);
    }
    return part;
  };
  for (const order of input.orders) {
    if (order.status === 'voided') {
      voidedCount++;
      continue;
    }
    if (order.status === 'open') continue;
    orderCount++;
    const paid = zero();
    for (const tender of order.tenders) {
      taken[tender.method] += tender.amount;
      paid[tender.method] += tender.amount;
    }
    change.cash += order.changeDue;
    paid.cash -= order.changeDue;
    const back = refundsByMethod(order.refundedAmount, paid);
    for (const method of TENDER_METHODS) refunds[method] += back[method];
    const who = order.cashier ?? null;
    const part = partOf(who);
    part.orderCount++;
    part.sales += TENDER_METHODS.reduce((total, method) => total + paid[method], 0);
    part.refunds += order.refundedAmount;
  }
  const noSales = input.noSales ?? [];
  for (const noSale of noSales) {
    partOf(noSale.cashier ?? null).noSales++;
  }
  let desk = 0;
  for (const payment of input.deskCash ?? []) {
    desk += payment.amount;
    partOf(payment.cashier ?? null).deskCash += payment.amount;
  }
  let payIns = 0;
  let payOuts = 0;
  for (const movement of input.cashMovements) {
    if (movement.kind === 'pay_in') payIns += movement.amount;
    else payOuts += movement.amount;
  }
  const counted = new Map<TenderMethod, number>();
  for (const entry of input.counted ?? [])
    counted.set(entry.method, (counted.get(entry.method) ?? 0) + entry.amount);

  const lines = TENDER_METHODS.map((method): ZReportLine => {
    const cash = method === 'cash';
    const sales = taken[method] - change[method];
    const line = {
      method,
      taken: taken[method],
      change: change[method],
      sales,
      refunds: refunds[method],
      float: cash ? input.openingFloat : 0,
      payIns: cash ? payIns : 0,
      payOuts: cash ? payOuts : 0,
      desk: cash ? desk : 0,
    };
    const expected = line.float + sales - line.refunds + line.payIns - line.payOuts + line.desk;
    const count = counted.get(method);
    return {
      ...line,
      expected,
      counted: count ?? null,
      difference: count === undefined ? null : count - expected,
    };
  });
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const countedLines = lines.filter((line) => line.counted !== null);
  const none = countedLines.length === 0;
  return {
    orderCount,
    voidedCount,
    salesTotal: sum(lines.map((line) => line.sales)),
    refundsTotal: sum(lines.map((line) => line.refunds)),
    lines,
    expectedTotal: sum(lines.map((line) => line.expected)),
    countedTotal: none ? null : sum(countedLines.map((line) => line.counted ?? 0)),
    differenceTotal: none ? null : sum(countedLines.map((line) => line.difference ?? 0)),
    cashiers: [...cashiers.values()],
    noSaleCount: noSales.length,
  };
}
