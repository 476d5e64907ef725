import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateTenders,
  buildRetailReceipt,
  commandPayloads,
  priceCart,
  storeReceiptSettings,
} from '@tz/core';
import type { CartLineInput, Discount, ProductId, VariantId } from '@tz/core';
import type { CartLine, CatalogueItem, TenderEntry } from '../api.ts';
import { fromWireDiscount, toCartInput, toOrderPayload, toTenderInputs } from './order-mapping.ts';
import type { StoredCart } from './order-mapping.ts';
import { STORE } from '../../../../test/till-data.ts';

const item = fc
  .record({
    n: fc.integer({ min: 1, max: 9999 }),
    variant: fc.boolean(),
    price: fc.integer({ min: 0, max: 2_000_000 }),
    unit: fc.constantFrom('piece', 'kg', 'litre', 'metre' as const),
    taxClass: fc.constantFrom('standard', 'zero_rated', 'exempt' as const),
  })
  .map(({ n, variant, price, unit, taxClass }): CatalogueItem => ({
    productId: `prod_${n}`,
    variantId: variant ? `var_${n}` : null,
    name: `Item ${n}`,
    sku: null,
    barcodes: [],
    price,
    currency: 'TZS',
    unit,
    taxClass,
    category: null,
    trackStock: false,
    onHandMilli: null,
  }));

/** A discount of at most `base`, the way a cashier could give one. */
const discountUpTo = (base: number) =>
  fc.oneof(
    fc.integer({ min: 0, max: 10_000 }).map((basisPoints): Discount => ({ type: 'percent', basisPoints })),
    fc.integer({ min: 0, max: base }).map((amount): Discount => ({ type: 'amount', amount })),
  );

const line = item.chain((catalogueItem) =>
  fc
    .record({
      quantity:
        catalogueItem.unit === 'piece'
          ? fc.integer({ min: 1, max: 40 }).map((q) => q * 1000)
          : fc.integer({ min: 1, max: 60_000 }),
      override: fc.option(fc.integer({ min: 0, max: 2_000_000 }), { nil: null }),
      discounted: fc.boolean(),
      key: fc.uuid(),
    })
    .chain(({ quantity, override, discounted, key }) => {
      const gross = Math.round(((override ?? catalogueItem.price) * quantity) / 1000);
      return (discounted ? discountUpTo(gross) : fc.constant(null)).map((discount): CartLine => ({
        key,
        item: catalogueItem,
        quantityMilli: quantity,
        discount,
        priceOverride: override === null ? null : { unitPrice: override, reason: 'damaged box' },
      }));
    }),
);

// One catalogue entry per product or variant, as on the server.
const lines = fc.uniqueArray(line, {
  selector: (l) => `${l.item.productId}/${l.item.variantId ?? ''}`,
  minLength: 1,
  maxLength: 12,
});

const cart = lines.chain((lines) => {
  const plain: StoredCart = {
    saleId: 'sale',
    lines,
    orderDiscount: null,
    customer: null,
    discountApprovedBy: null,
  };
  const subtotal = priceCart(toCartInput(plain, STORE)).subtotal;
  return fc
    .option(discountUpTo(subtotal), { nil: null })
    .map((orderDiscount): StoredCart => ({ ...plain, orderDiscount }));
});

/** What the server does with an `order.create` payload: parse it with the command's schema, price it from its catalogue. */
function serverPrices(payload: unknown, catalogue: Map<string, CatalogueItem>) {
  const order = commandPayloads['order.create'].parse(payload);
  const lines = order.lines.map((wire): CartLineInput => {
    const known = catalogue.get(`${wire.product}/${wire.variant ?? ''}`);
    if (!known) throw new Error(`unknown product ${wire.product}`);
    const input: CartLineInput = {
      productId: wire.product as ProductId,
      description: known.name,
      unitPrice: known.price,
      unit: known.unit,
      quantityMilli: wire.quantity_milli,
      taxClass: known.taxClass,
    };
    if (wire.variant !== undefined) input.variantId = wire.variant as VariantId;
    if (wire.price_override)
      input.priceOverride = { unitPrice: wire.price_override.unit_price, reason: wire.price_override.reason };
    if (wire.discount) input.discount = fromWireDiscount(wire.discount);
    return input;
  });
  return priceCart({
    currency: 'TZS',
    vatRegion: STORE.vat_region,
    lines,
    ...(order.discount ? { orderDiscount: fromWireDiscount(order.discount) } : {}),
  });
}

