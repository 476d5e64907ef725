/**
 * Serves the till's screens over sample state (test/browser/till-preview), for
 * screenshots and keyboard tests that need no server or data layer. Built once
 * per test run (per preview outside one) and served as files: the dev server compiled
 * every module on a page's first load and optimised dependencies on the fly,
 * which on a busy machine took longer than a page load may.
 */
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, preview } from 'vite';
import { tryLock } from 'fs-native-extensions';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser.ts';

export interface TillPreview {
  url: string;
  close(): Promise<void>;
}

export async function startTillPreview(): Promise<TillPreview> {
  const root = fileURLToPath(new URL('../browser/till-preview', import.meta.url));
  // In a test run, one build for every file (support/global-setup.ts names its directory).
  const shared = process.env.TEST_TILL_PREVIEW_DIR;
  const outDir = shared
    ? await sharedBuild(root, shared)
    : await mkdtemp(path.join(os.tmpdir(), 'till-preview-'));
  if (!shared) await buildPreview(root, outDir);
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
      if (!shared) await rm(outDir, { recursive: true, force: true });
    },
  };
}

function buildPreview(root: string, outDir: string) {
  return build({
    root,
    configFile: false,
    plugins: [react()],
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 10_000 },
  });
}

/**
 * The run's build in `dir`, made by the first file to ask while the others wait on its lock
 * (released by the system if that process dies); made aside and renamed, so it is whole or absent.
 */
async function sharedBuild(root: string, dir: string): Promise<string> {
  const outDir = path.join(dir, 'preview');
  const fd = openSync(path.join(dir, 'build.lock'), 'w');
  try {
    while (!tryLock(fd)) await new Promise((resolve) => setTimeout(resolve, 100));
    if (!existsSync(path.join(outDir, 'index.html'))) {
      const building = await mkdtemp(path.join(dir, 'building-'));
      await buildPreview(root, building);
      await rename(building, outDir);
    }
  } finally {
    closeSync(fd); // releases the lock
  }
  return outDir;
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
