/**
 * The box office through the tills' push, on PostgreSQL: a till's sale of
 * tickets is applied once under its command id, issued as paid under the
 * till's ids and unsigned codes (`event_order.paid`, channel `till`), counted
 * in the tiers and in the till's Z report; its codes admit at any door once
 * pulled, and a forged unsigned code does not; a sale that finds its seats
 * taken meanwhile is recorded all the same, `oversold`, outside the counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listedTicketCode, newId, type Command } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import type { TillActor } from '../../apps/server/src/actor.ts';
import { client, signUp, startTestServer } from '../support/server.ts';
import { paidPayment, type Api } from '../support/retail.ts';
import { makeEmployee, pairedTill } from '../support/tills.ts';
import { makeEvent } from './support.ts';

let server: RunningServer;
let api: Api;
let merchantId: string;
let actor: TillActor;
let sync: RunningServer['services']['sync'];
let cashier: { id: string };
let shift: string;

const at = Math.floor(Date.now() / 1000);
const command = (type: Command['type'], payload: Record<string, unknown>): Command => ({
  id: `cmd_${newId('request').slice(-26).toUpperCase()}`,
  type,
  created_at: Date.now(),
  payload,
});

beforeAll(async () => {
  server = await startTestServer();
  const merchant = await signUp(server.url);
  merchantId = merchant.id;
  api = client(server.url, merchant.keys.secretTest);
  const paired = await pairedTill(server, api);
  actor = paired.actor;
  cashier = await makeEmployee(api, [paired.till.store]);
  sync = server.services.sync;
  shift = newId('shift');
  const [opened] = await sync.push(actor, [
    command('shift.open', { shift, cashier: cashier.id, opening_float: 10_000, opened_at: at }),
  ]);
  expect(opened?.status).toBe('applied');
});
afterAll(() => server?.close());

/** A box-office sale of `quantity` tickets of each tier, paid with `tenders`. */
function sale(
  event: string,
  lines: Array<{ tier: string; quantity: number; unit_price: number }>,
  tenders: Array<Record<string, unknown>>,
) {
  const tickets = lines.flatMap((line) =>
    Array.from({ length: line.quantity }, () => ({ id: newId('ticket'), tier: line.tier })),
  );
  const payload = {
    order: newId('eventOrder'),
    event,
    lines,
    tickets,
    holder: 'Box office',
    tenders,
    shift,
    cashier: cashier.id,
    receipt_number: `T01-${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`,
    sold_at: at,
  };
  const codes = tickets.map((ticket) => listedTicketCode({ event, ticket: ticket.id, tier: ticket.tier })!);
  return { command: command('event_order.sell', payload), payload, codes };
}

const eventTypes = async (id: string) =>
  (
    await server.database.pool.query(
      `SELECT type FROM events WHERE merchant_id = $1 AND data->'object'->>'id' = $2 ORDER BY seq`,
      [merchantId, id],
    )
  ).rows.map((row) => row.type);

const tierLeft = async (event: string) =>
  (await api.get(`/v1/events/${event}`)).body.tiers.map((tier: { taken?: number; quantity: number }) => tier);

