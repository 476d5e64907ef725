import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, headless, with the flags this machine's closed network needs. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

/** The sizes screens are checked at: a small phone and a laptop. */
export const SCREEN_SIZES = [
  { name: '360x740', width: 360, height: 740 },
  { name: '1366x768', width: 1366, height: 768 },
];

/**
 * Full-page screenshots of hosted pages (their language by `?lang=`), in both
 * languages at each of `SCREEN_SIZES`: `{name}-{language}-{size}.png` in `outDir`.
 */
export async function screenshotHostedPages(
  browser: Browser,
  outDir: string,
  pages: ReadonlyArray<readonly [name: string, url: string]>,
): Promise<void> {
  for (const size of SCREEN_SIZES) {
    for (const language of ['sw', 'en']) {
      for (const [name, url] of pages) {
        const page = await browser.newPage({ viewport: { width: size.width, height: size.height } });
        await page.goto(`${url}?lang=${language}`);
        await page.screenshot({ path: `${outDir}/${name}-${language}-${size.name}.png`, fullPage: true });
        await page.close();
      }
    }
  }
}
