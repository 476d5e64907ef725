/**
 * The till's status bar tells the truth about its connection, in Chromium
 * against a real server: online; offline when the network is cut (the context's
 * loopback proxy severed and `setOffline`), with the sale sold meanwhile counted
 * as not synced and the last sync kept; online again once it is back and the
 * sale went up; and server unreachable when the network is up but the server
 * is stopped. A printer bridge started after the till is found without a
 * reload. An idle till notices a server gone silent within seconds, with
 * no sale to push, and says online again soon after it answers again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/process.ts';
import type { Page } from 'playwright-core';
import { startBridge, type Bridge } from '@tz/printers';
import { SSE_SILENCE_MS } from '../../apps/server/src/routes/trpc.ts';
import {
  goOffline,
  goOnline,
  newTill,
  openTill,
  scan,
  startTillShop,
  waitForUnsynced,
  type TillShop,
} from '../support/till-e2e.ts';

let shop: TillShop;

beforeAll(async () => {
  shop = await startTillShop();
}, 240_000);
afterAll(async () => {
  await shop?.close();
});

type Shown = 'online' | 'offline' | 'unreachable';

/** Waits until the status bar shows `state`, and answers its words and the page's `navigator.onLine`. */
async function connectionShows(page: Page, state: Shown): Promise<{ text: string; onLine: boolean }> {
  await page.waitForSelector(`[data-testid=connection][data-state=${state}]`, { timeout: 30_000 });
  return page.evaluate(() => ({
    text: document.querySelector('[data-testid=connection]')?.textContent ?? '',
    onLine: navigator.onLine,
  }));
}

const lastSyncAt = async (page: Page) =>
  Number(await page.getAttribute('[data-testid=last-sync]', 'data-at'));

/** F9 for the one item in the cart, Esc on "sale complete", then the item scanned again. */
async function sell(page: Page): Promise<void> {
  await page.keyboard.press('F9');
  await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=sale-done]', { state: 'detached', timeout: 30_000 });
  await scan(page);
}

