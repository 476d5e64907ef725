import { freePort } from '../../../../test/support/process.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { startBridge, type Bridge } from '@tz/printers';
import { BridgeWatch } from './bridge-watch.ts';
import { detectBridge, type DetectedBridge } from './detect-bridge.ts';

const TOKEN = 'bridge-watch-test-token-0123456789';
const ORIGINS = ['http://127.0.0.1:4000'];

describe('looking again for the printer bridge', () => {
  let bridge: Bridge | undefined;
  let watch: BridgeWatch | undefined;
  afterEach(async () => {
    watch?.stop();
    await bridge?.close();
    bridge = undefined;
  });

  async function watchFor(port: number, options: { firstDelayMs: number }) {
    const settings = { bridgeUrl: `http://127.0.0.1:${port}`, bridgeToken: TOKEN };
    const looks: number[] = [];
    const lookedAt: number[] = [];
    const look = (timeoutMs: number) => {
      looks.push(timeoutMs);
      lookedAt.push(performance.now());
      return detectBridge(settings, { ipc: undefined, timeoutMs });
    };
    const first = await detectBridge(settings, { ipc: undefined, timeoutMs: 300 });
    expect(first.kind).toBe('none');
    watch = new BridgeWatch(first, { look, retry: true, maxDelayMs: 200, timeoutMs: 1000, ...options });
    const seen: DetectedBridge['kind'][] = [];
    watch.subscribe((found) => seen.push(found.kind));
    return { looks, lookedAt, seen, watch };
  }

  it('finds a bridge started after the till, with backoff, and says so to whoever follows it', async () => {
    const port = await freePort();
    const { looks, lookedAt, seen, watch } = await watchFor(port, { firstDelayMs: 20 });
    const started = performance.now();
    watch.start();
    await expect.poll(() => looks.length, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(4);
    // Missed looks came again, further apart each time (20, 40, 80 ms, then the 200 ms most), not in a tight loop.
    const gaps = [started, ...lookedAt].slice(0, 5).map((at, i, all) => (i === 0 ? 0 : at - all[i - 1]!));
    [20, 40, 80, 160].forEach((delay, i) => expect(gaps[i + 1]).toBeGreaterThanOrEqual(delay - 2));
    expect(watch.current()).toBeNull();

    bridge = await startBridge({ port, origins: ORIGINS, token: TOKEN });
    await expect.poll(() => watch.state.kind, { timeout: 3000, interval: 20 }).toBe('http');
    expect(seen).toEqual(['none', 'http']);
    expect(watch.current()?.kind).toBe('http');
    // Found: it stops looking. Proving no look comes needs a wait longer than the longest delay (200 ms).
    const after = looks.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(looks.length).toBe(after);
  });

  it('looks at once when a print finds no bridge, without waiting for the next look', async () => {
    const port = await freePort();
    const { looks, watch } = await watchFor(port, { firstDelayMs: 60_000 });
    watch.start();
    expect(await watch.recheck()).toBeNull();
    expect(looks).toEqual([1000]);

    bridge = await startBridge({ port, origins: ORIGINS, token: TOKEN });
    const found = await watch.recheck();
    expect(found?.kind).toBe('http');
    expect(watch.state.kind).toBe('http');
    expect(looks).toHaveLength(2);
  });

  it('never looks when there is nothing to look for', async () => {
    let looked = 0;
    const none: DetectedBridge = { kind: 'none', detail: 'No printer' };
    const fixed = new BridgeWatch(none, {
      look: () => {
        looked += 1;
        return Promise.resolve(none);
      },
      retry: false,
      firstDelayMs: 1,
    });
    fixed.start();
    expect(await fixed.recheck()).toBeNull();
    // Proving no look comes needs a wait well past its 1 ms delay.
    await new Promise((resolve) => setTimeout(resolve, 30));
    fixed.stop();
    expect(looked).toBe(0);
  });
});
