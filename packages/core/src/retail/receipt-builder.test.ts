import { describe, expect, it } from 'vitest';
import type { PaymentId } from '../ids.ts';
import { priceCart } from './pricing.ts';
import type { CartInput, PricedCart, ProductId } from './pricing.ts';
import { buildRetailReceipt, formatQuantity, receiptCopy } from './receipt-builder.ts';
import type { RetailReceiptInput, StoreReceiptSettings } from './receipt-builder.ts';
import { allocateTenders } from './tender.ts';

function makeStore(overrides: Partial<StoreReceiptSettings> = {}): StoreReceiptSettings {
  return {
    name: 'Duka la Mama Asha',
    addressLines: ['Mtaa wa Uhuru 12', 'Kariakoo, Dar es Salaam'],
    phone: '+255 754 123 456',
    tin: '123-456-789',
    vrn: '40-012345-A',
    vatRegion: 'mainland',
    receiptHeaderLines: ['Karibu!'],
    receiptFooterLines: ['Asante kwa kununua'],
    receiptLanguage: 'sw',
    ...overrides,
  };
}

const cartInput: CartInput = {
  currency: 'TZS',
  lines: [
    {
      productId: 'prod_rice' as ProductId,
      description: 'Mchele',
      unit: 'kg',
      unitPrice: 3_000,
      quantityMilli: 750,
      taxRateBasisPoints: 0,
    },
    {
      productId: 'prod_soap' as ProductId,
      description: 'Sabuni',
      unitPrice: 2_360,
      quantityMilli: 2_000,
      taxRateBasisPoints: 1_800,
      discount: { type: 'percent', basisPoints: 1_000 },
    },
  ],
  orderDiscount: { type: 'amount', amount: 498 },
};

function makeInput(
  overrides: Partial<RetailReceiptInput> = {},
  order: PricedCart = priceCart(cartInput),
): RetailReceiptInput {
  return {
    order,
    tenders: allocateTenders({
      currency: 'TZS',
      amountDue: order.total,
      tenders: [
        {
          method: 'mobile_money',
          amount: 3_000,
          paymentId: 'pay_01jq' as PaymentId,
          network: 'mpesa',
          reference: 'QK7H2L9XZ1',
          phone: '255712345678',
        },
        { method: 'cash', amount: 5_000 },
      ],
    }),
    store: makeStore(),
    receiptNumber: 'T01-000123',
    issuedAt: new Date('2026-11-25T11:03:00Z'),
    cashier: 'Neema',
    till: 'T01',
    qrPayload: 'https://pay.example.tz/r/T01-000123',
    ...overrides,
  };
}

describe('buildRetailReceipt', () => {
  it('builds a Swahili receipt from a priced order, tenders and store settings', () => {
    // rice 0.750 kg × 3,000 = 2,250 (exempt); soap 2 × 2,360 = 4,720 less 10% = 4,248;
    // subtotal 6,498, order discount 498 split 172 / 326 -> total 6,000
    expect(buildRetailReceipt(makeInput())).toEqual({
      language: 'sw',
      currency: 'TZS',
      store: {
        name: 'Duka la Mama Asha',
        addressLines: ['Mtaa wa Uhuru 12', 'Kariakoo, Dar es Salaam'],
        phone: '+255 754 123 456',
        tin: '123-456-789',
        vrn: '40-012345-A',
        headerLines: ['Karibu!'],
      },
      receiptNumber: 'T01-000123',
      issuedAt: '2026-11-25T14:03:00+03:00',
      cashier: 'Neema',
      till: 'T01',
      lines: [
        {
          description: 'Mchele',
          quantityText: '0.750 kg',
          quantityMilli: 750,
          unitPrice: 3_000,
          total: 2_250,
          taxCode: 'B',
        },
        {
          description: 'Sabuni',
          quantityText: '2',
          quantityMilli: 2_000,
          unitPrice: 2_360,
          total: 4_248,
          discount: { label: 'Punguzo 10%', amount: 472 },
          taxCode: 'A',
        },
      ],
      subtotal: 6_498,
      orderDiscount: { label: 'Punguzo la jumla', amount: 498 },
      taxLines: [
        { code: 'A', label: 'Kodi (VAT) 18%', rateBasisPoints: 1_800, net: 3_324, tax: 598 },
        { code: 'B', label: 'Kodi (VAT) 0%', rateBasisPoints: 0, net: 2_078, tax: 0 },
      ],
      total: 6_000,
      tenders: [
        { label: 'M-Pesa', amount: 3_000, reference: 'QK7H2L9XZ1' },
        { label: 'Taslimu', amount: 5_000 },
      ],
      change: 2_000,
      qrPayload: 'https://pay.example.tz/r/T01-000123',
      footerLines: ['Asante kwa kununua'],
      labels: expect.objectContaining({ total: 'JUMLA', change: 'Chenji' }),
    });
  });

  it('uses English words for an English store and leaves out what is not set', () => {
    const order = priceCart({ ...cartInput, orderDiscount: undefined });
    const receipt = buildRetailReceipt({
      order,
      tenders: allocateTenders({
        currency: 'TZS',
        amountDue: order.total,
        tenders: [{ method: 'card', amount: order.total, reference: 'AUTH-1' }],
      }),
      store: makeStore({ receiptLanguage: 'en', phone: undefined, tin: undefined, vrn: undefined }),
      receiptNumber: 'T02-000001',
      issuedAt: new Date('2026-01-01T00:00:00Z'),
    });
    expect(receipt.labels.total).toBe('TOTAL');
    expect(receipt.taxLines.map((line) => line.label)).toEqual(['VAT 18%', 'VAT 0%']);
    expect(receipt.lines[1]?.discount?.label).toBe('Discount 10%');
    expect(receipt.tenders).toEqual([{ label: 'Card', amount: 6_498, reference: 'AUTH-1' }]);
    expect(receipt).not.toHaveProperty('orderDiscount');
    expect(receipt).not.toHaveProperty('cashier');
    expect(receipt.store).not.toHaveProperty('tin');
    expect(receipt.issuedAt).toBe('2026-01-01T03:00:00+03:00');
  });

  it('adds the receipt up: line totals less the order discount, and tax lines, both make the total', () => {
    const receipt = buildRetailReceipt(makeInput());
    const lineSum = receipt.lines.reduce((sum, line) => sum + line.total, 0);
    expect(lineSum - (receipt.orderDiscount?.amount ?? 0)).toBe(receipt.total);
    expect(receipt.taxLines.reduce((sum, line) => sum + line.net + line.tax, 0)).toBe(receipt.total);
  });

  it('refuses a malformed receipt number and tenders for another order', () => {
    expect(() => buildRetailReceipt(makeInput({ receiptNumber: '123' }))).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', details: { receiptNumber: expect.any(String) } }),
    );
    const other = priceCart({ ...cartInput, orderDiscount: undefined });
    expect(() => buildRetailReceipt(makeInput({ order: other }))).toThrow(
      expect.objectContaining({
        code: 'parameter_invalid',
        details: { 'tenders.amountDue': expect.any(String) },
      }),
    );
  });
});

