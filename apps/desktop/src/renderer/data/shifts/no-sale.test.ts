/**
 * A no-sale from the till's store: recorded in the shift as a valid command
 * before the drawer is asked to open, the drawer pulse sent through the real
 * local bridge to a virtual network printer over TCP, and counted in the
 * shift and its Z report. Without a printer (or with one that refuses) it is
 * still recorded and says the drawer did not open.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { commandPayloads, type Command, type PullDocument } from '@tz/core';
import { startBridge, startVirtualPrinter, type Bridge, type VirtualPrinter } from '@tz/printers';
import { firstValueFrom, filter } from 'rxjs';
import { createHttpBridge } from '../../../shared/http-bridge.ts';
import { makeEmployee, openTestTill, pulled, settle, type TestTill } from '../../../../test/till-data.ts';

let till: TestTill | null = null;
let bridge: Bridge | null = null;
let printer: VirtualPrinter | null = null;
afterEach(async () => {
  await till?.store.close();
  await bridge?.close();
  await printer?.close();
  till = bridge = printer = null;
});

const printerDoc = (connection: string): PullDocument<'printers'> => ({
  id: 'prn_1',
  _deleted: false,
  till: 'till_1',
  name: 'Kaunta',
  connection,
  paper_width: 80,
  command_set: 'epson',
  code_page: null,
});

async function ready(withPrinter: boolean): Promise<TestTill> {
  const employees = [
    await makeEmployee(),
    await makeEmployee({ id: 'emp_boss', name: 'Juma', role: 'manager', pinCode: '9876' }),
  ];
  if (!withPrinter) {
    const t = await openTestTill({ employees }, { bridge: null });
    await pulled(t, 'employees');
    await t.store.signIn('1234');
    await t.store.openShift(20_000);
    return t;
  }
  printer = await startVirtualPrinter({ columns: 48 });
  bridge = await startBridge({
    port: 0,
    origins: ['http://127.0.0.1:4000'],
    tuning: { connectMs: 500, statusMs: 300, writeMs: 2_000, allowance: printer.allowance },
  });
  const t = await openTestTill(
    { employees, printers: [printerDoc(printer.connection)] },
    { bridge: createHttpBridge({ url: bridge.url, token: bridge.token }) },
  );
  await pulled(t, 'printers');
  await pulled(t, 'employees');
  await t.store.signIn('1234');
  await t.store.openShift(20_000);
  return t;
}

const noSales = (t: TestTill): Command[] =>
  t.transport.pushes.flat().filter((command) => command.type === 'shift.no_sale');

describe('no sale', () => {
  it('records the no-sale, then pulses the drawer on the printer over TCP, and the Z report counts it', async () => {
    till = await ready(true);
    const { store } = till;
    expect(await store.noSale({ reason: '  Change for a customer ' })).toEqual({ drawer: 'opened' });

    // What reached the printer: a drawer-only job, ESC p pin 2, printing nothing.
    const [job] = await printer!.waitForJobs(1);
    expect(job!.items).toEqual([{ kind: 'drawer', pin: 2, onMs: 50 }]);
    expect(job!.bytes.includes(Buffer.from([0x1b, 0x70, 0x00]))).toBe(true);

    await settle(() => expect(noSales(till!)).toHaveLength(1));
    const [pushed] = noSales(till);
    expect(commandPayloads['shift.no_sale'].safeParse(pushed!.payload).success).toBe(true);
    expect(pushed!.payload).toMatchObject({ cashier: 'emp_cashier', reason: 'Change for a customer' });
    expect(pushed!.payload).not.toHaveProperty('approved_by');

    const shift = await firstValueFrom(store.shift$.pipe(filter((one) => one !== null && one.noSales === 1)));
    // No money moved.
    expect(shift).toMatchObject({ payIns: 0, payOuts: 0, expectedCash: 20_000 });
    const report = await store.closeShift(20_000);
    expect(report).toMatchObject({ noSales: 1, difference: 0 });
    expect(report.cashiers).toEqual([{ name: 'Asha', count: 0, sales: 0, refunds: 0, noSales: 1 }]);
  });

  it('records it and says the drawer did not open when the printer refuses', async () => {
    till = await ready(true);
    printer!.set({ coverOpen: true });
    const outcome = await till.store.noSale({ reason: 'Swap a note' });
    expect(outcome).toMatchObject({ drawer: 'failed', message: expect.any(String) });
    await settle(() => expect(noSales(till!)).toHaveLength(1));
  });

  it('records it on a till without a printer, saying the drawer could not be opened', async () => {
    till = await ready(false);
    expect(await till.store.noSale({ reason: 'Check the float' })).toEqual({ drawer: 'no_printer' });
    await settle(() => expect(noSales(till!)).toHaveLength(1));
    await expect(till.store.noSale({ reason: '   ' })).rejects.toMatchObject({ code: 'invalid' });
  });

  it('asks a cashier for a manager’s PIN when the till’s setting says so, and records who approved', async () => {
    till = await ready(false);
    const { store } = till;
    await store.updateSettings({ noSaleNeedsManager: true });
    await expect(store.noSale({ reason: 'Change' })).rejects.toMatchObject({ code: 'manager_pin_required' });
    await expect(store.noSale({ reason: 'Change', managerPin: '1234' })).rejects.toMatchObject({
      code: 'manager_pin_wrong',
    });
    expect(await store.noSale({ reason: 'Change', managerPin: '9876' })).toEqual({ drawer: 'no_printer' });
    await settle(() => expect(noSales(till!)).toHaveLength(1));
    expect(noSales(till)[0]!.payload).toMatchObject({ cashier: 'emp_cashier', approved_by: 'emp_boss' });

    // A manager signed in opens it with a reason alone.
    await settle(async () => expect((await firstValueFrom(store.sync$)).unsynced).toBe(0));
    await store.signOut();
    await store.signIn('9876');
    expect(await store.noSale({ reason: 'Bank run' })).toEqual({ drawer: 'no_printer' });
    await settle(() => expect(noSales(till!)).toHaveLength(2));
    expect(noSales(till)[1]!.payload).toMatchObject({ cashier: 'emp_boss' });
    expect(noSales(till)[1]!.payload).not.toHaveProperty('approved_by');
  });
});
