import type { Clock } from '../../apps/server/src/services/clock.ts';
import type { client } from '../support/server.ts';

/** A clock the test moves; scheduled work reads it, everything else keeps real time. */
export class MovableClock implements Clock {
  private at: number;
  constructor(start: Date) {
    this.at = start.getTime();
  }
  now(): Date {
    return new Date(this.at);
  }
  set(to: Date): void {
    this.at = to.getTime();
  }
  advanceDays(days: number): void {
    this.at += days * 86_400_000;
  }
}

type Api = ReturnType<typeof client>;

/** A customer and a subscription for it, with the given fields over sensible defaults. */
export async function makeSubscription(api: Api, overrides: Record<string, unknown> = {}) {
  const customer = await api.post('/v1/customers', { name: 'Neema Mushi' });
  const created = await api.post('/v1/subscriptions', {
    customer: customer.body.id,
    amount: 15_000,
    currency: 'TZS',
    interval: 'month',
    phone: '255700000001',
    ...overrides,
  });
  return created;
}
