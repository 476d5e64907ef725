import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { anotherMerchant, withMerchant, type SignedUp } from '../support/merchant.ts';
import { client } from '../support/server.ts';
import { movableClock } from '../../apps/server/src/infra/clock.ts';
import { makeSubscription } from './support.ts';

// East Africa Time wall clock.
const eat = (iso: string) => new Date(`${iso}+03:00`);
const unix = (date: Date) => Math.floor(date.getTime() / 1000);
const clock = movableClock(eat('2027-01-31T10:00:00'));

let server: RunningServer;
let api: SignedUp['api'];
let owner: SignedUp['merchant'];
let other: SignedUp;

beforeAll(async () => {
  // No scheduler: these tests are about the merchant's side, nothing here falls due.
  const started = await withMerchant({ env: { SUBSCRIPTION_SCHEDULER: 'false' }, clock });
  server = started.server;
  api = started.api;
  owner = started.merchant;
  other = await anotherMerchant(server);
});
afterAll(() => server?.close());

const count = async (table: string) =>
  Number((await server.database.pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n);

describe('subscriptions over the API', () => {
  it('creates a subscription with a trial, its first period due at the trial’s end', async () => {
    const created = await makeSubscription(api, { trial_period_days: 14, metadata: { plan: 'gold' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'subscription',
      status: 'trialing',
      amount: 15_000,
      currency: 'TZS',
      interval: 'month',
      interval_count: 1,
      phone: '255700000001',
      metadata: { plan: 'gold' },
      start_date: unix(clock.now()),
      trial_end: unix(eat('2027-02-14T10:00:00')),
      current_period_start: unix(clock.now()),
      current_period_end: unix(eat('2027-02-14T10:00:00')),
      next_renewal: unix(eat('2027-02-14T10:00:00')),
      cancel_at_period_end: false,
      after_final_failure: 'cancel',
      livemode: false,
    });
    expect(created.body.id).toMatch(/^sub_/);
    const event = await server.database.pool.query(
      `SELECT data FROM events WHERE type = 'subscription.created' AND data->'object'->>'id' = $1`,
      [created.body.id],
    );
    expect(event.rows).toHaveLength(1);
  });

  it('lists newest first, filters by status and customer, and retrieves one', async () => {
    const later = await makeSubscription(api, { start_date: unix(eat('2027-03-01T09:00:00')) });
    expect(later.body).toMatchObject({ status: 'active', current_period_start: null, trial_end: null });
    const listed = await api.get('/v1/subscriptions?limit=2');
    expect(listed.body.data[0].id).toBe(later.body.id);
    const trialing = await api.get('/v1/subscriptions?status=trialing');
    expect(trialing.body.data.every((s: { status: string }) => s.status === 'trialing')).toBe(true);
    const mine = await api.get(`/v1/subscriptions?customer=${later.body.customer}`);
    expect(mine.body.data.map((s: { id: string }) => s.id)).toEqual([later.body.id]);
    expect((await api.get(`/v1/subscriptions/${later.body.id}`)).body).toEqual(later.body);
  });

  it('cancels at period end, then refuses to cancel a canceled subscription', async () => {
    const created = await makeSubscription(api, { trial_period_days: 7 });
    const atEnd = await api.post(`/v1/subscriptions/${created.body.id}/cancel`, { at_period_end: true });
    expect(atEnd.body).toMatchObject({ status: 'trialing', cancel_at_period_end: true, canceled_at: null });
    const now = await api.post(`/v1/subscriptions/${created.body.id}/cancel`);
    expect(now.status).toBe(200);
    expect(now.body).toMatchObject({
      status: 'canceled',
      canceled_at: unix(clock.now()),
      cancellation_reason: 'requested',
      next_renewal: null,
    });
    const again = await api.post(`/v1/subscriptions/${created.body.id}/cancel`);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'invalid_request_error', code: 'state_transition_invalid' });
    const events = await server.database.pool.query(
      `SELECT type FROM events WHERE data->'object'->>'id' = $1 ORDER BY seq`,
      [created.body.id],
    );
    expect(events.rows.map((r) => r.type)).toEqual(['subscription.created', 'subscription.canceled']);
  });
});

