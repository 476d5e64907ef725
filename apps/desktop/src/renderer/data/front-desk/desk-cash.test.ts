/**
 * Foreign cash at the desk: a deposit at check-in and a payment at check-out
 * in US dollars at the property's `usd_rate`, each queued as its own
 * `folio.payment` carrying the currency and the rate; the balance counts their
 * shillings, the drawer's count leaves them apart, and a currency the property
 * does not take is refused before anything is queued.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { firstValueFrom } from 'rxjs';
import { addDays, commandPayloads, foreignWithin, shillingsOf } from '@tz/core';
import { settle, type TestTill } from '../../../../test/till-data.ts';
import { GUEST, TODAY, desk, openDesk, property, pushed, quoteOf, room, stay } from './desk-fixtures.ts';

let till: TestTill | null = null;
afterEach(async () => {
  await till?.store.close();
  till = null;
});

const DOLLARS = { ...property, usd_rate: 2_650 };
const rooms = [room('101'), room('102'), room('201')];

describe('foreign cash at the desk', () => {
  it('takes a deposit in dollars at the property’s rate, counted apart from the drawer’s shillings', async () => {
    const id = 'resv_01kb00000000000000000000b1';
    const t = (till = await openDesk(
      [stay(id, { arrival: TODAY, departure: addDays(TODAY, 2), room: 'room_201' })],
      rooms,
      [],
      DOLLARS,
    ));
    await desk(t, (v) => v.arrivals.length === 1);
    const shift = await t.store.openShift(10_000);
    await t.store.checkIn({
      reservation: id,
      guests: [GUEST],
      deposit: 5_000,
      depositForeign: { currency: 'USD', amount: 5_000 },
    });
    // Fifty dollars at 2,650 and 5,000 shillings: owed back before any night is due.
    expect(await t.store.balanceOf(id)).toBe(-(132_500 + 5_000));
    await settle(() =>
      expect(pushed(t).map((c) => c.type)).toEqual([
        'shift.open',
        'reservation.check_in',
        'folio.payment',
        'folio.payment',
      ]),
    );
    const [, , shillings, dollars] = pushed(t);
    expect(shillings!.payload).toMatchObject({ method: 'deposit', amount: 5_000, shift: shift.id });
    expect(dollars!.payload).toMatchObject({
      method: 'deposit',
      foreign: { currency: 'USD', amount: 5_000, rate: 2_650 },
      shift: shift.id,
    });
    expect(dollars!.payload).not.toHaveProperty('amount');
    expect(commandPayloads['folio.payment'].safeParse(dollars!.payload).success).toBe(true);
    // Only the shillings are in the drawer's count.
    expect(await firstValueFrom(t.store.shift$)).toMatchObject({ deskCash: 5_000, expectedCash: 15_000 });
  });

  it('settles a check-out with the most dollars within the balance and the rest in shillings', async () => {
    const id = 'resv_01kb00000000000000000000b2';
    const arrival = addDays(TODAY, -1);
    const t = (till = await openDesk(
      [stay(id, { arrival, departure: TODAY, room: 'room_101', status: 'checked_in' })],
      rooms,
      [],
      DOLLARS,
    ));
    await desk(t, (v) => v.departures.length === 1);
    const owed = quoteOf(arrival, TODAY).total;
    expect(await t.store.balanceOf(id)).toBe(owed);
    const cents = foreignWithin(owed, { currency: 'USD', rate: 2_650 });
    const rest = owed - shillingsOf({ currency: 'USD', amount: cents, rate: 2_650 });
    // A dollar more than the balance is refused; so is a currency the property does not take.
    await expect(
      t.store.checkOut({ reservation: id, cash: rest, foreign: { currency: 'USD', amount: cents + 100 } }),
    ).rejects.toMatchObject({ code: 'invalid' });
    await expect(
      t.store.checkOut({ reservation: id, foreign: { currency: 'EUR', amount: 100 } }),
    ).rejects.toMatchObject({ code: 'invalid', details: { field: 'cash.currency' } });
    const done = await t.store.checkOut({
      reservation: id,
      cash: rest,
      foreign: { currency: 'USD', amount: cents },
    });
    expect(done.balance).toBe(0);
    await settle(() =>
      expect(pushed(t).map((c) => c.type)).toEqual([
        'folio.payment',
        'folio.payment',
        'reservation.check_out',
      ]),
    );
    expect(pushed(t)[1]!.payload).toMatchObject({
      method: 'cash',
      foreign: { currency: 'USD', amount: cents, rate: 2_650 },
    });
    // No override: the dollars and shillings settle it.
    expect(pushed(t)[2]!.payload).not.toHaveProperty('override');
  });

  it('takes no dollars where the property has no rate for them', async () => {
    const id = 'resv_01kb00000000000000000000b3';
    const t = (till = await openDesk(
      [stay(id, { arrival: TODAY, departure: addDays(TODAY, 1), room: 'room_201' })],
      rooms,
    ));
    await desk(t, (v) => v.arrivals.length === 1);
    await expect(
      t.store.checkIn({
        reservation: id,
        guests: [GUEST],
        depositForeign: { currency: 'USD', amount: 5_000 },
      }),
    ).rejects.toMatchObject({ code: 'invalid', details: { field: 'deposit.currency' } });
    // Nothing was queued: the check-in waits for a deposit the desk can take.
    expect((await desk(t)).arrivals).toHaveLength(1);
  });
});