describe('the order.create payload', () => {
  it('prices on the server to exactly what the till charged, for 1,000 random carts', () => {
    fc.assert(
      fc.property(cart, (stored) => {
        const till = priceCart(toCartInput(stored, STORE));
        const payload = toOrderPayload(stored, {
          clientOrderId: '01JDTESTCLIENTORDER0000000',
          store: 'store_1',
          till: { id: 'till_1', name: 'Counter 1' },
          cashier: { id: 'emp_1', name: 'Neema' },
          receiptNumber: 'T01-000001',
          currency: 'TZS',
          soldAt: 1_764_147_600,
          tenders: till.total > 0 ? [{ method: 'cash', amount: till.total }] : [],
        });
        const catalogue = new Map(
          stored.lines.map((l) => [`${l.item.productId}/${l.item.variantId ?? ''}`, l.item]),
        );
        const server = serverPrices(payload, catalogue);
        expect(server.total).toBe(till.total);
        expect(server.taxTotal).toBe(till.taxTotal);
        expect(server.orderDiscount).toBe(till.orderDiscount);
        expect(server.lines.map((l) => [l.total, l.tax])).toEqual(till.lines.map((l) => [l.total, l.tax]));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('a sale charged to a guest room', () => {
  const soda: CatalogueItem = {
    productId: 'prod_soda',
    variantId: null,
    name: 'Soda',
    sku: null,
    barcodes: [],
    price: 12_000,
    currency: 'TZS',
    unit: 'piece',
    taxClass: 'standard',
    category: null,
    trackStock: false,
    onHandMilli: null,
  };
  const stored: StoredCart = {
    saleId: '01JDTESTCLIENTORDER0000000',
    lines: [{ key: 'l1', item: soda, quantityMilli: 2000, priceOverride: null, discount: null }],
    orderDiscount: null,
    customer: null,
    discountApprovedBy: null,
  };
  const total = priceCart(toCartInput(stored, STORE)).total;
  const tenders: TenderEntry[] = [
    { method: 'cash', amount: 4_000 },
    {
      method: 'room',
      amount: total - 4_000,
      reservation: 'resv_01JDROOMSTAY0000000000000',
      room: '101',
      guest: 'Amina Juma',
    },
  ];

  it('carries the stay in the order command, for the server to post to its folio', () => {
    const payload = toOrderPayload(stored, {
      clientOrderId: '01JDTESTCLIENTORDER0000000',
      store: 'store_1',
      till: { id: 'till_1', name: 'Counter 1' },
      cashier: { id: 'emp_1', name: 'Neema' },
      receiptNumber: 'T01-000001',
      currency: 'TZS',
      soldAt: 1_764_147_600,
      tenders,
    });
    expect(payload.tenders).toEqual([
      { method: 'cash', amount: 4_000 },
      { method: 'room', amount: total - 4_000, reservation: 'resv_01JDROOMSTAY0000000000000' },
    ]);
    expect(commandPayloads['order.create'].safeParse(payload).success).toBe(true);
  });

  it('prints a receipt line naming the room, in English and Swahili', () => {
    const priced = priceCart(toCartInput(stored, STORE));
    const allocation = allocateTenders({
      currency: priced.currency,
      amountDue: priced.total,
      tenders: toTenderInputs(tenders),
    });
    const lines = (['en', 'sw'] as const).map((language) => {
      const receipt = buildRetailReceipt({
        order: priced,
        tenders: allocation,
        store: { ...storeReceiptSettings(STORE), receiptLanguage: language },
        receiptNumber: 'T01-000001',
        issuedAt: new Date(1_764_147_600_000),
        cashier: 'Neema',
        till: 'Counter 1',
      });
      return receipt.tenders.at(-1);
    });
    expect(lines).toEqual([
      { label: 'Charged to room', amount: total - 4_000, reference: '101' },
      { label: 'Kwenye bili ya chumba', amount: total - 4_000, reference: '101' },
    ]);
  });
});