describe('a box-office sale pushed by a till', () => {
  it('is applied once, issues the tickets paid under the till’s codes, and counts in the tiers and the Z report', async () => {
    const { event, tiers } = await makeEvent(api, {
      starts_at: at + 3600,
      ends_at: at + 6 * 3600,
      doors_open_at: at - 3600,
    });
    const sold = sale(
      event.id,
      [{ tier: tiers[0]!, quantity: 2, unit_price: 20_000 }],
      [{ method: 'cash', amount: 50_000 }],
    );
    const [first] = await sync.push(actor, [sold.command]);
    expect(first).toMatchObject({
      status: 'applied',
      result: { order: sold.payload.order, status: 'paid', tickets: 2, oversold: false },
    });
    // The same command again (a retry after a lost answer) changes nothing.
    const [again] = await sync.push(actor, [sold.command]);
    expect(again).toEqual(first);

    const order = (await api.get(`/v1/events/orders/${sold.payload.order}`)).body;
    expect(order).toMatchObject({
      status: 'paid',
      channel: 'till',
      till: { id: actor.tillId, shift, receipt_number: sold.payload.receipt_number },
      oversold: false,
      amount: 40_000,
      buyer: { name: 'Box office', phone: null },
    });
    expect(order.tickets.map((ticket: { id: string; code: string; status: string }) => ticket)).toEqual(
      sold.payload.tickets.map((ticket, index) =>
        expect.objectContaining({ id: ticket.id, code: sold.codes[index], status: 'valid' }),
      ),
    );
    expect(await eventTypes(sold.payload.order)).toEqual(['event_order.created', 'event_order.paid']);
    expect((await tierLeft(event.id))[0]).toMatchObject({ quantity: 100, available: 98 });

    // The drawer holds the ticket money: 10,000 float + 40,000 (50,000 given, 10,000 change).
    const report = (await api.get(`/v1/retail/shifts/${shift}`)).body.report;
    expect(report).toMatchObject({ order_count: 1, expected_total: 50_000 });

    // Any door admits a till's code once, through the API as through a door's question.
    const checked = await api.post('/v1/events/checkin', {
      event: event.id,
      code: sold.codes[0],
      door: 'Gate',
    });
    expect(checked.body).toMatchObject({ verdict: 'ok', ticket: sold.payload.tickets[0]!.id });
    const twice = await api.post('/v1/events/checkin', {
      event: event.id,
      code: sold.codes[0],
      door: 'Gate',
    });
    expect(twice.body.verdict).toBe('already_redeemed');
  });

  it('refuses an unsigned code no ticket holds, and another order’s id', async () => {
    const { event, tiers } = await makeEvent(api, { doors_open_at: at - 3600, starts_at: at + 3600 });
    const forged = listedTicketCode({ event: event.id, ticket: newId('ticket'), tier: tiers[0]! })!;
    const judged = await api.post('/v1/events/checkin', { event: event.id, code: forged, door: 'Gate' });
    expect(judged.body.verdict).toBe('invalid');

    const sold = sale(
      event.id,
      [{ tier: tiers[0]!, quantity: 1, unit_price: 20_000 }],
      [{ method: 'card', amount: 20_000, reference: 'AUTH-1' }],
    );
    expect((await sync.push(actor, [sold.command]))[0]?.status).toBe('applied');
    const reused = sale(
      event.id,
      [{ tier: tiers[0]!, quantity: 1, unit_price: 20_000 }],
      [{ method: 'cash', amount: 20_000 }],
    );
    const [refused] = await sync.push(actor, [
      command('event_order.sell', { ...reused.payload, order: sold.payload.order }),
    ]);
    expect(refused).toMatchObject({ status: 'refused', error: { code: 'parameter_invalid' } });
    // A wrong ticket count for the lines is refused by the schema, naming `tickets`.
    const [short] = await sync.push(actor, [command('event_order.sell', { ...reused.payload, tickets: [] })]);
    expect(short).toMatchObject({ status: 'refused' });
  });

  it('takes a paid mobile money payment once: another sale naming it is refused', async () => {
    const { event, tiers } = await makeEvent(api, { starts_at: at + 3600, ends_at: at + 6 * 3600 });
    const payment = await paidPayment(api, 20_000);
    const line = [{ tier: tiers[0]!, quantity: 1, unit_price: 20_000 }];
    const tender = { method: 'mobile_money', payment: payment.id, amount: 20_000 };
    const first = sale(event.id, line, [tender]);
    const [paid] = await sync.push(actor, [first.command]);
    expect(paid).toMatchObject({ status: 'applied', result: { status: 'paid' } });
    const [again] = await sync.push(actor, [sale(event.id, line, [tender]).command]);
    expect(again).toMatchObject({ status: 'refused', error: { code: 'payment_already_used' } });
    // An unpaid or unknown payment pays for nothing.
    const [unknown] = await sync.push(actor, [
      sale(event.id, line, [{ ...tender, payment: 'pay_unknown' }]).command,
    ]);
    expect(unknown).toMatchObject({ status: 'refused', error: { code: 'parameter_invalid' } });
  });

  it('records a sale that finds its seats taken as oversold, outside the counts, and a refund gives none back', async () => {
    const { event, tiers } = await makeEvent(api, {
      capacity: 3,
      tiers: [{ name: 'Mlangoni', price: 10_000, quantity: 3 }],
      starts_at: at + 3600,
      ends_at: at + 6 * 3600,
    });
    const line = (quantity: number) => [{ tier: tiers[0]!, quantity, unit_price: 10_000 }];
    const first = sale(event.id, line(2), [{ method: 'cash', amount: 20_000 }]);
    const second = sale(event.id, line(2), [{ method: 'cash', amount: 20_000 }]);
    const results = await sync.push(actor, [first.command, second.command]);
    expect(results.map((result) => result.status === 'applied' && result.result.oversold)).toEqual([
      false,
      true,
    ]);
    const oversold = (await api.get(`/v1/events/orders/${second.payload.order}`)).body;
    expect(oversold).toMatchObject({ status: 'paid', oversold: true });
    expect(oversold.tickets.every((ticket: { status: string }) => ticket.status === 'valid')).toBe(true);
    expect((await tierLeft(event.id))[0]).toMatchObject({ quantity: 3, available: 1 });

    const refunded = await api.post(`/v1/events/orders/${second.payload.order}/refund`, {});
    expect(refunded.body.status, JSON.stringify(refunded.body)).toBe('refunded');
    expect((await tierLeft(event.id))[0]).toMatchObject({ available: 1 });
  });
});