describe('formatQuantity', () => {
  it.each([
    [2_000, 'piece', '2'],
    [750, 'kg', '0.750 kg'],
    [1_500, 'litre', '1.500 l'],
    [12_050, 'metre', '12.050 m'],
  ] as const)('shows %i thousandths of %s as %s', (quantityMilli, unit, text) => {
    expect(formatQuantity(quantityMilli, unit, 'en')).toBe(text);
  });
});

describe('buildRetailReceipt and the store region', () => {
  it('prints the region’s standard rate for a cart priced by tax class, and refuses another region’s store', () => {
    const order = priceCart({
      currency: 'TZS',
      vatRegion: 'zanzibar',
      lines: [
        {
          productId: 'prod_tea' as ProductId,
          description: 'Chai',
          unitPrice: 1_150,
          quantityMilli: 2_000,
          taxClass: 'standard',
        },
      ],
    });
    const tenders = allocateTenders({
      currency: 'TZS',
      amountDue: order.total,
      tenders: [{ method: 'cash', amount: 5_000 }],
    });
    const receipt = buildRetailReceipt(
      makeInput({ order, tenders, store: makeStore({ vatRegion: 'zanzibar', receiptLanguage: 'en' }) }),
    );
    expect(receipt.taxLines).toEqual([
      { code: 'A', label: 'VAT 15%', rateBasisPoints: 1_500, net: 2_000, tax: 300 },
    ]);
    expect(() =>
      buildRetailReceipt(makeInput({ order, tenders, store: makeStore({ vatRegion: 'mainland' }) })),
    ).toThrow(expect.objectContaining({ details: { 'store.vatRegion': expect.any(String) } }));
  });
});

describe('mobile money references and reprints', () => {
  const mobileMoney = (extra: { reference?: string; phone?: string }) => {
    const order = priceCart(cartInput);
    return buildRetailReceipt(
      makeInput({
        tenders: allocateTenders({
          currency: 'TZS',
          amountDue: order.total,
          tenders: [
            { method: 'mobile_money', amount: order.total, paymentId: 'pay_01jq' as PaymentId, ...extra },
          ],
        }),
      }),
    ).tenders;
  };

  it('shows the provider’s reference, never the internal payment id', () => {
    expect(mobileMoney({ reference: 'sbx_01jq', phone: '255712345678' })).toEqual([
      { label: 'Pesa kwa simu', amount: 6_000, reference: 'sbx_01jq' },
    ]);
  });

  it('shows the payer’s number, masked, while the reference is not known, and nothing when neither is', () => {
    expect(mobileMoney({ phone: '255712345678' })[0]!.reference).toBe('0712***678');
    expect(mobileMoney({})[0]).toEqual({ label: 'Pesa kwa simu', amount: 6_000 });
  });

  it('marks a copy in the receipt’s language, and the first print not at all', () => {
    const first = buildRetailReceipt(makeInput());
    expect(first.copyMark).toBeUndefined();
    expect(buildRetailReceipt(makeInput({ copy: true })).copyMark).toBe('NAKALA');
    expect(receiptCopy(first)).toEqual({ ...first, copyMark: 'NAKALA' });
    const english = buildRetailReceipt(makeInput({ store: makeStore({ receiptLanguage: 'en' }) }));
    expect(receiptCopy(english).copyMark).toBe('COPY');
  });
});
