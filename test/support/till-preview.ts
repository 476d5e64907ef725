/**
 * Serves the till's screens over sample state (test/browser/till-preview), for
 * screenshots and keyboard tests that need no server or data layer. Built once
 * per preview (a second or two) and served as files: the dev server compiled
 * every module on a page's first load and optimised dependencies on the fly,
 * which on a busy machine took longer than a page load may.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, preview } from 'vite';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser.ts';

export interface TillPreview {
  url: string;
  close(): Promise<void>;
}

export async function startTillPreview(): Promise<TillPreview> {
  const root = fileURLToPath(new URL('../browser/till-preview', import.meta.url));
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'till-preview-'));
  await build({
    root,
    configFile: false,
    plugins: [react()],
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 10_000 },
  });
  const server = await preview({
    root,
    configFile: false,
    logLevel: 'warn',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('preview server has no port');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: async () => {
      await server.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

/** Opens the preview in `language` with a cashier signed in and the shift open, and waits for the sale screen. */
export async function openSaleScreen(page: Page, preview: TillPreview, language: 'sw' | 'en'): Promise<void> {
  await page.goto(`${preview.url}?lang=${language}`);
  await page.waitForFunction(() => window.preview !== undefined, null, { timeout: 30_000 });
  await page.evaluate(() => {
    window.preview!.setPairing('paired');
    window.preview!.setCashier(true);
    window.preview!.setShift(true);
  });
  // Keys pressed before the sale screen is on screen would go nowhere.
  await page.waitForSelector('[data-testid=sale-screen]', { timeout: 30_000 });
}

/**
 * The preview server and a Chromium for a test file: started before its tests, closed after.
 * Read `preview` and `browser` inside the tests (they are set once `beforeAll` has run).
 */
export function previewInChromium(): { readonly preview: TillPreview; readonly browser: Browser } {
  const started: { preview?: TillPreview; browser?: Browser } = {};
  beforeAll(async () => {
    started.preview = await startTillPreview();
    started.browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await started.browser?.close();
    await started.preview?.close();
  });
  return {
    get preview() {
      if (!started.preview) throw new Error('the preview starts in beforeAll');
      return started.preview;
    },
    get browser() {
      if (!started.browser) throw new Error('Chromium starts in beforeAll');
      return started.browser;
    },
  };
}
