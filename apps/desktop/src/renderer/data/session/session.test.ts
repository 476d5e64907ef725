import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { PIN_LOCK_MS } from './session.ts';
import { makeEmployee, makeProduct, openTestTill, pulled, settle } from '../../../../test/till-data.ts';
import type { FakeTransport, TestTill } from '../../../../test/till-data.ts';

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

  it('counts each attempt before checking it: 200 guesses at once are 5 checks, and the right PIN among them is locked out', async () => {
    till = await openTestTill({ employees: [await makeEmployee({ pinCode: '4821' })] });
    await pulled(till, 'employees');
    const guesses = Array.from({ length: 200 }, (_, i) => String(1000 + i));
    const outcomes = await Promise.allSettled([...guesses, '4821'].map((pin) => till!.store.signIn(pin)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(0);
    const codes = outcomes.map((o) =>
      o.status === 'rejected' ? (o.reason as { code: string }).code : 'signed_in',
    );
    expect(codes.filter((code) => code === 'pin_wrong').length).toBeLessThanOrEqual(4);
    expect(codes.at(-1)).toBe('pin_locked');
    expect(await firstValueFrom(till.store.cashier$)).toBeNull();
  });

  it('lets a manager’s PIN through a locked sign-in, which unlocks it for the cashiers', async () => {
    till = await openTestTill({
      employees: [
        await makeEmployee(),
        await makeEmployee({ id: 'emp_boss', name: 'Juma', role: 'manager', pinCode: '987654' }),
      ],
    });
    await pulled(till, 'employees');
    const { store } = till;
    for (let attempt = 0; attempt < 5; attempt++) await store.signIn('0000').catch(() => undefined);
    await expect(store.signIn('1234')).rejects.toMatchObject({ code: 'pin_locked' });
    // A wrong PIN while locked stays locked (and counts against the managers' own lock).
    await expect(store.signIn('1111')).rejects.toMatchObject({ code: 'pin_locked' });
    await expect(store.signIn('987654')).resolves.toMatchObject({ id: 'emp_boss' });
    await store.signOut();
    await expect(store.signIn('1234')).resolves.toMatchObject({ id: 'emp_cashier' });
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

const pulledFrom = (transport: FakeTransport, seq: number) =>
  transport.pulls.some((p) => p.collection === 'employees' && p.checkpoint?.seq === seq);

describe('a signed-in cashier the server changed', () => {
  for (const [what, change] of [
    ['deactivated (deleted from this till)', async () => ({ ...(await makeEmployee()), _deleted: true })],
    ['given a new PIN', () => makeEmployee({ pinCode: '4321' })],
    ['made a manager', () => makeEmployee({ role: 'manager' })],
  ] as const) {
    it(`is signed out at the next sync when ${what}`, async () => {
      till = await openTestTill({
        employees: [
          await makeEmployee(),
          await makeEmployee({ id: 'emp_2', name: 'Neema', pinCode: '5555' }),
        ],
      });
      await pulled(till, 'employees');
      const { store, transport } = till;
      await store.signIn('1234');
      // Another employee's change leaves the session alone.
      const served = transport.documents.employees!;
      served.push(await makeEmployee({ id: 'emp_2', name: 'Neema M.', pinCode: '5555' }));
      transport.hint({ collections: ['employees'] });
      // The page is written once its checkpoint is the one the next pull starts from.
      await settle(() => expect(pulledFrom(transport, served.length - 1)).toBe(true));
      transport.hint({ collections: ['employees'] });
      await settle(() => expect(pulledFrom(transport, served.length)).toBe(true));
      expect(await firstValueFrom(store.cashier$)).toMatchObject({ id: 'emp_cashier' });

      transport.documents.employees!.push(await change());
      transport.hint({ collections: ['employees'] });
      await settle(async () => expect(await firstValueFrom(store.cashier$)).toBeNull());
    });
  }
});

describe('the sales list', () => {
  it('keeps the name each sale was made under once its cashier is deactivated and signed out', async () => {
    till = await openTestTill({ products: [makeProduct()], employees: [await makeEmployee()] });
    await pulled(till, 'employees');
    const { store, transport } = till;
    await store.signIn('1234');
    await store.openShift(0);
    await store.addBarcode('6201234500017');
    await store.completeSale([{ method: 'cash', amount: 3500 }]);
    transport.documents.employees!.push({ ...(await makeEmployee()), _deleted: true });
    transport.hint({ collections: ['employees'] });
    await settle(async () => expect(await firstValueFrom(store.cashier$)).toBeNull());
    const [sale] = await firstValueFrom(store.sales$);
    expect(sale).toMatchObject({ cashier: 'emp_cashier', cashierName: 'Asha' });
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
