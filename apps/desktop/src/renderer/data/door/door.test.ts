/**
 * The door from the till's store, on memory storage: offline it admits a
 * ticket once and writes one `ticket.checkin` report with the scan's id;
 * online it shows the server's verdict and writes nothing, and falls back to
 * its own when the server is slow; a check-in another door made and a double
 * admission the server found are on its screen; a bad code does not stop it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { filter, firstValueFrom } from 'rxjs';
import {
  DOOR_ONLINE_WAIT_MS,
  encodeTicketCode,
  newId,
  PULL_PAGE_MAX,
  ticketCodeBody,
  toBase64Url,
  type Command,
  type PullDocument,
} from '@tz/core';
import type { DoorView } from '../api.ts';
import type { DoorCheckinAnswer } from '../sync/transport.ts';
import { makeEmployee, openTestTill, pulled, settle, type TestTill } from '../../../../test/till-data.ts';

let till: TestTill | null = null;
afterEach(async () => {
  await till?.store.close();
  till = null;
});

// The test clock's now (2026-11-26 09:00 UTC), in unix seconds.
const NOW = Date.UTC(2026, 10, 26, 9, 0, 0) / 1000;

async function eventWithTickets(count: number) {
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
  /** A ticket's code as the event's key signs it. */
  const sign = async (claim: { event: string; ticket: string; tier: string }) => {
    const body = ticketCodeBody(claim)!;
    return encodeTicketCode(body, new Uint8Array(await crypto.subtle.sign('Ed25519', pair.privateKey, body)));
  };
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
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
    door_key: toBase64Url(raw),
  };
  const tier: PullDocument<'event_tiers'> = {
    id: newId('eventTier'),
    _deleted: false,
    event: event.id,
    name: 'VIP',
    price: 50_000,
  };
  const tickets: Array<PullDocument<'tickets'>> = [];
  for (let i = 0; i < count; i++) {
    const id = newId('ticket');
    const code = await sign({ event: event.id, ticket: id, tier: tier.id });
    tickets.push({
      id,
      _deleted: false,
      event: event.id,
      tier: tier.id,
      order: newId('eventOrder'),
      status: 'valid',
      holder_name: `Holder ${i}`,
      code,
    });
  }
  return { event, tier, tickets, sign };
}

async function openDoor(seed: Partial<Record<string, unknown[]>>) {
  const t = await openTestTill({ employees: [await makeEmployee()], ...seed });
  till = t;
  for (const collection of ['employees', 'ticketed_events', 'tickets', 'checkins'] as const)
    await pulled(t, collection);
  await t.store.signIn('1234');
  return t;
}

const door = (t: TestTill, ready: (view: DoorView) => boolean = () => true) =>
  firstValueFrom(t.store.door$.pipe(filter((view): view is DoorView => view !== null && ready(view))));
const reports = (t: TestTill): Command[] => [
  ...new Map(
    t.transport.pushes
      .flat()
      .filter((command) => command.type === 'ticket.checkin')
      .map((command) => [command.id, command]),
  ).values(),
];

