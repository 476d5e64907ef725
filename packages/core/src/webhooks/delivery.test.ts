import { describe, expect, it } from 'vitest';
import { afterAttempt, subscribes } from './delivery.ts';

describe('webhook delivery schedule', () => {
  const delays = [0, 60_000, 300_000];

  it('succeeds on any successful attempt', () => {
    expect(afterAttempt(1, true, delays)).toEqual({ status: 'succeeded' });
    expect(afterAttempt(3, true, delays)).toEqual({ status: 'succeeded' });
  });

  it('waits the next configured delay after a failed attempt', () => {
    expect(afterAttempt(1, false, delays)).toEqual({ status: 'pending', retryInMs: 60_000 });
    expect(afterAttempt(2, false, delays)).toEqual({ status: 'pending', retryInMs: 300_000 });
  });

  it('fails the delivery after the last attempt', () => {
    expect(afterAttempt(3, false, delays)).toEqual({ status: 'failed', reason: 'attempts_exhausted' });
    expect(afterAttempt(1, false, [0])).toEqual({ status: 'failed', reason: 'attempts_exhausted' });
  });

  it('matches subscriptions by exact type or *', () => {
    expect(subscribes(['payment.succeeded'], 'payment.succeeded')).toBe(true);
    expect(subscribes(['payment.succeeded'], 'payment.failed')).toBe(false);
    expect(subscribes(['*'], 'customer.created')).toBe(true);
  });
});
