import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@tz/core';
import { client, eventually, signUp } from '../support/server.ts';
import type { Api } from '../support/retail.ts';
import { startReceiver, startWebhookServer, type Receiver } from '../webhooks/support.ts';
import { makeEvent, order, payOrder } from './support.ts';
import { applied, pairedDoor, report } from './door-support.ts';

let server: Awaited<ReturnType<typeof startWebhookServer>>;
let receiver: Receiver;
let api: Api;

beforeAll(async () => {
  server = await startWebhookServer();
  receiver = await startReceiver();
  api = client(server.url, (await signUp(server.url, { business_name: 'Mlango Events' })).keys.secretTest);
  const endpoint = await api.post('/v1/webhooks', {
    url: receiver.url,
    events: ['ticket.checked_in', 'ticket.double_admitted'],
  });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
});
afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

describe('a double admission', () => {
  it('reaches the merchant’s receiver as ticket.double_admitted, naming the ticket, both doors and both times', async () => {
    const now = Math.floor(Date.now() / 1000);
    const { event, tiers } = await makeEvent(api, {
      starts_at: now + 3600,
      ends_at: now + 7200,
      doors_open_at: now - 3600,
    });
    const paid = await payOrder(
      server.url,
      api,
      await order(api, event.id, [{ tier: tiers[0]!, quantity: 1 }]),
    );
    const ticket = paid.tickets[0] as { id: string; code: string };
    const north = await pairedDoor(server, api, 'Kaskazini');
    const south = await pairedDoor(server, api, 'Kusini');
    const base = { event: event.id, ticket: ticket.id, code: ticket.code };
    const first = applied(
      (await north.push(report({ ...base, scan: newId('scan'), door: 'Kaskazini', at: now - 90 })))[0],
    );
    const pushedAt = Date.now();
    const second = applied(
      (await south.push(report({ ...base, scan: newId('scan'), door: 'Kusini', at: now - 30 })))[0],
    );

    const delivered = await eventually(
      () => Promise.resolve(receiver.ofType('ticket.double_admitted')[0]),
      15_000,
      'ticket.double_admitted delivered',
    );
    expect(delivered.at - pushedAt).toBeLessThan(15_000);
    expect(delivered.json).toMatchObject({
      type: 'ticket.double_admitted',
      data: {
        object: {
          id: second.double_admission,
          object: 'double_admission',
          event: event.id,
          ticket: ticket.id,
          holder: 'Neema Mushi',
          first: { checkin: first.checkin, door: 'Kaskazini', at: now - 90 },
          door: 'Kusini',
          at: now - 30,
        },
      },
    });
    // One admission, one double admission: the first door's report was delivered as the check-in.
    const checkedIn = await eventually(
      () =>
        Promise.resolve(
          receiver.ofType('ticket.checked_in').find((r) => r.json.data.object.id === ticket.id),
        ),
      15_000,
      'ticket.checked_in delivered',
    );
    expect(checkedIn.json.data.object.checked_in).toEqual({ door: 'Kaskazini', at: now - 90 });
    expect(receiver.ofType('ticket.double_admitted')).toHaveLength(1);
  });
});
