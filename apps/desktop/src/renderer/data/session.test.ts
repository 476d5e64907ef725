import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { PIN_LOCK_MS } from './session.ts';
import { makeEmployee, makeProduct, openTestTill, pulled, settle } from './testing.ts';
import type { TestTill } from './testing.ts';

let till: TestTill | null = null;
afterEach(async () => {
  await till?.store.close();
  till = null;
});

describe('sign-in', () => {
  it('signs in the employee whose PIN was typed, checked on the till against the PIN hashes', async () => {
    till = await openTestTill({
      employees: [
        await makeEmployee(),
        await makeEmployee({ id: 'emp_boss', name: 'Juma', role: 'manager', pinCode: '9876' }),
      ],
    });
    await pulled(till, 'employees');
    const cashier = await till.store.signIn('9876');
    expect(cashier).toMatchObject({ id: 'emp_boss', name: 'Juma', role: 'manager' });
    expect(await firstValueFrom(till.store.cashier$)).toMatchObject({ id: 'emp_boss' });
  });

  it('says the cashiers have not synced yet, and counts no wrong PIN, before the first pull brings them', async () => {
    till = await openTestTill({ employees: [] });
    for (let attempt = 1; attempt <= 6; attempt++) {
      await expect(till.store.signIn('1234')).rejects.toMatchObject({ code: 'cashiers_not_synced' });
    }
  });

  it('locks PIN sign-in for 5 minutes after five wrong PINs, even for the right PIN', async () => {
    till = await openTestTill({ employees: [await makeEmployee()] });
    await pulled(till, 'employees');
    const { store, clock } = till;
    for (let attempt = 1; attempt <= 4; attempt++) {
      await expect(store.signIn('0000')).rejects.toMatchObject({
        code: 'pin_wrong',
        details: { remaining: 5 - attempt },
      });
    }
    await expect(store.signIn('0000')).rejects.toMatchObject({ code: 'pin_locked' });
    await expect(store.signIn('1234')).rejects.toMatchObject({
      code: 'pin_locked',
      details: { until: clock.ms + PIN_LOCK_MS },
    });
    clock.advance(PIN_LOCK_MS - 1);
    await expect(store.signIn('1234')).rejects.toMatchObject({ code: 'pin_locked' });
    clock.advance(1);
    await expect(store.signIn('1234')).resolves.toMatchObject({ id: 'emp_cashier' });
  });

  it('locks only the named employee when the screen names one', async () => {
    till = await openTestTill({
      employees: [await makeEmployee(), await makeEmployee({ id: 'emp_2', name: 'Neema', pinCode: '5555' })],
    });
    await pulled(till, 'employees');
    for (let attempt = 0; attempt < 5; attempt++)
      await till.store.signIn('0000', 'emp_cashier').catch(() => undefined);
    await expect(till.store.signIn('1234', 'emp_cashier')).rejects.toMatchObject({ code: 'pin_locked' });
    await expect(till.store.signIn('5555', 'emp_2')).resolves.toMatchObject({ id: 'emp_2' });
  });

  it('a right PIN clears the count of wrong ones', async () => {
    till = await openTestTill({ employees: [await makeEmployee()] });
    await pulled(till, 'employees');
    for (let attempt = 0; attempt < 4; attempt++) await till.store.signIn('0000').catch(() => undefined);
    await till.store.signIn('1234');
    await expect(till.store.signIn('0000')).rejects.toMatchObject({
      code: 'pin_wrong',
      details: { remaining: 4 },
    });
  });
});

describe('sign-out and unpair', () => {
  it('are refused while a sale is unsynced, and allowed once the server applied it', async () => {
    till = await openTestTill({ products: [makeProduct()], employees: [await makeEmployee()] });
    await pulled(till, 'employees');
    const { store, transport } = till;
    let serverUp = false;
    transport.answer = (commands) => {
      if (!serverUp) throw new TypeError('fetch failed');
      return commands.map((c) => ({ id: c.id, status: 'applied' as const, result: {} }));
    };
    await store.signIn('1234');
    await store.openShift(0);
    await store.addBarcode('6201234500017');
    await store.completeSale([{ method: 'cash', amount: 3500 }]);

    await expect(store.signOut()).rejects.toMatchObject({ code: 'unsynced_commands', details: { count: 2 } });
    await expect(store.unpair()).rejects.toMatchObject({ code: 'unsynced_commands' });
    expect((await firstValueFrom(store.pairing$)).status).toBe('paired');

    serverUp = true;
    await store.syncNow();
    expect((await firstValueFrom(store.sync$)).unsynced).toBe(0);
    await store.signOut();
    expect(await firstValueFrom(store.cashier$)).toBeNull();
    await store.unpair();
    expect(await firstValueFrom(store.pairing$)).toEqual({ status: 'unpaired' });
    expect(await store.findByBarcode('6201234500017')).toBeNull();
    // Pairing again pulls the catalogue afresh.
    await store.pair('EFGH-5678');
    await settle(async () => expect(await store.findByBarcode('6201234500017')).not.toBeNull());
  });
});