describe('the till status bar', () => {
  it('finds a printer bridge started after the till, without a reload, and says so', async () => {
    const port = await freePort();
    const token = 'late-bridge-token-0123456789abcdef';
    const made = await newTill(shop);
    await made.context.close(); // its page would know the shop's running bridge
    const { till } = made;
    const context = await shop.browser.newContext({
      proxy: { server: shop.proxy.url, bypass: `127.0.0.1:${port}` },
      viewport: { width: 1366, height: 768 },
    });
    await context.addInitScript(
      ({ url, token }) => localStorage.setItem('till.bridge', JSON.stringify({ url, token })),
      { url: `http://127.0.0.1:${port}`, token },
    );
    let late: Bridge | undefined;
    try {
      const page = await context.newPage();
      let looks = 0;
      page.on('requestfailed', (request) => {
        if (request.url().startsWith(`http://127.0.0.1:${port}/`)) looks++;
      });
      await page.goto(till.pairing_url);
      await page.waitForSelector('[data-testid=sign-in-screen]', { timeout: 30_000 });
      expect(await page.textContent('.status-bar .printer')).toBe('Hakuna printa');
      // A look or two finds nothing.
      await expect.poll(() => looks, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
      expect(await page.getAttribute('.status-bar .printer', 'class')).toContain('printer-none');

      late = await startBridge({
        port,
        origins: [shop.server.url],
        token,
        tuning: { allowance: shop.printer.allowance },
      });
      const startedAt = Date.now();
      await page.waitForSelector('.status-bar .printer.printer-http', { timeout: 20_000 });
      console.log(`bridge started late: found ${Date.now() - startedAt} ms after it started`);
      expect(await page.textContent('.status-bar .printer')).toBe('Printa: daraja la ndani');
    } finally {
      await context.close();
      await late?.close();
    }
  }, 240_000);

  it('an idle till says server unreachable within seconds of the server going silent, and online again when it answers', async () => {
    const { till, context } = await newTill(shop);
    try {
      const page = await openTill(context, till.pairing_url);
      await waitForUnsynced(page, 0);
      expect(await connectionShows(page, 'online')).toEqual({ text: 'Mtandaoni', onLine: true });
      // Idle for longer than the stream's silence limit: a quiet, live server's pings are no alarm.
      // Proving no alarm comes needs that long.
      await page.waitForTimeout(SSE_SILENCE_MS + 2000);
      expect(await page.getAttribute('[data-testid=connection]', 'data-state')).toBe('online');

      // The server goes silent: nothing answers and nothing closes. Nobody touches the till.
      const silentAt = Date.now();
      shop.proxy.stall();
      await page.waitForSelector('[data-testid=connection][data-state=unreachable]', { timeout: 30_000 });
      const noticed = Date.now() - silentAt;
      expect(await page.textContent('[data-testid=connection]')).toBe('Seva haipatikani');

      const backAt = Date.now();
      shop.proxy.restore();
      await page.waitForSelector('[data-testid=connection][data-state=online]', { timeout: 30_000 });
      const back = Date.now() - backAt;
      console.log(
        `idle till: unreachable after ${noticed} ms of silence, online ${back} ms after the server answered`,
      );
      // Seconds (the stream's silence limit, then a check's timeout), not the 30 s of the next push round.
      expect(noticed).toBeLessThan(20_000);
      expect(back).toBeLessThan(20_000);
    } finally {
      shop.proxy.restore();
      await context.close();
    }
  }, 240_000);

  it('shows online, offline with the network cut, and server unreachable with the server stopped', async () => {
    const { till, context } = await newTill(shop);
    try {
      const page = await openTill(context, till.pairing_url);

      expect(await connectionShows(page, 'online')).toEqual({ text: 'Mtandaoni', onLine: true });
      await waitForUnsynced(page, 0);
      expect(await page.textContent('[data-testid=unsynced]')).toBe('Zote zimetumwa');
      const synced = await lastSyncAt(page);
      expect(synced).toBeGreaterThan(0);
      expect(await page.textContent('[data-testid=last-sync]')).toMatch(/^Usawazishaji wa mwisho \d\d:\d\d$/);

      // The network goes: a sale waits, and typing and scanning on the till do not make it look online.
      await goOffline(shop, context);
      expect(await connectionShows(page, 'offline')).toEqual({ text: 'Nje ya mtandao', onLine: false });
      await sell(page);
      await waitForUnsynced(page, 1);
      // Proving the till does not come to look online needs a moment: nothing marks its end.
      await page.waitForTimeout(2000);
      expect(await connectionShows(page, 'offline')).toEqual({ text: 'Nje ya mtandao', onLine: false });
      expect(await page.textContent('[data-testid=unsynced]')).toBe('1 hazijatumwa');
      expect(await lastSyncAt(page)).toBe(synced);

      // Back: the sale goes up, and the last sync moves on.
      await goOnline(shop, context);
      expect(await connectionShows(page, 'online')).toEqual({ text: 'Mtandaoni', onLine: true });
      await waitForUnsynced(page, 0, 60_000);
      await page.waitForFunction((before) => {
        const at = Number(document.querySelector('[data-testid=last-sync]')?.getAttribute('data-at'));
        return at > before;
      }, synced);

      // The network is up but the server is gone: the next sale's push finds it unreachable, not offline.
      // The last sync is read once the server is closed: a pull still in flight may end as it closes.
      await shop.server.close();
      const resynced = await lastSyncAt(page);
      await sell(page);
      await waitForUnsynced(page, 1);
      expect(await connectionShows(page, 'unreachable')).toEqual({ text: 'Seva haipatikani', onLine: true });
      expect(await lastSyncAt(page)).toBe(resynced);
    } finally {
      await context.close();
    }
  }, 240_000);
});
