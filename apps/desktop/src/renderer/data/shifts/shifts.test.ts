import { filter, firstValueFrom, lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { commandPayloads } from '@tz/core';
import type { Command } from '@tz/core';
import { makeEmployee, makeProduct, openTestTill, pulled, settle } from '../../../../test/till-data.ts';
import type { TestTill } from '../../../../test/till-data.ts';

let till: TestTill | null = null;
afterEach(async () => {
  await till?.store.close();
  till = null;
});

async function ready() {
  const t = await openTestTill({
    products: [makeProduct(), makeProduct({ id: 'prod_2', name: 'Chai', barcodes: ['222'], price: 2000 })],
    printers: [
      {
        id: 'prn_1',
        _deleted: false,
        till: 'till_1',
        name: 'Front',
        connection: 'usb',
        paper_width: 58,
        command_set: 'epson',
        code_page: null,
      },
    ],
    employees: [
      await makeEmployee(),
      await makeEmployee({ id: 'emp_boss', name: 'Juma', role: 'manager', pinCode: '9876' }),
      await makeEmployee({ id: 'emp_baraka', name: 'Baraka', pinCode: '5555' }),
    ],
  });
  await settle(async () => expect(await t.store.findByBarcode('222')).not.toBeNull());
  await pulled(t, 'printers');
  await settle(async () => expect((await firstValueFrom(t.store.sync$)).connection).toBe('online'));
  await t.store.signIn('1234');
  return t;
}

const pushed = (t: TestTill, type: string): Command[] =>
  t.transport.pushes.flat().filter((c) => c.type === type);

describe('a shift', () => {
  it('adds sales, refunds, voids and cash movements up to a Z report, each step a valid command', async () => {
    till = await ready();
    const { store, bridge } = till;
    await store.openShift(10_000);
    await store.addBarcode('6201234500017');
    await store.addBarcode('222');
    const cashSale = await store.completeSale([{ method: 'cash', amount: 6000 }]);
    expect(cashSale.change).toBe(500);
    await store.addBarcode('222');
    const cardSale = await store.completeSale([{ method: 'card', amount: 2000, reference: 'AUTH1' }]);
    await store.cashMovement('pay_in', 500, 'change from bank');
    await store.cashMovement('pay_out', 300, 'cleaner');

    await expect(
      store.refund({
        clientOrderId: cashSale.sale.clientOrderId,
        lines: [{ line: 1, quantityMilli: 1000 }],
        managerPin: '',
      }),
    ).rejects.toMatchObject({ code: 'manager_pin_required' });
    await expect(
      store.refund({
        clientOrderId: cashSale.sale.clientOrderId,
        lines: [{ line: 1, quantityMilli: 1000 }],
        managerPin: '1234',
      }),
    ).rejects.toMatchObject({ code: 'manager_pin_wrong' });
    await store.refund({
      clientOrderId: cashSale.sale.clientOrderId,
      lines: [{ line: 1, quantityMilli: 1000 }],
      managerPin: '9876',
      reason: 'spilt',
    });
    await expect(
      store.refund({
        clientOrderId: cashSale.sale.clientOrderId,
        lines: [{ line: 1, quantityMilli: 1000 }],
        managerPin: '9876',
      }),
    ).rejects.toMatchObject({ code: 'invalid' });
    // The refund printed its slip and opened the drawer for the cash it gives back.
    await settle(() =>
      expect(bridge.printed.at(-1)).toMatchObject({
        what: {
          kind: 'refund',
          title: 'MAREJESHO',
          receiptNumber: cashSale.sale.receiptNumber,
          total: 2000,
          tenders: [{ label: 'Taslimu', amount: 2000 }],
          cashier: 'Asha',
          approvedBy: { name: 'Juma' },
        },
        openDrawer: true,
      }),
    );
    await store.voidSale({ clientOrderId: cardSale.sale.clientOrderId, managerPin: '9876' });
    // A void prints a short slip; card money goes back on the card, so the drawer stays shut.
    await settle(() =>
      expect(bridge.printed.at(-1)).toMatchObject({
        what: { kind: 'void', receiptNumber: cardSale.sale.receiptNumber, lines: [], total: 2000 },
        openDrawer: false,
      }),
    );
    await expect(
      store.voidSale({ clientOrderId: cardSale.sale.clientOrderId, managerPin: '9876' }),
    ).rejects.toMatchObject({
      code: 'invalid',
    });

    const open = await firstValueFrom(store.shift$);
    // Core's Z report rules: the refund leaves the drawer in cash; the voided card sale counts for nothing.
    expect(open?.expectedCash).toBe(10_000 + 5500 - 2000 + 500 - 300);

    const report = await store.closeShift(11_000);
    expect(report).toMatchObject({
      sales: { count: 1, total: 5500 },
      byMethod: { cash: 5500, mobile_money: 0, card: 0 },
      refunds: { count: 1, total: 2000 },
      voids: 1,
      openingFloat: 10_000,
      payIns: 500,
      payOuts: 300,
      expectedCash: 13_700,
      countedCash: 11_000,
      difference: -2700,
    });
    // Printed as a document laid out like a receipt, in the store's receipt language (Swahili).
    await settle(() =>
      expect(bridge.printed.at(-1)?.what).toMatchObject({
        kind: 'z_report',
        language: 'sw',
        title: 'RIPOTI YA Z',
        currency: 'TZS',
        store: { name: 'Duka la Mama' },
      }),
    );
    expect(await firstValueFrom(store.shift$)).toBeNull();

    await store.syncNow();
    for (const type of [
      'shift.open',
      'shift.cash_movement',
      'order.refund',
      'order.void',
      'shift.close',
    ] as const) {
      const commands = pushed(till, type);
      expect(commands.length).toBeGreaterThan(0);
      for (const command of commands)
        expect(commandPayloads[type].safeParse(command.payload).success).toBe(true);
    }
    expect((pushed(till, 'shift.open')[0]?.payload as { shift: string }).shift).toMatch(
      /^shift_[0-9a-hjkmnp-tv-z]{26}$/,
    );
    expect(pushed(till, 'order.refund')[0]?.payload).toMatchObject({
      client_order_id: cashSale.sale.clientOrderId,
      lines: [{ line: 1, quantity_milli: 1000 }],
      restock: true,
    });
  });

  it('says whether it is open once per open and close, not at every sale', async () => {
    till = await ready();
    const { store } = till;
    const seen: boolean[] = [];
    const watching = store.shiftOpen$.subscribe((open) => seen.push(open));
    await settle(() => expect(seen).toEqual([false]));
    await store.openShift(0);
    await settle(() => expect(seen).toEqual([false, true]));
    for (const code of ['222', '6201234500017']) {
      await store.addBarcode(code);
      await store.payCashExact();
    }
    await store.closeShift(7000);
    await settle(() => expect(seen).toEqual([false, true, false]));
    watching.unsubscribe();
  });

  it('is the till’s: a second cashier sells into the open shift, and the Z report splits it by cashier', async () => {
    till = await ready();
    const { store } = till;
    await store.openShift(10_000);
    await store.addBarcode('222');
    await store.payCashExact();
    await settle(async () => expect((await firstValueFrom(store.sync$)).unsynced).toBe(0));
    await store.signOut();
    await store.signIn('5555');
    // No float to count: the drawer's shift is still open.
    expect(await firstValueFrom(store.shiftOpen$)).toBe(true);
    await store.addBarcode('222');
    await store.addBarcode('6201234500017');
    await store.payCashExact();
    const report = await store.closeShift(10_000 + 2000 + 2000 + 3500);
    expect(report.difference).toBe(0);
    expect(report.cashiers).toEqual([
      { name: 'Asha', count: 1, sales: 2000, refunds: 0, noSales: 0 },
      { name: 'Baraka', count: 1, sales: 5500, refunds: 0, noSales: 0 },
    ]);
    expect(pushed(till, 'shift.open')).toHaveLength(1);
  });

  it('refuses a second open shift', async () => {
    till = await ready();
    await till.store.openShift(0);
    await expect(till.store.openShift(0)).rejects.toMatchObject({ code: 'shift_already_open' });
  });
});

describe('a refund quote', () => {
  it('prices the picked lines as the refund will, and what is left after a refund', async () => {
    till = await ready();
    const { store } = till;
    await store.openShift(0);
    await store.addBarcode('222');
    await store.addBarcode('222');
    const { sale } = await store.payCashExact();
    expect(await store.refundQuote(sale.clientOrderId)).toEqual({ amount: 4000, left: [2000] });
    expect(await store.refundQuote(sale.clientOrderId, [{ line: 0, quantityMilli: 1000 }])).toEqual({
      amount: 2000,
      left: [2000],
    });
    await store.refund({
      clientOrderId: sale.clientOrderId,
      lines: [{ line: 0, quantityMilli: 1000 }],
      managerPin: '9876',
    });
    expect(await store.refundQuote(sale.clientOrderId)).toEqual({ amount: 2000, left: [1000] });
    expect(await store.refundQuote(sale.clientOrderId, [{ line: 0, quantityMilli: 2000 }])).toEqual({
      amount: null,
      left: [1000],
    });
  });
});

describe('order discount', () => {
  it('needs a manager PIN above the configured percentage', async () => {
    till = await ready();
    const { store } = till;
    await store.updateSettings({ managerDiscountAboveBasisPoints: 1000 });
    await store.addBarcode('222');
    await store.setOrderDiscount({ type: 'percent', basisPoints: 1000 });
    await expect(store.setOrderDiscount({ type: 'amount', amount: 201 })).rejects.toMatchObject({
      code: 'manager_pin_required',
    });
    await store.setOrderDiscount({ type: 'percent', basisPoints: 5000 }, '9876');
    expect((await firstValueFrom(store.cart$)).priced.total).toBe(1000);
    // An edit the cart cannot price is refused and leaves the cart as it was.
    const [line] = (await firstValueFrom(store.cart$)).lines;
    await expect(store.setLineDiscount(line!.key, { type: 'amount', amount: 2001 })).rejects.toMatchObject({
      code: 'invalid',
      details: { core: 'discount_invalid' },
    });
    expect((await firstValueFrom(store.cart$)).lines[0]?.discount).toBeNull();
  });
});

describe('mobile money', () => {
  it('is refused offline with a reason', async () => {
    let online = true;
    till = await openTestTill({}, { online: () => online });
    online = false;
    await expect(till.store.startMobileMoney({ amount: 2000, phone: '0712345678' })).rejects.toMatchObject({
      code: 'offline',
    });
    expect((await firstValueFrom(till.store.sync$)).connection).toBe('offline');
  });

  it('follows the payment to paid, and only a paid payment is a tender', async () => {
    till = await ready();
    const { store, transport } = till;
    await store.openShift(0);
    await store.addBarcode('222');
    const payment$ = await store.startMobileMoney({ amount: 2000, phone: '0712345678' });
    const first = await firstValueFrom(payment$);
    expect(first.status).toBe('pending');
    await expect(
      store.completeSale([{ method: 'mobile_money', payment: first.id, amount: 2000 }]),
    ).rejects.toMatchObject({ code: 'payment_not_paid' });

    transport.payments.set(first.id, { ...first, status: 'paid', reference: 'QK7H2L9XZ1' });
    const paid = lastValueFrom(payment$.pipe(filter((p) => p.status !== 'pending')));
    transport.hint({ collections: [], payments: [first.id] });
    expect((await paid).status).toBe('paid');
    const { sale } = await store.completeSale([{ method: 'mobile_money', payment: first.id, amount: 2000 }]);
    // The provider's reference, as the payer's SMS shows it; never the internal payment id.
    expect(sale.receipt.tenders).toEqual([{ label: 'Pesa kwa simu', amount: 2000, reference: 'QK7H2L9XZ1' }]);

    // A payment paid without a reference from the provider yet: the receipt shows the payer's number, masked.
    await store.addBarcode('222');
    const second$ = await store.startMobileMoney({ amount: 2000, phone: '255712345678' });
    const second = await firstValueFrom(second$);
    transport.payments.set(second.id, { ...second, status: 'paid', reference: null });
    const secondPaid = lastValueFrom(second$.pipe(filter((p) => p.status !== 'pending')));
    transport.hint({ collections: [], payments: [second.id] });
    expect((await secondPaid).status).toBe('paid');
    const next = await store.completeSale([{ method: 'mobile_money', payment: second.id, amount: 2000 }]);
    expect(next.sale.receipt.tenders).toEqual([
      { label: 'Pesa kwa simu', amount: 2000, reference: '0712***678' },
    ]);
  });
});
