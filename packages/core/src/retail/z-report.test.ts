import { describe, expect, it } from 'vitest';
import { zReport, type ZReportOrder } from './z-report.ts';

const sale = (overrides: Partial<ZReportOrder> = {}): ZReportOrder => ({
  status: 'paid',
  tenders: [{ method: 'cash', amount: 10_000 }],
  changeDue: 0,
  refundedAmount: 0,
  ...overrides,
});

describe('Z report', () => {
  it('expects the float plus cash sales net of change, refunds and pay-ins/outs in the drawer', () => {
    const report = zReport({
      openingFloat: 50_000,
      orders: [
        sale({ tenders: [{ method: 'cash', amount: 10_000 }], changeDue: 1_500 }), // 8,500
        sale({
          tenders: [{ method: 'cash', amount: 20_000 }],
          changeDue: 0,
          status: 'partially_refunded',
          refundedAmount: 4_000,
        }),
        sale({ tenders: [{ method: 'mobile_money', amount: 7_000 }] }),
        sale({ tenders: [{ method: 'card', amount: 3_000 }] }),
      ],
      cashMovements: [
        { kind: 'pay_in', amount: 5_000 },
        { kind: 'pay_out', amount: 2_000 },
        { kind: 'pay_out', amount: 1_000 },
      ],
      counted: [
        { method: 'cash', amount: 76_000 },
        { method: 'mobile_money', amount: 7_000 },
      ],
    });
    const cash = report.lines.find((line) => line.method === 'cash')!;
    // 50,000 + (30,000 - 1,500) - 4,000 + 5,000 - 3,000 = 76,500
    expect(cash).toEqual({
      method: 'cash',
      taken: 30_000,
      change: 1_500,
      sales: 28_500,
      refunds: 4_000,
      float: 50_000,
      payIns: 5_000,
      payOuts: 3_000,
      desk: 0,
      expected: 76_500,
      counted: 76_000,
      difference: -500,
    });
    expect(report.lines.find((line) => line.method === 'mobile_money')).toMatchObject({
      sales: 7_000,
      expected: 7_000,
      difference: 0,
    });
    expect(report.lines.find((line) => line.method === 'card')).toMatchObject({
      sales: 3_000,
      expected: 3_000,
      counted: null,
      difference: null,
    });
    expect(report).toMatchObject({
      orderCount: 4,
      voidedCount: 0,
      salesTotal: 38_500,
      refundsTotal: 4_000,
      expectedTotal: 86_500,
      countedTotal: 83_000,
      differenceTotal: -500,
    });
  });

  it('leaves voided sales out entirely', () => {
    const report = zReport({
      openingFloat: 0,
      orders: [
        sale(),
        sale({ status: 'voided', tenders: [{ method: 'cash', amount: 99_000 }], changeDue: 1_000 }),
      ],
      cashMovements: [],
    });
    expect(report.orderCount).toBe(1);
    expect(report.voidedCount).toBe(1);
    expect(report.lines[0]).toMatchObject({ method: 'cash', taken: 10_000, change: 0, expected: 10_000 });
  });

  it('gives refunds back in cash up to the cash the sale took, then to mobile money', () => {
    const report = zReport({
      openingFloat: 0,
      orders: [
        sale({
          status: 'refunded',
          tenders: [
            { method: 'mobile_money', amount: 6_000 },
            { method: 'cash', amount: 5_000 },
          ],
          changeDue: 1_000, // cash paid 4,000 of the 10,000 total
          refundedAmount: 10_000,
        }),
      ],
      cashMovements: [],
    });
    const [cash, mobile, card] = report.lines;
    expect(cash).toMatchObject({ sales: 4_000, refunds: 4_000, expected: 0 });
    expect(mobile).toMatchObject({ sales: 6_000, refunds: 6_000, expected: 0 });
    expect(card).toMatchObject({ sales: 0, refunds: 0, expected: 0 });
    expect(report.refundsTotal).toBe(10_000);
  });

  it('adds up: the expected total is the float plus sales less refunds plus net cash movements', () => {
    const orders = Array.from({ length: 40 }, (_, i) =>
      sale({
        tenders: [
          { method: i % 3 === 0 ? 'card' : 'cash', amount: 1_000 + i * 37 },
          { method: 'mobile_money', amount: 500 + i },
        ],
        changeDue: i % 3 === 0 ? 0 : i * 11,
        refundedAmount: i % 5 === 0 ? 300 : 0,
        status: i % 7 === 0 ? 'voided' : i % 5 === 0 ? 'partially_refunded' : 'paid',
      }),
    );
    const report = zReport({
      openingFloat: 20_000,
      orders,
      cashMovements: [
        { kind: 'pay_in', amount: 700 },
        { kind: 'pay_out', amount: 450 },
      ],
    });
    expect(report.expectedTotal).toBe(20_000 + report.salesTotal - report.refundsTotal + 700 - 450);
    expect(report.countedTotal).toBeNull();
    for (const line of report.lines) expect(line.sales).toBe(line.taken - line.change);
  });

  it('splits one till shift by the cashiers who sold in it, and the parts add up to the whole', () => {
    const report = zReport({
      openingFloat: 10_000,
      orders: [
        sale({ cashier: 'emp_asha', tenders: [{ method: 'cash', amount: 5_000 }], changeDue: 500 }),
        sale({ cashier: 'emp_baraka', tenders: [{ method: 'mobile_money', amount: 7_000 }] }),
        sale({ cashier: 'emp_asha', status: 'partially_refunded', refundedAmount: 1_000 }),
        sale({ cashier: 'emp_baraka', status: 'voided', tenders: [{ method: 'cash', amount: 99_000 }] }),
        sale({ tenders: [{ method: 'card', amount: 2_000 }] }),
      ],
      cashMovements: [],
    });
    expect(report.cashiers).toEqual([
      { cashier: 'emp_asha', orderCount: 2, sales: 14_500, refunds: 1_000, noSales: 0, deskCash: 0 },
      { cashier: 'emp_baraka', orderCount: 1, sales: 7_000, refunds: 0, noSales: 0, deskCash: 0 },
      { cashier: null, orderCount: 1, sales: 2_000, refunds: 0, noSales: 0, deskCash: 0 },
    ]);
    expect(report.noSaleCount).toBe(0);
    const sum = (key: 'orderCount' | 'sales' | 'refunds') =>
      report.cashiers.reduce((total, part) => total + part[key], 0);
    expect(sum('orderCount')).toBe(report.orderCount);
    expect(sum('sales')).toBe(report.salesTotal);
    expect(sum('refunds')).toBe(report.refundsTotal);
  });

  it('counts each no-sale for the shift and for the cashier who opened the drawer, moving no money', () => {
    const orders = [
      sale({ cashier: 'emp_asha', tenders: [{ method: 'cash', amount: 5_000 }], changeDue: 500 }),
      sale({ cashier: 'emp_baraka', tenders: [{ method: 'mobile_money', amount: 7_000 }] }),
    ];
    const cashMovements = [{ kind: 'pay_out' as const, amount: 1_000 }];
    const counted = [{ method: 'cash' as const, amount: 13_500 }];
    const without = zReport({ openingFloat: 10_000, orders, cashMovements, counted });
    const report = zReport({
      openingFloat: 10_000,
      orders,
      cashMovements,
      counted,
      noSales: [
        { cashier: 'emp_baraka' },
        { cashier: 'emp_juma' },
        { cashier: 'emp_baraka' },
        { cashier: null },
      ],
    });
    expect(report.noSaleCount).toBe(4);
    expect(report.cashiers).toEqual([
      { cashier: 'emp_asha', orderCount: 1, sales: 4_500, refunds: 0, noSales: 0, deskCash: 0 },
      { cashier: 'emp_baraka', orderCount: 1, sales: 7_000, refunds: 0, noSales: 2, deskCash: 0 },
      // Opened the drawer and sold nothing: still named, after those who sold.
      { cashier: 'emp_juma', orderCount: 0, sales: 0, refunds: 0, noSales: 1, deskCash: 0 },
      { cashier: null, orderCount: 0, sales: 0, refunds: 0, noSales: 1, deskCash: 0 },
    ]);
    // The money is as it was without them.
    const { cashiers: _a, noSaleCount: _b, ...money } = report;
    const { cashiers: _c, noSaleCount: _d, ...moneyWithout } = without;
    expect(money).toEqual(moneyWithout);
    expect(without.noSaleCount).toBe(0);
  });

  it('expects the cash a front desk took into the drawer, for the shift and for who took it', () => {
    const report = zReport({
      openingFloat: 20_000,
      orders: [sale({ cashier: 'emp_a' })],
      cashMovements: [],
      deskCash: [
        { amount: 50_000, cashier: 'emp_b' },
        { amount: 7_500, cashier: 'emp_a' },
      ],
      counted: [{ method: 'cash', amount: 87_000 }],
    });
    const cash = report.lines.find((line) => line.method === 'cash')!;
    expect(cash).toMatchObject({ desk: 57_500, sales: 10_000, expected: 87_500, difference: -500 });
    expect(report.lines.filter((line) => line.method !== 'cash').map((line) => line.desk)).toEqual([0, 0]);
    // Desk cash is not a sale: the shift's sales stay the counter's.
    expect(report.salesTotal).toBe(10_000);
    expect(report.cashiers).toEqual([
      { cashier: 'emp_a', orderCount: 1, sales: 10_000, refunds: 0, noSales: 0, deskCash: 7_500 },
      { cashier: 'emp_b', orderCount: 0, sales: 0, refunds: 0, noSales: 0, deskCash: 50_000 },
    ]);
  });
});
