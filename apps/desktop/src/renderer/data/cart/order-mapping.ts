/**
 * The till's cart in core's terms, and the sale as the `order.create` command
 * the server applies. Pure functions: the property test checks that the
 * payload, read back the way the server reads it, prices to the same totals.
 */
import type {
  CartInput,
  CartLineInput,
  Currency,
  Discount,
  PaymentId,
  ProductId,
  StoreSettings,
  TenderInput,
  TillOrderWire,
  VariantId,
  WireDiscount,
} from '@tz/core';
import type { CartLine, TenderEntry } from '../api.ts';

/** What the cart keeps between edits (and reloads). */
export interface StoredCart {
  /** The sale's client order id, fixed at the first edit: completing the same cart twice finds the sale already made. */
  saleId: string | null;
  lines: CartLine[];
  orderDiscount: Discount | null;
  customer: string | null;
  /** The manager who approved an order discount above the threshold. */
  discountApprovedBy: string | null;
}

export const EMPTY_CART: StoredCart = {
  saleId: null,
  lines: [],
  orderDiscount: null,
  customer: null,
  discountApprovedBy: null,
};

type StoreForPricing = Pick<StoreSettings, 'currency' | 'vat_region'>;

export function toCartInput(cart: StoredCart, store: StoreForPricing): CartInput {
  const lines = cart.lines.map((line): CartLineInput => {
    const input: CartLineInput = {
      productId: line.item.productId as ProductId,
      description: line.item.name,
      unitPrice: line.item.price,
      currency: line.item.currency as Currency,
      unit: line.item.unit,
      quantityMilli: line.quantityMilli,
      taxClass: line.item.taxClass,
    };
    if (line.item.variantId !== null) input.variantId = line.item.variantId as VariantId;
    if (line.priceOverride) input.priceOverride = { ...line.priceOverride };
    if (line.discount) input.discount = { ...line.discount };
    return input;
  });
  const input: CartInput = { currency: store.currency as Currency, vatRegion: store.vat_region, lines };
  if (cart.orderDiscount) input.orderDiscount = { ...cart.orderDiscount };
  return input;
}

export function toWireDiscount(discount: Discount): WireDiscount {
  return discount.type === 'percent'
    ? { type: 'percent', basis_points: discount.basisPoints }
    : { type: 'amount', amount: discount.amount };
}

export function fromWireDiscount(discount: WireDiscount): Discount {
  return discount.type === 'percent'
    ? { type: 'percent', basisPoints: discount.basis_points }
    : { type: 'amount', amount: discount.amount };
}

/** Core's tender inputs for allocation and the receipt. */
export function toTenderInputs(tenders: readonly TenderEntry[]): TenderInput[] {
  return tenders.map((tender): TenderInput => {
    switch (tender.method) {
      case 'cash':
        return { method: 'cash', amount: tender.amount };
      case 'card':
        return { method: 'card', amount: tender.amount, reference: tender.reference };
      case 'mobile_money': {
        const input: TenderInput = {
          method: 'mobile_money',
          amount: tender.amount,
          paymentId: tender.payment as PaymentId,
        };
        if (tender.network !== undefined) input.network = tender.network;
        return input;
      }
      case 'room':
        return { method: 'room', amount: tender.amount, reservation: tender.reservation, room: tender.room };
    }
  });
}

export interface SaleFacts {
  clientOrderId: string;
  store: string;
  /** Who sold: by id, and by name as the receipt prints them. */
  till: { id: string; name: string };
  cashier: { id: string; name: string };
  receiptNumber: string;
  currency: string;
  /** Unix seconds. */
  soldAt: number;
  tenders: readonly TenderEntry[];
  /** The shift the sale was rung up in (its Z report counts it). */
  shift?: string | undefined;
}

/** The `order.create` payload: the REST order body with who sold by id and name, quantities in thousandths. */
export function toOrderPayload(cart: StoredCart, facts: SaleFacts): TillOrderWire {
  const payload: TillOrderWire = {
    client_order_id: facts.clientOrderId,
    store: facts.store,
    till_id: facts.till.id,
    till_name: facts.till.name,
    cashier_id: facts.cashier.id,
    cashier_name: facts.cashier.name,
    receipt_number: facts.receiptNumber,
    currency: facts.currency,
    sold_at: facts.soldAt,
    ...(facts.shift !== undefined ? { shift: facts.shift } : {}),
    lines: cart.lines.map((line) => {
      const wire: TillOrderWire['lines'][number] = {
        product: line.item.productId,
        quantity_milli: line.quantityMilli,
        // The price this till charged: a sale made offline at yesterday's price is recorded at it, flagged.
        unit_price: line.item.price,
      };
      if (line.item.variantId !== null) wire.variant = line.item.variantId;
      if (line.priceOverride) {
        wire.price_override = { unit_price: line.priceOverride.unitPrice, reason: line.priceOverride.reason };
      }
      if (line.discount) wire.discount = toWireDiscount(line.discount);
      return wire;
    }),
    tenders: facts.tenders.map((tender) => {
      switch (tender.method) {
        case 'cash':
          return { method: 'cash', amount: tender.amount };
        case 'card':
          return { method: 'card', amount: tender.amount, reference: tender.reference };
        case 'mobile_money':
          return { method: 'mobile_money', payment: tender.payment, amount: tender.amount };
        case 'room':
          return { method: 'room', amount: tender.amount, reservation: tender.reservation };
      }
    }),
  };
  if (cart.customer !== null) payload.customer = cart.customer;
  if (cart.orderDiscount) payload.discount = toWireDiscount(cart.orderDiscount);
  if (cart.discountApprovedBy !== null) payload.metadata = { discount_approved_by: cart.discountApprovedBy };
  return payload;
}
