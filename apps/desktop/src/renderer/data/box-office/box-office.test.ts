/**
 * The box office from the till's store, on memory storage and offline: a sale
 * of tickets is one `event_order.sell` command with the tickets' ids and their
 * unsigned codes, its receipt prints each ticket's code, the tier's count left
 * goes down, this till's door admits a ticket at once (and once), the shift's
 * drawer expects its cash; past what is left, without a shift, or for a tier
 * whose count the server has not sent, nothing is sold.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { filter, firstValueFrom } from 'rxjs';
import { listedTicketCode, newId, type PullDocument, type ReceiptDocument } from '@tz/core';
import type { BoxOfficeView, TillStore } from '../api.ts';
import { makeEmployee, openTestTill, pulled, settle, type TestTill } from '../../../../test/till-data.ts';

let till: TestTill | null = null;
afterEach(async () => {
  await till?.store.close();
  till = null;
});

// The test clock's now (2026-11-26 09:00 UTC), in unix seconds.
const NOW = Date.UTC(2026, 10, 26, 9, 0, 0) / 1000;

function concert(tierFields: Partial<PullDocument<'event_tiers'>> = { left: 3 }) {
  const event: PullDocument<'ticketed_events'> = {
    id: newId('ticketedEvent'),
    _deleted: false,
    name: 'Sauti za Busara',
    venue: 'Ngome Kongwe',
    status: 'published',
    starts_at: NOW + 3600,
    ends_at: NOW + 6 * 3600,
    doors_open_at: NOW - 600,
    time_zone: 'Africa/Dar_es_Salaam',
    capacity: 1000,
    // Any key: a box office's codes are vouched for by the list, not a signature.
    door_key: 'O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik',
  };
  const tier: PullDocument<'event_tiers'> = {
    id: newId('eventTier'),
    _deleted: false,
    event: event.id,
    name: 'Mlangoni',
    price: 15_000,
    ...tierFields,
  };
  return { event, tier };
}

let online = false;

async function openBoxOffice(seed: ReturnType<typeof concert>, shift = true) {
  online = true;
  const t = await openTestTill(
    { employees: [await makeEmployee()], ticketed_events: [seed.event], event_tiers: [seed.tier] },
    { online: () => online },
  );
  till = t;
  for (const collection of ['employees', 'ticketed_events', 'event_tiers'] as const)
    await pulled(t, collection);
  await t.store.signIn('1234');
  // The internet goes: everything from here is offline.
  online = false;
  if (shift) await t.store.openShift(10_000);
  return t;
}

const boxOffice = (store: TillStore, ready: (view: BoxOfficeView) => boolean) =>
  firstValueFrom(
    store.boxOffice$.pipe(filter((view): view is BoxOfficeView => view !== null && ready(view))),
  );

describe('the box office', () => {
  it('sells two tickets offline in one command whose receipt prints their codes, and this door admits them at once', async () => {
    const seed = concert();
    const t = await openBoxOffice(seed);
    expect((await boxOffice(t.store, () => true)).tiers).toEqual([
      { id: seed.tier.id, name: 'Mlangoni', price: 15_000, left: 3 },
    ]);

    const done = await t.store.sellTickets({
      event: seed.event.id,
      lines: [{ tier: seed.tier.id, quantity: 2 }],
      tenders: [{ method: 'cash', amount: 40_000 }],
    });
    expect(done.change).toBe(10_000);
    expect(done.sale.total).toBe(30_000);

    const receipt: ReceiptDocument = done.sale.receipt;
    expect(receipt.tickets).toHaveLength(2);
    expect(receipt.lines).toEqual([
      expect.objectContaining({ description: 'Sauti za Busara: Mlangoni', total: 30_000 }),
    ]);
    const codes = receipt.tickets!.map((ticket) => ticket.code);
    for (const code of codes) expect(code).toMatch(/^[A-Za-z0-9_-]{66}$/);

    // One left, counting the sale the server has not had yet.
    expect((await boxOffice(t.store, (view) => view.tiers[0]?.left === 1)).tiers[0]?.left).toBe(1);
    await expect(
      t.store.sellTickets({
        event: seed.event.id,
        lines: [{ tier: seed.tier.id, quantity: 2 }],
        tenders: [{ method: 'cash', amount: 30_000 }],
      }),
    ).rejects.toMatchObject({ code: 'sold_out' });

    // The door of this till, offline, admits each ticket once.
    const first = await t.store.scanAtDoor(codes[0]!);
    expect(first).toMatchObject({
      verdict: 'ok',
      source: 'door',
      holder: 'Counter 1',
      tier: { name: 'Mlangoni' },
    });
    expect((await t.store.scanAtDoor(codes[0]!)).verdict).toBe('already_redeemed');
    expect((await t.store.scanAtDoor(codes[1]!)).verdict).toBe('ok');
    // An unsigned code this till did not sell is refused.
    const forged = listedTicketCode({ event: seed.event.id, ticket: newId('ticket'), tier: seed.tier.id })!;
    expect((await t.store.scanAtDoor(forged)).verdict).toBe('invalid');

    // A mobile money payment the till has not seen paid pays for nothing.
    await expect(
      t.store.sellTickets({
        event: seed.event.id,
        lines: [{ tier: seed.tier.id, quantity: 1 }],
        tenders: [{ method: 'mobile_money', payment: 'pay_unknown', amount: 15_000 }],
      }),
    ).rejects.toMatchObject({ code: 'payment_not_paid' });
    // The drawer expects the float and the tickets' cash.
    const shift = await firstValueFrom(t.store.shift$.pipe(filter((one) => one !== null)));
    expect(shift?.expectedCash).toBe(40_000);

    // Back online, the sale goes up once: the tickets' ids with the codes printed, the cash, the shift.
    online = true;
    await t.store.syncNow();
    const sold = await settle(() => {
      const found = t.transport.pushes.flat().filter((command) => command.type === 'event_order.sell');
      expect(found).toHaveLength(1);
      return found[0]!.payload as { event: string; tickets: Array<{ id: string; tier: string }> } & Record<
        string,
        unknown
      >;
    });
    expect(sold).toMatchObject({
      event: seed.event.id,
      lines: [{ tier: seed.tier.id, quantity: 2, unit_price: 15_000 }],
      tenders: [{ method: 'cash', amount: 40_000 }],
      shift: shift?.id,
      receipt_number: done.sale.receiptNumber,
    });
    expect(
      sold.tickets.map((ticket) =>
        listedTicketCode({ event: sold.event, ticket: ticket.id, tier: ticket.tier }),
      ),
    ).toEqual(codes);
  });

  it('needs a shift, and sells nothing of a tier whose count left the server has not sent', async () => {
    const seed = concert({});
    const t = await openBoxOffice(seed, false);
    const sale = {
      event: seed.event.id,
      lines: [{ tier: seed.tier.id, quantity: 1 }],
      tenders: [{ method: 'cash' as const, amount: 15_000 }],
    };
    await expect(t.store.sellTickets(sale)).rejects.toMatchObject({ code: 'shift_not_open' });
    await t.store.openShift(0);
    expect((await boxOffice(t.store, () => true)).tiers[0]?.left).toBeNull();
    await expect(t.store.sellTickets(sale)).rejects.toMatchObject({ code: 'sold_out' });
  });
});