describe('resuming a subscription set to cancel at period end', () => {
  it('undoes the cancellation before the period ends, and refuses when nothing is scheduled', async () => {
    const created = await makeSubscription(api, { trial_period_days: 7 });
    const id: string = created.body.id;
    await api.post(`/v1/subscriptions/${id}/cancel`, { at_period_end: true });
    const resumed = await api.post(`/v1/subscriptions/${id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toEqual({ ...created.body, cancel_at_period_end: false });
    expect((await api.get(`/v1/subscriptions/${id}`)).body).toEqual(resumed.body);
    const again = await api.post(`/v1/subscriptions/${id}/resume`);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'invalid_request_error', code: 'state_transition_invalid' });
    expect(Object.keys(again.body.details)).toEqual(['cancel_at_period_end']);
    // Scheduling and undoing a cancellation are not events; the cancellation itself is, when it happens.
    const events = await server.database.pool.query(
      `SELECT type FROM events WHERE data->'object'->>'id' = $1 ORDER BY seq`,
      [id],
    );
    expect(events.rows.map((r) => r.type)).toEqual(['subscription.created']);
  });

  it('refuses a canceled subscription, naming its status', async () => {
    const created = await makeSubscription(api, { trial_period_days: 7 });
    await api.post(`/v1/subscriptions/${created.body.id}/cancel`);
    const refused = await api.post(`/v1/subscriptions/${created.body.id}/resume`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'state_transition_invalid',
      details: { status: "is 'canceled'" },
    });
    expect((await api.get(`/v1/subscriptions/${created.body.id}`)).body.status).toBe('canceled');
  });

  it('refuses once the period has ended, when the cancellation is taking effect', async () => {
    const started = clock.now();
    const created = await makeSubscription(api, { trial_period_days: 7 });
    const id: string = created.body.id;
    await api.post(`/v1/subscriptions/${id}/cancel`, { at_period_end: true });
    try {
      clock.set(new Date(created.body.trial_end * 1000));
      const refused = await api.post(`/v1/subscriptions/${id}/resume`);
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body.details)).toEqual(['current_period_end']);
      expect((await api.get(`/v1/subscriptions/${id}`)).body.cancel_at_period_end).toBe(true);
    } finally {
      clock.set(started);
    }
  });

  it('answers 404 to another merchant and to the other mode, changing nothing', async () => {
    const mine = await makeSubscription(api, { trial_period_days: 3 });
    await api.post(`/v1/subscriptions/${mine.body.id}/cancel`, { at_period_end: true });
    // The same merchant's live key: the other mode.
    const ownLive = client(server.url, owner.keys.secretLive);
    for (const outsider of [other.api, ownLive]) {
      const resume = await outsider.post(`/v1/subscriptions/${mine.body.id}/resume`);
      expect(resume.status).toBe(404);
      expect(resume.body).toMatchObject({ error: 'not_found', code: 'resource_missing' });
    }
    expect((await api.get(`/v1/subscriptions/${mine.body.id}`)).body.cancel_at_period_end).toBe(true);
  });
});

describe('bad input changes nothing', () => {
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['an unknown interval', { interval: 'fortnight' }, 'parameter_invalid', 'interval'],
    ['a zero interval_count', { interval_count: 0 }, 'parameter_invalid', 'interval_count'],
    [
      'more than a year of weeks',
      { interval: 'week', interval_count: 53 },
      'parameter_invalid',
      'interval_count',
    ],
    ['two years', { interval: 'year', interval_count: 2 }, 'parameter_invalid', 'interval_count'],
    ['a start date in the past', { start_date: unix(clock.now()) - 3600 }, 'parameter_invalid', 'start_date'],
    ['a zero-day trial', { trial_period_days: 0 }, 'parameter_invalid', 'trial_period_days'],
    ['a fractional amount', { amount: 10.5 }, 'amount_invalid', 'amount'],
    ['a landline', { phone: '0222110000' }, 'phone_invalid', 'phone'],
    ['an unknown field', { plan: 'gold' }, 'parameter_unknown', 'plan'],
  ];
  it.each(cases)('refuses %s with a 400 naming the field', async (_, overrides, code, field) => {
    const before = await count('subscriptions');
    const response = await makeSubscription(api, overrides);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_request_error', code });
    expect(Object.keys(response.body.details ?? {})).toContain(field);
    expect(await count('subscriptions')).toBe(before);
  });

  it('does not see another merchant’s or the other mode’s subscriptions and customers', async () => {
    const mine = await makeSubscription(api, { trial_period_days: 3 });
    const live = client(server.url, (await anotherMerchant(server)).merchant.keys.secretLive);
    const before = await count('subscriptions');
    for (const outsider of [other.api, live]) {
      const read = await outsider.get(`/v1/subscriptions/${mine.body.id}`);
      expect(read.status).toBe(404);
      expect(read.body).toMatchObject({ error: 'not_found', code: 'resource_missing' });
      const cancel = await outsider.post(`/v1/subscriptions/${mine.body.id}/cancel`);
      expect(cancel.status).toBe(404);
      const subscribe = await outsider.post('/v1/subscriptions', {
        customer: mine.body.customer,
        amount: 1_000,
        currency: 'TZS',
        interval: 'month',
        phone: '255700000001',
      });
      expect(subscribe.status).toBe(404);
      expect(subscribe.body.message).toContain('customer');
    }
    expect((await api.get(`/v1/subscriptions/${mine.body.id}`)).body.status).toBe('trialing');
    expect(await count('subscriptions')).toBe(before);
  });
});
