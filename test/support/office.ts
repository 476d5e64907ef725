/** The back office's cookie session over real HTTP, as a browser on the server's own pages holds it. */
import type { Clock } from '../../apps/server/src/infra/clock.ts';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ensureWebBuild } from '../../apps/desktop/scripts/ensure-web-build.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { en } from '../../apps/server/office/i18n/en.ts';
import { sw } from '../../apps/server/office/i18n/sw.ts';
import { launchChromium } from './browser.ts';
import { readsInOtherLanguage } from './languages.ts';
import { client, startTestServer, type Merchant } from './server.ts';

export interface OfficeCookie {
  /** `office_session=…`, as a browser sends it back. */
  cookie: string;
  /** The whole Set-Cookie line the server answered with. */
  setCookie: string;
}

/** The cookie a Set-Cookie header sets, as a browser would send it back. */
export function cookieOf(headers: Headers): OfficeCookie {
  const setCookie = headers.getSetCookie().find((line) => line.startsWith('office_session='));
  if (!setCookie) throw new Error(`no office_session cookie in ${JSON.stringify(headers.getSetCookie())}`);
  return { cookie: setCookie.split(';')[0]!, setCookie };
}

/** Signs in at /office/session from the server's own origin; the answer's cookie. */
export async function officeSignIn(
  baseUrl: string,
  merchant: Pick<Merchant, 'email' | 'password'>,
  mode: 'test' | 'live' = 'test',
): Promise<OfficeCookie & { body: any }> {
  const response = await client(baseUrl).post(
    '/office/session',
    { email: merchant.email, password: merchant.password, mode },
    { Origin: baseUrl },
  );
  if (response.status !== 201)
    throw new Error(`office sign-in failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { ...cookieOf(response.headers), body: response.body };
}

/** A client carrying the cookie, its writes sent with `origin` (the server's own unless given). */
export function officeClient(baseUrl: string, cookie: string, origin: string | null = baseUrl) {
  const api = client(baseUrl);
  const headers = (extra: Record<string, string> = {}) => ({
    Cookie: cookie,
    ...(origin === null ? {} : { Origin: origin }),
    ...extra,
  });
  return {
    get: (path: string, extra?: Record<string, string>) => api.get(path, headers(extra)),
    post: (path: string, body?: unknown, extra?: Record<string, string>) =>
      api.post(path, body, headers(extra)),
    delete: (path: string, extra?: Record<string, string>) => api.delete(path, headers(extra)),
  };
}

/** Signs in on the office's sign-in page as a person does: email, password, Enter. */
export async function signInInBrowser(
  page: Page,
  baseUrl: string,
  merchant: Pick<Merchant, 'email' | 'password'>,
): Promise<void> {
  await page.goto(`${baseUrl}/office/`);
  await page.fill('[data-testid=email]', merchant.email);
  await page.fill('[data-testid=password]', merchant.password);
  await page.keyboard.press('Enter');
  await page.waitForSelector('nav[aria-label] a[aria-current=page]', { timeout: 30_000 });
}

/**
 * A test file's office in Chromium: the office built, a test server and a browser
 * started before its tests and closed after them (read `server` and `browser` inside a test).
 */
export function officeInChromium(options: { clock?: Clock } = {}) {
  const running = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    await ensureWebBuild(() => undefined, 'office');
    running.server = await startTestServer({}, options);
    running.browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await running.browser?.close();
    await running.server?.close();
  });
  return running;
}

/**
 * A browser context in `language` at `width` (height 800), its page opened; with `null`, a browser
 * that has chosen no language, where the office follows the account's.
 */
export async function openOffice(
  browser: Browser,
  language: 'sw' | 'en' | null,
  width = 1366,
): Promise<{ context: BrowserContext; page: Page }> {
  // The office's CSP admits its own scripts only: axe-core is injected past it.
  const context = await browser.newContext({ viewport: { width, height: 800 }, bypassCSP: true });
  if (language) await context.addInitScript(`localStorage.setItem('office.language', '${language}')`);
  return { context, page: await context.newPage() };
}

let axeSource: Promise<string> | undefined;

/** axe-core's serious and critical findings on the page as it is now (the context must bypass CSP, as `openOffice`'s does). */
export async function seriousViolations(page: Page): Promise<string[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: await axeSource });
  const violations = await page.evaluate(async () => {
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.length,
      help: v.help,
    }));
  });
  return violations
    .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: any) => `${v.id} (${v.nodes}): ${v.help}`);
}

/**
 * The office's screen as it is now, in the other language too: switched with the office's own
 * language switch, its words checked against the dictionaries and axe-core's findings there (see
 * support/languages.ts), then switched back. Pressed from script, so a dialog open over the frame
 * stays open and keeps the focus.
 */
export function officeReadsInOtherLanguage(page: Page): Promise<void> {
  return readsInOtherLanguage(
    page,
    { sw, en },
    () => page.evaluate(() => document.querySelector<HTMLElement>('[data-testid=language]')!.click()),
    async () => expect(await seriousViolations(page)).toEqual([]),
  );
}

/** axe-core's check of the office's screen as it is now, then the same screen in the other language. */
export async function officeScreenChecked(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
  await officeReadsInOtherLanguage(page);
}
