import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { movableClock } from '../../apps/server/src/infra/clock.ts';
import { withMerchant } from '../support/merchant.ts';
import type { Api } from '../support/retail.ts';
import { expectBadRequest, inDays, makeEvent, order, payOrder } from './support.ts';

const clock = movableClock();
let server: RunningServer;
let api: Api;

beforeAll(async () => {
  ({ server, api } = await withMerchant({ env: { EVENT_HOLD_RELEASE: 'false' }, clock }));
});
afterAll(() => server?.close());

const twoTiers = () =>
  makeEvent(api, {
    capacity: 100,
    tiers: [
      { name: 'VIP', price: 100_000, quantity: 50 },
      { name: 'Regular', price: 30_000, quantity: 50 },
    ],
  });

describe('promo codes', () => {
  it('take a percentage off one tier, or a fixed amount off the order, once', async () => {
    const { event, tiers } = await twoTiers();
    const vip = await api.post(`/v1/events/${event.id}/promos`, {
      code: 'VIP15',
      percent_off: 15,
      tier: tiers[0],
    });
    expect(vip.status, JSON.stringify(vip.body)).toBe(201);
    expect(
      (await api.post(`/v1/events/${event.id}/promos`, { code: 'karibu', amount_off: 5_000 })).status,
    ).toBe(201);
    const lines = [
      { tier: tiers[0]!, quantity: 1 },
      { tier: tiers[1]!, quantity: 1 },
    ];
    const percent = await order(api, event.id, lines, { promo_code: 'vip15' });
    expect(percent.body).toMatchObject({ promo: vip.body.id, discount: 15_000, amount: 115_000 });
    const checkout = await api.get(`/v1/checkout/${percent.body.checkout}`);
    expect(checkout.body.amount).toBe(115_000);
    const fixed = await order(api, event.id, lines, { promo_code: 'KARIBU' });
    expect(fixed.body).toMatchObject({ discount: 5_000, amount: 125_000 });
    const paid = await payOrder(server.url, api, fixed);
    expect(paid).toMatchObject({ status: 'paid', amount: 125_000 });
    // A tier the promo is not for gets nothing from it.
    const other = await order(api, event.id, [{ tier: tiers[1]!, quantity: 1 }], { promo_code: 'VIP15' });
    expectBadRequest(other, 'promo_code');
    expect(other.body.code).toBe('discount_invalid');
    const listed = await api.get(`/v1/events/${event.id}/promos`);
    expect(listed.body.data.map((promo: { code: string; used: number }) => [promo.code, promo.used])).toEqual(
      [
        ['karibu', 1],
        ['VIP15', 1],
      ],
    );
  });

  it('are refused outside their window, once used up, and once deleted; an expired hold gives its use back', async () => {
    const { event, tiers } = await twoTiers();
    const line = [{ tier: tiers[1]!, quantity: 1 }];
    await api.post(`/v1/events/${event.id}/promos`, {
      code: 'LATER',
      percent_off: 10,
      valid_from: inDays(1),
    });
    expectBadRequest(await order(api, event.id, line, { promo_code: 'LATER' }), 'promo_code');
    const once = await api.post(`/v1/events/${event.id}/promos`, {
      code: 'ONCE',
      amount_off: 1_000,
      usage_limit: 1,
    });
    const first = await order(api, event.id, line, { promo_code: 'ONCE' });
    expect(first.status).toBe(201);
    const second = await order(api, event.id, line, { promo_code: 'ONCE' });
    expect([second.status, second.body.details]).toEqual([400, { promo_code: 'has been used up' }]);

    clock.advance(11 * 60_000);
    await server.services.eventHolds.runDue();
    expect((await api.get(`/v1/events/orders/${first.body.id}`)).body.status).toBe('expired');
    expect((await order(api, event.id, line, { promo_code: 'ONCE' })).status).toBe(201);

    const deleted = await api.delete(`/v1/events/promos/${once.body.id}`);
    expect(deleted.body).toMatchObject({ id: once.body.id, deleted: true });
    expectBadRequest(await order(api, event.id, line, { promo_code: 'ONCE' }), 'promo_code');
    expect((await api.delete(`/v1/events/promos/${once.body.id}`)).status).toBe(404);
  });

  it('refuse bad input with 400 and the field named', async () => {
    const { event, tiers } = await twoTiers();
    const other = await twoTiers();
    const path = `/v1/events/${event.id}/promos`;
    expectBadRequest(await api.post(path, { code: 'BOTH', percent_off: 10, amount_off: 100 }), 'percent_off');
    expectBadRequest(await api.post(path, { code: 'NONE' }), 'percent_off');
    expectBadRequest(await api.post(path, { code: 'HALF', percent_off: 101 }), 'percent_off');
    expectBadRequest(await api.post(path, { code: 'x', percent_off: 10 }), 'code');
    expectBadRequest(await api.post(path, { code: 'NEG', amount_off: -5 }), 'amount_off');
    expectBadRequest(await api.post(path, { code: 'ZERO', percent_off: 5, usage_limit: 0 }), 'usage_limit');
    expectBadRequest(
      await api.post(path, { code: 'WIN', percent_off: 5, valid_from: inDays(2), valid_until: inDays(1) }),
      'valid_until',
    );
    expectBadRequest(await api.post(path, { code: 'THEIRS', percent_off: 5, tier: other.tiers[0] }), 'tier');
    expect((await api.post(path, { code: 'TWICE', percent_off: 5 })).status).toBe(201);
    expectBadRequest(await api.post(path, { code: 'twice', percent_off: 5 }), 'code');
    expectBadRequest(
      await order(api, event.id, [{ tier: tiers[0]!, quantity: 1 }], { promo_code: 'NOPE' }),
      'promo_code',
    );
    expect((await api.get('/v1/events/tev_none/promos')).status).toBe(404);
  });
});
