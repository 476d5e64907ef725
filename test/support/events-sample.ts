/** A festival for the office's screenshots: two tiers, a promo code, paid orders spread over a week of sales, and admissions at two gates, one ticket twice. */
import type { RunningServer } from '../../apps/server/src/server.ts';
import { newId } from '@tz/core';
import { pairedDoor, report } from '../events/door-support.ts';
import { inDays, payOrder } from '../events/support.ts';
import type { Api } from './retail.ts';

const BUYERS = [
  ['Amina Juma', '0754000111'],
  ['John Mushi', '0765111222'],
  ['Neema Kweka', '0713222333'],
  ['Baraka Mollel', '0784333444'],
  ['Zawadi Said', '0655444555'],
  ['Omari Ally', '0621555666'],
] as const;

export async function eventsSample(server: RunningServer, api: Api): Promise<void> {
  await api.patch('/v1/events/organizer', {
    display_name: 'Sauti za Busara',
    payout_phone: '0712345678',
    refund_policy: 'Tiketi zinarudishiwa pesa hadi wiki moja kabla ya tamasha.',
  });
  const event = (
    await api.post('/v1/events', {
      name: 'Sauti za Busara 2027',
      venue: 'Ngome Kongwe, Stone Town',
      starts_at: inDays(20),
      ends_at: inDays(20.3),
      capacity: 1200,
    })
  ).body;
  const vip = (await api.post(`/v1/events/${event.id}/tiers`, { name: 'VIP', price: 150_000, quantity: 100 }))
    .body;
  const regular = (
    await api.post(`/v1/events/${event.id}/tiers`, {
      name: 'Kawaida',
      price: 30_000,
      quantity: 1000,
      per_order_limit: 8,
    })
  ).body;
  await api.post(`/v1/events/${event.id}/promos`, { code: 'BUSARA10', percent_off: 10, usage_limit: 50 });
  await api.patch(`/v1/events/${event.id}`, { status: 'published' });
  await api.post('/v1/events', {
    name: 'Usiku wa Taarab',
    venue: 'Bwawani, Zanzibar',
    starts_at: inDays(45),
    ends_at: inDays(45.2),
    capacity: 300,
  });
  const tickets: Array<{ id: string; code: string }> = [];
  for (const [index, [name, phone]] of BUYERS.entries()) {
    const lines = [
      { tier: regular.id, quantity: 1 + (index % 4) },
      ...(index % 2 === 0 ? [{ tier: vip.id, quantity: 1 }] : []),
    ];
    const paid = await payOrder(
      server.url,
      api,
      await api.post('/v1/events/orders', {
        event: event.id,
        lines,
        buyer: { name, phone },
        ...(index === 1 ? { promo_code: 'BUSARA10' } : {}),
      }),
    );
    tickets.push(...paid.tickets);
    // Paid over the past week, as a festival's sales come in.
    await server.database.pool.query(
      `UPDATE event_orders SET paid_at = now() - make_interval(days => $2) WHERE id = $1`,
      [paid.id, 6 - index],
    );
  }
  // Two gates admitting, offline: the south gate let the first holder in again.
  const north = await pairedDoor(server, api, 'Lango la Kaskazini');
  const south = await pairedDoor(server, api, 'Lango la Kusini');
  const now = Math.floor(Date.now() / 1000);
  for (const [index, ticket] of tickets.slice(0, 5).entries())
    await (index % 2 === 0 ? north : south).push(
      report({
        scan: newId('scan'),
        event: event.id,
        ticket: ticket.id,
        code: ticket.code,
        door: index % 2 === 0 ? north.name : south.name,
        at: now - 600 + index * 60,
      }),
    );
  await south.push(
    report({
      scan: newId('scan'),
      event: event.id,
      ticket: tickets[0]!.id,
      code: tickets[0]!.code,
      door: south.name,
      at: now - 30,
    }),
  );
  // One buyer still paying.
  await api.post('/v1/events/orders', {
    event: event.id,
    lines: [{ tier: regular.id, quantity: 2 }],
    buyer: { name: 'Rehema Kimaro', phone: '0744666777' },
  });
}
