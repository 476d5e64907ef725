import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureWebBuild } from '../../apps/desktop/scripts/ensure-web-build.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { launchChromium } from '../support/browser.ts';
import { startLoopbackProxy, type LoopbackProxy } from '../support/loopback-proxy.ts';
import { startTestServer } from '../support/server.ts';

let server: RunningServer;
let browser: Browser;
let proxy: LoopbackProxy;

beforeAll(async () => {
  await ensureWebBuild();
  server = await startTestServer();
  browser = await launchChromium();
  proxy = await startLoopbackProxy();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await server?.close();
});

describe('the till served at /till/', () => {
  it('serves the app without an API key, never cached, and /till redirects to it', async () => {
    const page = await fetch(`${server.url}/till/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    const bare = await fetch(`${server.url}/till?pair=ABCD1234`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/till/?pair=ABCD1234');
    const paired = await fetch(`${server.url}/till/?pair=ABCD1234`);
    expect(paired.status).toBe(200);
    expect(await paired.text()).toBe(html);
  });

  it('is a production build, though built here under the test runner (NODE_ENV=test)', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    const html = await (await fetch(`${server.url}/till/`)).text();
    const entry = /<script type="module"[^>]* src="([^"]+)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const code = await (await fetch(new URL(entry!, server.url))).text();
    expect(code.length).toBeGreaterThan(10_000);
    // React's development copy and its JSX runtime: several times slower, never sent to a till.
    expect(code).not.toContain('jsxDEV');
    expect(code).not.toContain('react_stack_bottom_frame');
  });

  it('sends the service worker uncached with the /till/ scope, and hashed assets as immutable', async () => {
    const worker = await fetch(`${server.url}/till/sw.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    expect(worker.headers.get('service-worker-allowed')).toBe('/till/');
    const source = await worker.text();
    expect(source).not.toContain('__TILL_PRECACHE__');
    const html = await (await fetch(`${server.url}/till/`)).text();
    const script = /src="(\/till\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(source).toContain(script!.replace('/till/', ''));
    const asset = await fetch(`${server.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers a missing asset or a path outside the build with the 404 error object', async () => {
    const missing = await fetch(`${server.url}/till/assets/nothing-here.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: 'not_found', code: 'route_not_found' });
    const escape = await fetch(`${server.url}/till/..%2f..%2fpackage.json`);
    expect(escape.status).toBe(404);
  });
});

describe('the till page in Chromium', () => {
  it('renders the pairing screen, installs its service worker, and reopens with the network cut', async () => {
    const context = await browser.newContext({ proxy: { server: proxy.url } });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${server.url}/till/`);
      await page.waitForSelector('[data-testid=pair-screen]', { timeout: 20_000 });
      expect(await page.textContent('[data-testid=pair-screen] h1')).toBe('Unganisha kaunta hii');

      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
        timeout: 20_000,
      });
      const registration = await page.evaluate(async () => {
        const found = await navigator.serviceWorker.getRegistration();
        return { scope: found?.scope, state: found?.active?.state };
      });
      expect(registration).toEqual({ scope: `${server.url}/till/`, state: 'activated' });

      await context.setOffline(true);
      proxy.sever();
      const reachedBefore = proxy.forwarded;
      await page.reload();
      await page.waitForSelector('[data-testid=pair-screen]', { timeout: 20_000 });
      expect(await page.isVisible('[data-testid=status-bar]')).toBe(true);
      // Nothing went through while the network was cut: the page came from the service worker.
      expect(proxy.forwarded).toBe(reachedBefore);
      expect(errors).toEqual([]);
    } finally {
      proxy.restore();
      await context.close();
    }
  });
});
