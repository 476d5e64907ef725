/**
 * A sale charged to a room that the server refuses (the guest checked out on
 * another desk before the sale synced): the sale and the refused list name the
 * room, the guest and the stay's state the server gave, for the cashier's
 * sentence; any other refusal of a sale keeps only the server's words.
 */
import { firstValueFrom, filter } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { roomChargeRefusal, type Command, type CommandResult } from '@tz/core';
import type { TillStore } from '../api.ts';
import {
  makeEmployee,
  makeProduct,
  openTestTill,
  settle,
  type TestTill,
} from '../../../../test/till-data.ts';

let till: TestTill | null = null;
afterEach(async () => {
  await till?.store.close();
  till = null;
});

/** Each sale refused as the server's `resolveTenders` refuses it, on the tender it names; the rest applied. */
function refuse(field: string, message: string) {
  return (commands: Command[]): CommandResult[] =>
    commands.map((command) =>
      command.type === 'order.create'
        ? {
            id: command.id,
            status: 'refused',
            error: {
              code: 'parameter_invalid',
              message: `${field}: ${message}`,
              details: { [field]: message },
            },
          }
        : { id: command.id, status: 'applied', result: {} },
    );
}

async function sellToRoom(store: TillStore) {
  await settle(async () => expect(await store.findByBarcode('6201234500017')).not.toBeNull());
  await store.signIn('1234');
  await store.openShift(10_000);
  await store.addBarcode('6201234500017');
  return store.completeSale([
    { method: 'cash', amount: 1_000 },
    { method: 'room', amount: 2_500, reservation: 'resv_stay1', room: '204', guest: 'Amina Juma' },
  ]);
}

describe('a sale charged to a room', () => {
  it('names the room, the guest and why when the server refuses the charge', async () => {
    till = await openTestTill({ products: [makeProduct()], employees: [await makeEmployee()] });
    const { store } = till;
    till.transport.answer = refuse('tenders.1.reservation', roomChargeRefusal('checked_out'));
    const { sale } = await sellToRoom(store);
    expect(sale.refusal).toBeNull();
    await store.syncNow();
    const [refused] = await firstValueFrom(
      store.sales$.pipe(filter((sales) => sales[0]?.status === 'refused')),
    );
    expect(refused!.refusal).toMatchObject({
      code: 'parameter_invalid',
      roomCharge: { room: '204', guest: 'Amina Juma', status: 'checked_out' },
    });
    const status = await firstValueFrom(store.sync$.pipe(filter((s) => s.refused.length === 1)));
    expect(status.refused[0]!.refusal.roomCharge).toEqual({
      room: '204',
      guest: 'Amina Juma',
      status: 'checked_out',
    });
  });

  it('keeps the server’s words for a stay it does not know, and for a refusal of another tender', async () => {
    till = await openTestTill({ products: [makeProduct()], employees: [await makeEmployee()] });
    const { store } = till;
    till.transport.answer = refuse('tenders.1.reservation', 'is not a reservation of this account');
    await sellToRoom(store);
    await store.syncNow();
    let [refused] = await firstValueFrom(
      store.sales$.pipe(filter((sales) => sales[0]?.status === 'refused')),
    );
    expect(refused!.refusal?.roomCharge).toEqual({ room: '204', guest: 'Amina Juma', status: null });

    till.transport.answer = refuse('tenders.0.amount', 'is more than the total');
    await store.addBarcode('6201234500017');
    await store.completeSale([
      { method: 'room', amount: 3_500, reservation: 'resv_stay1', room: '204', guest: 'Amina Juma' },
    ]);
    await store.syncNow();
    [refused] = await firstValueFrom(
      store.sales$.pipe(filter((sales) => sales.length === 2 && sales[0]?.status === 'refused')),
    );
    expect(refused!.refusal).toEqual({
      code: 'parameter_invalid',
      message: 'tenders.0.amount: is more than the total',
      details: { 'tenders.0.amount': 'is more than the total' },
    });
  });
});
