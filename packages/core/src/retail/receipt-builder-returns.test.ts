import { describe, expect, it } from 'vitest';
import type { PaymentId } from '../ids.ts';
import type { ReceiptDocument } from '../receipt.ts';
import { priceCart, type CartInput, type ProductId } from './pricing.ts';
import { buildRetailReceipt } from './receipt-builder.ts';
import { buildRefundSlip, buildVoidSlip } from './receipt-builder-returns.ts';
import { planRefund } from './refund.ts';
import { allocateTenders } from './tender.ts';

const cart: CartInput = {
  currency: 'TZS',
  lines: [
    {
      productId: 'prod_rice' as ProductId,
      description: 'Mchele',
      unit: 'kg',
      unitPrice: 3_000,
      quantityMilli: 2_000,
      taxRateBasisPoints: 0,
    },
    {
      productId: 'prod_soap' as ProductId,
      description: 'Sabuni',
      unitPrice: 2_360,
      quantityMilli: 3_000,
      taxRateBasisPoints: 1_800,
    },
  ],
};

/** 6,000 of rice and 7,080 of soap: 13,080, paid 5,000 by M-Pesa and 10,000 cash (1,920 change). */
function makeSale(language: 'sw' | 'en' = 'sw'): {
  receipt: ReceiptDocument;
  priced: ReturnType<typeof priceCart>;
} {
  const priced = priceCart(cart);
  const receipt = buildRetailReceipt({
    order: priced,
    tenders: allocateTenders({
      currency: 'TZS',
      amountDue: priced.total,
      tenders: [
        { method: 'mobile_money', amount: 5_000, paymentId: 'pay_01jq' as PaymentId, network: 'mpesa' },
        { method: 'cash', amount: 10_000 },
      ],
    }),
    store: {
      name: 'Duka la Mama Asha',
      addressLines: [],
      vatRegion: 'mainland',
      receiptHeaderLines: [],
      receiptFooterLines: ['Asante'],
      receiptLanguage: language,
    },
    receiptNumber: 'T01-000123',
    issuedAt: new Date('2026-11-25T11:03:00Z'),
    cashier: 'Neema',
    till: 'Kaunta 1',
    qrPayload: 'https://pay.example.tz/r/T01-000123',
  });
  return { receipt, priced };
}

const PAID = { cash: 8_080, mobile_money: 5_000, card: 0 };
const refundable = (priced: ReturnType<typeof priceCart>) =>
  priced.lines.map((line) => ({
    unit: line.unit,
    quantityMilli: line.quantityMilli,
    total: line.total,
    tax: line.tax,
    refundedQuantityMilli: 0,
  }));

describe('refund slip', () => {
  it('names the sale and lists what each refunded line gives back, its VAT, and cash first', () => {
    const { receipt, priced } = makeSale();
    const plan = planRefund(refundable(priced), [
      { line: 1, quantityMilli: 2_000 },
      { line: 0, quantityMilli: 500 },
    ]);
    const slip = buildRefundSlip({
      sale: receipt,
      paid: PAID,
      lines: plan.lines.map((line) => ({ ...line, unit: priced.lines[line.line]!.unit })),
      refundedBefore: 0,
      issuedAt: new Date('2026-11-26T07:30:00Z'),
      cashier: 'Juma',
      approvedBy: 'Bi. Asha',
    });
    expect(slip).toMatchObject({
      kind: 'refund',
      title: 'MAREJESHO',
      receiptNumber: 'T01-000123',
      issuedAt: '2026-11-26T10:30:00+03:00',
      cashier: 'Juma',
      approvedBy: { label: 'Imeidhinishwa na', name: 'Bi. Asha' },
      till: 'Kaunta 1',
      total: plan.amount,
      subtotal: plan.amount,
      change: 0,
      footerLines: [],
      tenders: [{ label: 'Taslimu', amount: 6_220 }],
      labels: { receipt: 'Risiti ya awali', total: 'IMEREJESHWA' },
    });
    expect(slip.lines).toEqual([
      {
        description: 'Sabuni',
        quantityText: '2',
        quantityMilli: 2_000,
        unitPrice: 2_360,
        total: 4_720,
        taxCode: 'A',
      },
      {
        description: 'Mchele',
        quantityText: '0.500 kg',
        quantityMilli: 500,
        unitPrice: 3_000,
        total: 1_500,
        taxCode: 'B',
      },
    ]);
    expect(slip.taxLines).toEqual([
      {
        code: 'A',
        label: 'Kodi (VAT) 18%',
        rateBasisPoints: 1_800,
        net: 4_720 - plan.lines[0]!.tax,
        tax: plan.lines[0]!.tax,
      },
      { code: 'B', label: 'Kodi (VAT) 0%', rateBasisPoints: 0, net: 1_500, tax: 0 },
    ]);
    expect(slip.qrPayload).toBeUndefined();
  });

  it('gives back mobile money once the cash the sale took has gone back in earlier refunds', () => {
    const { receipt, priced } = makeSale('en');
    const plan = planRefund(refundable(priced), [{ line: 0, quantityMilli: 2_000 }]);
    const slip = buildRefundSlip({
      sale: receipt,
      paid: PAID,
      lines: plan.lines.map((line) => ({ ...line, unit: 'kg' as const })),
      refundedBefore: 7_080,
      issuedAt: new Date('2026-11-26T07:30:00Z'),
    });
    expect(slip.tenders).toEqual([
      { label: 'Cash', amount: 1_000 },
      { label: 'Mobile money', amount: 5_000 },
    ]);
    expect(slip).toMatchObject({
      title: 'REFUND',
      labels: { receipt: 'Original receipt', total: 'REFUNDED' },
    });
    expect(slip.cashier).toBeUndefined();
  });
});

describe('void slip', () => {
  it('is short: the sale, its total and VAT, and everything each tender took', () => {
    const { receipt } = makeSale();
    const slip = buildVoidSlip({
      sale: receipt,
      paid: PAID,
      issuedAt: new Date('2026-11-25T11:10:00Z'),
      cashier: 'Neema',
      approvedBy: 'Bi. Asha',
    });
    expect(slip).toMatchObject({
      kind: 'void',
      title: 'IMEBATILISHWA',
      receiptNumber: 'T01-000123',
      lines: [],
      total: 13_080,
      taxLines: receipt.taxLines,
      tenders: [
        { label: 'Taslimu', amount: 8_080 },
        { label: 'Pesa kwa simu', amount: 5_000 },
      ],
    });
  });
});