describe('the door', () => {
  it('shows only once an event is pulled', async () => {
    const t = await openTestTill({});
    till = t;
    await pulled(t, 'ticketed_events');
    expect(await firstValueFrom(t.store.hasDoor$)).toBe(false);
    expect(await firstValueFrom(t.store.door$)).toBeNull();
  });

  it('offline admits a ticket once, reports it once with the scan’s id, and refuses it the second time', async () => {
    const { event, tier, tickets } = await eventWithTickets(3);
    const t = await openDoor({ ticketed_events: [event], event_tiers: [tier], tickets });
    expect(await firstValueFrom(t.store.hasDoor$)).toBe(true);
    expect(await door(t, (v) => v.remaining === 3)).toMatchObject({
      door: 'Counter 1',
      admitted: 0,
      admittedHere: 0,
    });

    const first = await t.store.scanAtDoor(tickets[0]!.code!);
    expect(first).toMatchObject({ verdict: 'ok', source: 'door', holder: 'Holder 0', tier: { name: 'VIP' } });
    const second = await t.store.scanAtDoor(`${tickets[0]!.code!}\n`);
    expect(second).toMatchObject({
      verdict: 'already_redeemed',
      source: 'door',
      checked_in: { door: 'Counter 1', at: NOW },
    });
    expect(await door(t, (v) => v.admitted === 1)).toMatchObject({ admittedHere: 1, remaining: 2 });

    // The server was asked both times with the scans' ids, and never answered.
    expect(t.transport.doorQuestions.map((q) => q.scan)).toEqual([first.scan, second.scan]);
    await t.store.syncNow();
    await settle(() => expect(reports(t)).toHaveLength(1));
    expect(reports(t)[0]!.payload).toEqual({
      scan: first.scan,
      event: event.id,
      ticket: tickets[0]!.id,
      code: tickets[0]!.code,
      door: 'Counter 1',
      at: NOW,
    });
    // Applied and pushed once: a third scan still knows it.
    await t.store.syncNow();
    expect(reports(t)).toHaveLength(1);
    expect((await t.store.scanAtDoor(tickets[0]!.code!)).verdict).toBe('already_redeemed');
  });

  it('admits the same ticket once when it is scanned twice at once', async () => {
    const { event, tier, tickets } = await eventWithTickets(1);
    const t = await openDoor({ ticketed_events: [event], event_tiers: [tier], tickets });
    const verdicts = await Promise.all([1, 2, 3].map(() => t.store.scanAtDoor(tickets[0]!.code!)));
    expect(verdicts.map((v) => v.verdict).sort()).toEqual(['already_redeemed', 'already_redeemed', 'ok']);
  });

  it('online shows the server’s verdict and reports nothing; a slow server gets the door’s own', async () => {
    const { event, tier, tickets } = await eventWithTickets(3);
    const t = await openDoor({ ticketed_events: [event], event_tiers: [tier], tickets });
    const answer = (
      ticket: (typeof tickets)[number],
      verdict: DoorCheckinAnswer['verdict'],
    ): DoorCheckinAnswer => ({
      object: 'checkin',
      verdict,
      event: event.id,
      door: 'Counter 1',
      ticket: ticket.id,
      order: ticket.order,
      tier: { id: tier.id, name: 'VIP' },
      holder: ticket.holder_name,
      checked_in:
        verdict === 'already_redeemed'
          ? { at: NOW - 60, door: 'South gate' }
          : { at: NOW, door: 'Counter 1' },
    });
    t.transport.doorAnswer = () => Promise.resolve(answer(tickets[0]!, 'already_redeemed'));
    const refused = await t.store.scanAtDoor(tickets[0]!.code!);
    expect(refused).toMatchObject({
      verdict: 'already_redeemed',
      source: 'server',
      checked_in: { door: 'South gate' },
    });
    t.transport.doorAnswer = () => Promise.resolve(answer(tickets[1]!, 'ok'));
    expect(await t.store.scanAtDoor(tickets[1]!.code!)).toMatchObject({ verdict: 'ok', source: 'server' });
    // What the server said is known at once: offline now, both are refused, naming the doors it named.
    t.transport.doorAnswer = () => Promise.reject(new Error('offline'));
    expect(await t.store.scanAtDoor(tickets[1]!.code!)).toMatchObject({
      verdict: 'already_redeemed',
      checked_in: { door: 'Counter 1', at: NOW },
    });
    expect(await t.store.scanAtDoor(tickets[0]!.code!)).toMatchObject({
      verdict: 'already_redeemed',
      checked_in: { door: 'South gate', at: NOW - 60 },
    });
    expect(await door(t, (v) => v.admitted === 2)).toMatchObject({ admittedHere: 1, remaining: 1 });

    // A server slower than the wait: the door's verdict, and its report with the question's scan id.
    t.transport.doorAnswer = () =>
      new Promise((resolve) => setTimeout(() => resolve(answer(tickets[2]!, 'ok')), 5_000));
    const started = performance.now();
    const slow = await t.store.scanAtDoor(tickets[2]!.code!);
    expect(performance.now() - started).toBeLessThan(DOOR_ONLINE_WAIT_MS + 1_000);
    expect(slow).toMatchObject({ verdict: 'ok', source: 'door' });
    expect(t.transport.doorQuestions.at(-1)!.scan).toBe(slow.scan);
    await t.store.syncNow();
    await settle(() =>
      expect(reports(t).map((c) => (c.payload as { scan: string }).scan)).toEqual([slow.scan]),
    );
  });

  it('names another door’s check-in, shows double admissions, and goes on after a bad code', async () => {
    const { event, tier, tickets } = await eventWithTickets(3);
    const checkin: PullDocument<'checkins'> = {
      id: newId('checkin'),
      _deleted: false,
      event: event.id,
      ticket: tickets[1]!.id,
      door: 'South gate',
      at: NOW - 300,
      scan: null,
    };
    const double: PullDocument<'double_admissions'> = {
      id: 'dadm_1',
      _deleted: false,
      event: event.id,
      ticket: tickets[1]!.id,
      holder_name: 'Holder 1',
      first: { checkin: checkin.id, door: 'South gate', at: NOW - 300 },
      door: 'Counter 1',
      at: NOW - 200,
      scan: newId('scan'),
      detected_at: NOW - 100,
    };
    const t = await openDoor({
      ticketed_events: [event],
      event_tiers: [tier],
      tickets,
      checkins: [checkin],
      double_admissions: [double],
    });
    await pulled(t, 'double_admissions');
    const view = await door(t, (v) => v.doubles.length === 1);
    expect(view.doubles[0]).toEqual({
      id: 'dadm_1',
      ticket: tickets[1]!.id,
      holder: 'Holder 1',
      first: { door: 'South gate', at: NOW - 300 },
      second: { door: 'Counter 1', at: NOW - 200 },
    });
    expect(view).toMatchObject({ admitted: 1, admittedHere: 1, remaining: 2 });
    expect(await t.store.scanAtDoor(tickets[1]!.code!)).toMatchObject({
      verdict: 'already_redeemed',
      checked_in: { door: 'South gate', at: NOW - 300 },
    });
    expect((await t.store.scanAtDoor('not a ticket')).verdict).toBe('invalid');
    expect((await t.store.scanAtDoor('')).verdict).toBe('invalid');
    expect((await t.store.scanAtDoor(tickets[2]!.code!)).verdict).toBe('ok');
  });

  it('asks which event where several are on, and judges for the one chosen', async () => {
    const a = await eventWithTickets(1);
    const b = await eventWithTickets(1);
    const t = await openDoor({
      ticketed_events: [a.event, { ...b.event, starts_at: a.event.starts_at + 60 }],
      event_tiers: [a.tier, b.tier],
      tickets: [...a.tickets, ...b.tickets],
    });
    expect(await door(t, (v) => v.events.length === 2)).toMatchObject({ event: null });
    await expect(t.store.scanAtDoor(a.tickets[0]!.code!)).rejects.toMatchObject({ code: 'invalid' });
    await t.store.chooseDoorEvent(b.event.id);
    await door(t, (v) => v.event?.id === b.event.id);
    expect((await t.store.scanAtDoor(a.tickets[0]!.code!)).verdict).toBe('wrong_event');
    expect((await t.store.scanAtDoor(b.tickets[0]!.code!)).verdict).toBe('ok');
  });
  it('pulls 3,000 tickets in pages, finds each by its code, and refuses one voided after the first sync', async () => {
    const { event, tier, tickets, sign } = await eventWithTickets(3000);
    // Doors open in ten minutes: a ticket found answers `not_yet_valid`, and nothing is admitted yet.
    const t = await openDoor({
      ticketed_events: [{ ...event, doors_open_at: NOW + 600 }],
      event_tiers: [tier],
      tickets,
    });
    await door(t, (v) => v.remaining === 3000);
    const pages = t.transport.pulls.filter((pull) => pull.collection === 'tickets');
    expect(pages.slice(0, 4).map((pull) => [pull.checkpoint?.seq ?? 0, pull.limit])).toEqual(
      [0, 1000, 2000, 3000].map((seq) => [seq, PULL_PAGE_MAX]),
    );
    for (const [i, ticket] of tickets.entries()) {
      const found = await t.store.scanAtDoor(ticket.code!);
      expect(found, `ticket ${i}`).toMatchObject({
        verdict: 'not_yet_valid',
        ticket: ticket.id,
        holder: `Holder ${i}`,
      });
    }

    // On the server: one ticket voided, another re-issued under a new code (its old one revoked).
    const upgrade = { ...tier, id: newId('eventTier'), name: 'VVIP' };
    const voided = { ...tickets[7]!, status: 'void' as const };
    const reissued = {
      ...tickets[8]!,
      tier: upgrade.id,
      code: await sign({ event: event.id, ticket: tickets[8]!.id, tier: upgrade.id }),
    };
    t.transport.documents.event_tiers = [tier, upgrade];
    t.transport.documents.tickets = [...tickets, voided, reissued];
    await pulled(t, 'event_tiers');
    await pulled(t, 'tickets');
    await door(t, (v) => v.remaining === 2999);
    t.clock.advance(20 * 60_000);
    expect(await t.store.scanAtDoor(tickets[7]!.code!)).toMatchObject({
      verdict: 'canceled',
      ticket: tickets[7]!.id,
    });
    expect((await t.store.scanAtDoor(tickets[8]!.code!)).verdict).toBe('invalid');
    expect(await t.store.scanAtDoor(reissued.code)).toMatchObject({ verdict: 'ok', tier: { name: 'VVIP' } });
    expect((await t.store.scanAtDoor(tickets[2999]!.code!)).verdict).toBe('ok');
    expect((await t.store.scanAtDoor(tickets[7]!.code!)).verdict).toBe('canceled');
  }, 120_000);
});
