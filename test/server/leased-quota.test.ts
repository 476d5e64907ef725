import { describe, expect, it, vi } from 'vitest';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { LeasedQuota, leaseSize } from '../../apps/server/src/infra/rate-limits.ts';

/** A real in-memory store that counts how often it is asked: the shared store several processes use. */
function countingStore(points: number, duration: number) {
  const store = new RateLimiterMemory({ points, duration });
  let calls = 0;
  const consume = store.consume.bind(store);
  store.consume = (key, n, options) => {
    calls++;
    return consume(key, n, options);
  };
  return { store, calls: () => calls };
}

const outcome = async (quota: LeasedQuota, key: string) => {
  const check = await quota.consume(key);
  return { ok: !check.limited, remaining: check.remaining };
};

describe('leased rate-limit quotas', () => {
  it('sizes leases by what the store has left', () => {
    expect(leaseSize(100, 100)).toBe(10);
    expect(leaseSize(100, 40)).toBe(5);
    expect(leaseSize(100, 15)).toBe(1);
    expect(leaseSize(3, 3)).toBe(1);
    expect(leaseSize(100_000_000, 100_000_000)).toBe(10_000_000);
  });

  it('is exact for one process: the quota, then refusals, with the store asked far less than once per request', async () => {
    const { store, calls } = countingStore(100, 60);
    const quota = new LeasedQuota(store);
    const results = [];
    for (let i = 0; i < 130; i++) results.push(await outcome(quota, 'key_a'));
    expect(results.filter((r) => r.ok)).toHaveLength(100);
    expect(results.slice(100).every((r) => !r.ok)).toBe(true);
    // Remaining counts down by one per request, as the RateLimit-Remaining header shows.
    expect(results.slice(0, 100).map((r) => r.remaining)).toEqual(
      Array.from({ length: 100 }, (_, i) => 99 - i),
    );
    expect(calls()).toBeLessThan(40);
  });

  it('never lets processes sharing a store exceed the quota, and refuses at most a few early', async () => {
    const { store } = countingStore(100, 60);
    const processes = [new LeasedQuota(store), new LeasedQuota(store), new LeasedQuota(store)];
    let ok = 0;
    for (let i = 0; i < 300; i++) if ((await outcome(processes[i % 3]!, 'key_b')).ok) ok++;
    expect(ok).toBeLessThanOrEqual(100);
    expect(ok).toBeGreaterThanOrEqual(90);
  });

  it('holds under concurrent requests for one key', async () => {
    const { store } = countingStore(50, 60);
    const quota = new LeasedQuota(store);
    const results = await Promise.all(Array.from({ length: 80 }, () => outcome(quota, 'key_c')));
    expect(results.filter((r) => r.ok)).toHaveLength(50);
  });

  it('keeps keys apart and grants again when the window ends', async () => {
    // The store's and the leases' clock, moved by the test.
    vi.useFakeTimers();
    try {
      const { store } = countingStore(2, 1);
      const quota = new LeasedQuota(store);
      expect([
        (await outcome(quota, 'x')).ok,
        (await outcome(quota, 'x')).ok,
        (await outcome(quota, 'x')).ok,
      ]).toEqual([true, true, false]);
      expect((await outcome(quota, 'y')).ok).toBe(true);
      vi.advanceTimersByTime(900);
      expect((await outcome(quota, 'x')).ok).toBe(false);
      vi.advanceTimersByTime(200);
      expect((await outcome(quota, 'x')).ok).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('passes a store failure on and asks again next time', async () => {
    const { store } = countingStore(10, 60);
    const quota = new LeasedQuota(store);
    const consume = store.consume.bind(store);
    store.consume = () => Promise.reject(new Error('store unreachable'));
    await expect(quota.consume('z')).rejects.toThrow('store unreachable');
    store.consume = consume;
    expect((await outcome(quota, 'z')).ok).toBe(true);
  });
});
