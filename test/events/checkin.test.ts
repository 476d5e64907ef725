import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDoorKey, readTicketCode, verifyTicketCode } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { signTicketCodes } from '../../apps/server/src/events/door-keys.ts';
import { anotherMerchant, withMerchant } from '../support/merchant.ts';
import type { Api } from '../support/retail.ts';
import { expectBadRequest, inDays, makeEvent, order, payOrder } from './support.ts';

let server: RunningServer;
let api: Api;

beforeAll(async () => {
  ({ server, api } = await withMerchant({ business_name: 'Mlango Events' }));
});
afterAll(() => server?.close());

/** An event whose doors are open now, and a paid order of `quantity` tickets. */
async function openDoorsAndTickets(quantity = 1) {
  const made = await makeEvent(api, { starts_at: inDays(0.05), ends_at: inDays(0.3) });
  const paid = await payOrder(
    server.url,
    api,
    await order(api, made.event.id, [{ tier: made.tiers[0]!, quantity }]),
  );
  return { ...made, paid, codes: paid.tickets.map((ticket: { code: string }) => ticket.code) as string[] };
}

const checkin = (body: Record<string, unknown>, headers?: Record<string, string>) =>
  api.post('/v1/events/checkin', body, headers);

/** A code with one character of its signed part changed. */
const tampered = (code: string, at: number) =>
  code.slice(0, at) + (code[at] === 'A' ? 'B' : 'A') + code.slice(at + 1);

