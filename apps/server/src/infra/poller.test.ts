import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Poller } from './poller.ts';

const logger = pino({ level: 'silent' });

/** A pass that stays open until `finish` is called, recording whether the interval asked for it. */
function controlledPass() {
  const calls: boolean[] = [];
  let running = 0;
  let most = 0;
  let finish: (more: boolean) => void = () => undefined;
  const pass = (polled: boolean) => {
    calls.push(polled);
    running += 1;
    most = Math.max(most, running);
    return new Promise<boolean>((resolve) => {
      finish = (more) => {
        running -= 1;
        resolve(more);
      };
    });
  };
  return { pass, calls, finish: (more = false) => finish(more), most: () => most };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('Poller', () => {
  it('runs a polled pass at start and on each interval, and a woken one when asked', async () => {
    const { pass, calls, finish } = controlledPass();
    const poller = new Poller(pass, { intervalMs: 1_000, logger, failure: 'failed' });
    poller.start();
    expect(calls).toEqual([true]);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    poller.wake();
    expect(calls).toEqual([true, false]);
    finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toEqual([true, false, true]);
    finish();
    await poller.stop();
  });

  it('never overlaps a pass: wakes during one run one more pass after it', async () => {
    const { pass, calls, finish, most } = controlledPass();
    const poller = new Poller(pass, { intervalMs: 60_000, logger, failure: 'failed' });
    poller.start();
    poller.wake();
    poller.wake();
    expect(calls).toHaveLength(1);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
    expect(most()).toBe(1);
    await poller.stop();
  });

  it('runs again at once while a pass says more is due', async () => {
    const { pass, calls, finish } = controlledPass();
    const poller = new Poller(pass, { intervalMs: 60_000, logger, failure: 'failed' });
    poller.start();
    finish(true);
    await vi.advanceTimersByTimeAsync(0);
    finish(true);
    await vi.advanceTimersByTimeAsync(0);
    finish(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(3);
    await poller.stop();
  });

  it('gathers wakes within the minimum gap into one pass', async () => {
    const { pass, calls, finish } = controlledPass();
    const poller = new Poller(pass, { intervalMs: 60_000, minGapMs: 50, logger, failure: 'failed' });
    poller.start();
    finish();
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 5; i++) poller.wake();
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(50);
    expect(calls).toHaveLength(2);
    finish();
    await poller.stop();
  });

  it('wakes after a delay, and forgets the delay once stopped', async () => {
    const { pass, calls, finish } = controlledPass();
    const poller = new Poller(pass, { intervalMs: 60_000, logger, failure: 'failed' });
    poller.start();
    finish();
    await vi.advanceTimersByTimeAsync(0);
    poller.wakeAfter(100);
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toHaveLength(2);
    finish();
    poller.wakeAfter(100);
    await poller.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(2);
  });

  it('waits for the pass under way when stopped, and runs none after', async () => {
    const { pass, calls, finish } = controlledPass();
    const poller = new Poller(pass, { intervalMs: 1_000, logger, failure: 'failed' });
    poller.start();
    poller.wake();
    let stopped = false;
    const stopping = poller.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toHaveLength(1);
  });

  it('logs a failing pass once per outage', async () => {
    const errors: unknown[] = [];
    const recording = pino({ level: 'error', hooks: { logMethod: (args) => void errors.push(args[0]) } });
    let fail = true;
    const poller = new Poller(() => (fail ? Promise.reject(new Error('down')) : Promise.resolve(false)), {
      intervalMs: 100,
      logger: recording,
      failure: 'failed',
    });
    poller.start();
    await vi.advanceTimersByTimeAsync(350);
    expect(errors).toHaveLength(1);
    fail = false;
    await vi.advanceTimersByTimeAsync(100);
    fail = true;
    await vi.advanceTimersByTimeAsync(100);
    expect(errors).toHaveLength(2);
    await poller.stop();
  });
});