describe('check-in', () => {
  it('admits a paid ticket once, then says when and at which door it was admitted', async () => {
    const { event, paid, codes } = await openDoorsAndTickets();
    const first = await checkin({ event: event.id, code: codes[0], door: 'North gate' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      verdict: 'ok',
      ticket: paid.tickets[0].id,
      holder: 'Neema Mushi',
      tier: { id: paid.tickets[0].tier, name: 'Regular' },
      checked_in: { door: 'North gate' },
    });
    const second = await checkin({ event: event.id, code: codes[0], door: 'South gate' });
    expect(second.body).toMatchObject({
      verdict: 'already_redeemed',
      door: 'South gate',
      checked_in: { at: first.body.checked_in.at, door: 'North gate' },
    });
    expect((await api.get(`/v1/events/tickets/${paid.tickets[0].id}`)).body).toMatchObject({
      status: 'valid',
      code: codes[0],
      checked_in: { at: first.body.checked_in.at, door: 'North gate' },
    });
    const recorded = await server.database.pool.query(
      `SELECT count(*)::int AS n FROM events WHERE type = 'ticket.checked_in' AND data->'object'->>'id' = $1`,
      [paid.tickets[0].id],
    );
    expect(recorded.rows[0].n).toBe(1);
  });

  it('answers a retried request with the same Idempotency-Key as the first time', async () => {
    const { event, codes } = await openDoorsAndTickets();
    const headers = { 'Idempotency-Key': `door-${codes[0]!.slice(0, 12)}` };
    const first = await checkin({ event: event.id, code: codes[0] }, headers);
    const retried = await checkin({ event: event.id, code: codes[0] }, headers);
    expect(first.body.verdict).toBe('ok');
    expect(retried.body).toEqual(first.body);
  });

  it('refuses tampered codes, other events’ and other merchants’, and junk, as invalid or wrong_event', async () => {
    const { event, codes } = await openDoorsAndTickets();
    const other = await openDoorsAndTickets();
    const code = codes[0]!;
    // A changed ticket id, tier id or signature: the signature no longer holds.
    for (const at of [30, 60, 100, 140])
      expect((await checkin({ event: event.id, code: tampered(code, at) })).body.verdict, `at ${at}`).toBe(
        'invalid',
      );
    expect((await checkin({ event: event.id, code: other.codes[0] })).body.verdict).toBe('wrong_event');
    expect((await checkin({ event: event.id, code: 'hello' })).body.verdict).toBe('invalid');
    expect((await checkin({ event: event.id, code: code.slice(0, 150) })).body.verdict).toBe('invalid');
    // Signed by another event's key but claiming this event: invalid.
    const forged = readTicketCode(other.codes[0]!)!;
    const claimThis = { ...forged.claim, event: event.id };
    const eventRow = (
      await server.database.pool.query(`SELECT * FROM ticketed_events WHERE id = $1`, [other.event.id])
    ).rows[0];
    const [signedByOther] = signTicketCodes(server.services.secretBox, eventRow, [claimThis]);
    expect((await checkin({ event: event.id, code: signedByOther })).body.verdict).toBe('invalid');
    // Another merchant's event and code: not found to them, and the code means nothing here.
    const stranger = await anotherMerchant(server);
    expect((await stranger.api.post('/v1/events/checkin', { event: event.id, code })).status).toBe(404);
    const theirs = await makeEvent(stranger.api, { starts_at: inDays(0.05), ends_at: inDays(0.3) });
    const answer = await stranger.api.post('/v1/events/checkin', { event: theirs.event.id, code });
    expect(answer.body.verdict).toBe('invalid');
    // The genuine code still admits, once.
    expect((await checkin({ event: event.id, code })).body.verdict).toBe('ok');
  });

  it('says unpaid, canceled and not_yet_valid with the ticket’s tier and holder', async () => {
    const soon = await makeEvent(api, { starts_at: inDays(0.05), ends_at: inDays(0.3) });
    const held = await order(api, soon.event.id, [{ tier: soon.tiers[0]!, quantity: 1 }]);
    const eventRow = (
      await server.database.pool.query(`SELECT * FROM ticketed_events WHERE id = $1`, [soon.event.id])
    ).rows[0];
    const ticket = held.body.tickets[0];
    const [heldCode] = signTicketCodes(server.services.secretBox, eventRow, [
      { event: soon.event.id, ticket: ticket.id, tier: ticket.tier },
    ]);
    expect((await checkin({ event: soon.event.id, code: heldCode })).body).toMatchObject({
      verdict: 'unpaid',
      holder: 'Neema Mushi',
      tier: { name: 'Regular' },
    });

    const later = await makeEvent(api, { starts_at: inDays(2), ends_at: inDays(2.2) });
    const laterPaid = await payOrder(
      server.url,
      api,
      await order(api, later.event.id, [{ tier: later.tiers[0]!, quantity: 1 }]),
    );
    expect((await checkin({ event: later.event.id, code: laterPaid.tickets[0].code })).body.verdict).toBe(
      'not_yet_valid',
    );
    await api.patch(`/v1/events/${later.event.id}`, { status: 'canceled' });
    expect((await checkin({ event: later.event.id, code: laterPaid.tickets[0].code })).body.verdict).toBe(
      'canceled',
    );
  });

  it('answers canceled for a refunded order’s tickets, and gives their seats back', async () => {
    const { event, paid, codes } = await openDoorsAndTickets(2);
    expect((await checkin({ event: event.id, code: codes[0] })).body.verdict).toBe('ok');
    const refunded = await api.post(`/v1/events/orders/${paid.id}/refund`);
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(refunded.body).toMatchObject({ status: 'refunded', refunded: expect.any(Number) });
    expect(refunded.body.tickets.map((ticket: { status: string }) => ticket.status)).toEqual([
      'void',
      'void',
    ]);
    expect((await api.get(`/v1/payments/${paid.payment}`)).body.status).toBe('refunded');
    for (const code of codes)
      expect((await checkin({ event: event.id, code })).body.verdict).toBe('canceled');
    expect((await api.get(`/v1/events/${event.id}`)).body.taken).toBe(0);
    const again = await api.post(`/v1/events/orders/${paid.id}/refund`);
    expect([again.status, again.body.code]).toEqual([400, 'state_transition_invalid']);
    const recorded = await server.database.pool.query(
      `SELECT count(*)::int AS n FROM events WHERE type = 'event_order.refunded' AND data->'object'->>'id' = $1`,
      [paid.id],
    );
    expect(recorded.rows[0].n).toBe(1);
  });

  it('refuses bad input with 400 and the field named', async () => {
    const { event } = await openDoorsAndTickets();
    expectBadRequest(await checkin({ event: event.id }), 'code');
    expectBadRequest(await checkin({ code: 'x' }), 'event');
    expectBadRequest(await checkin({ event: event.id, code: 'x'.repeat(1001) }), 'code');
    expectBadRequest(await checkin({ event: event.id, code: 'x', door: '' }), 'door');
    expectBadRequest(await checkin({ event: event.id, code: 'x', extra: 1 }), 'extra');
  });
});

describe('the door key', () => {
  it('verifies the event’s codes on Web Crypto, as a door does offline, and no other event’s', async () => {
    const { event, codes } = await openDoorsAndTickets(2);
    const other = await openDoorsAndTickets();
    const served = await api.get(`/v1/events/${event.id}/door-key`);
    const key = (await importDoorKey(served.body.public_key))!;
    const claim = await verifyTicketCode(codes[1]!, key);
    expect(claim).toMatchObject({ event: event.id });
    expect(await verifyTicketCode(tampered(codes[1]!, 70), key)).toBeNull();
    expect(await verifyTicketCode(other.codes[0]!, key)).toBeNull();
  });
});
