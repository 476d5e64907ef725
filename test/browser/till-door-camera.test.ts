/**
 * The door's camera in Chromium: a real capture pipeline (Chromium's fake camera playing a video
 * of a ticket's QR code) into the door's own `useDoorCamera`. Headless Chromium on Linux has no
 * `BarcodeDetector`, so the page gets one that reads each frame's pixels with a QR decoder: the
 * code above it (the video element, the look every 150 ms, a code counted once until another is
 * shown or three seconds pass, the verdict and its count) is the door's.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import encodeQR from '@paulmillr/qr';
import decodeQR from '@paulmillr/qr/decode.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { openSaleScreen, startTillPreview, type TillPreview } from '../support/till-preview.ts';

const WIDTH = 640;
const HEIGHT = 480;

/**
 * A y4m video (4:2:0, 10 frames a second) that Chromium's fake camera plays in a loop: the QR code
 * of `text`, black on white, for a second, then a blank page for four.
 */
function qrVideo(text: string): Buffer {
  const modules = encodeQR(text, 'raw', { ecc: 'medium', border: 4 });
  const scale = Math.floor(HEIGHT / modules.length);
  const left = Math.floor((WIDTH - modules.length * scale) / 2);
  const top = Math.floor((HEIGHT - modules.length * scale) / 2);
  const luma = Buffer.alloc(WIDTH * HEIGHT, 235);
  modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (!dark) return;
      for (let dy = 0; dy < scale; dy += 1)
        luma.fill(
          16,
          (top + y * scale + dy) * WIDTH + left + x * scale,
          (top + y * scale + dy) * WIDTH + left + (x + 1) * scale,
        );
    }),
  );
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const blank = Buffer.concat([Buffer.from('FRAME\n'), Buffer.alloc(WIDTH * HEIGHT, 235), chroma]);
  return Buffer.concat([
    Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`),
    ...Array.from({ length: 10 }, () => frame),
    ...Array.from({ length: 40 }, () => blank),
  ]);
}

let folder: string;
let video: string;
let preview: TillPreview;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'tz-door-camera-'));
  video = path.join(folder, 'ticket.y4m');
  preview = await startTillPreview();
  browser = await launchChromium([
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${video}`,
  ]);
  page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  // The decoder runs here; the page sends it each frame's pixels.
  await page.exposeFunction('readQrPixels', (width: number, height: number, rgba: string) => {
    try {
      return decodeQR({ width, height, data: new Uint8Array(Buffer.from(rgba, 'base64')) });
    } catch {
      return null;
    }
  });
  await page.addInitScript(() => {
    const read = (
      window as unknown as { readQrPixels: (w: number, h: number, d: string) => Promise<string | null> }
    ).readQrPixels;
    class PixelBarcodeDetector {
      async detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>> {
        if (!source.videoWidth) return [];
        const canvas = document.createElement('canvas');
        canvas.width = source.videoWidth;
        canvas.height = source.videoHeight;
        const context = canvas.getContext('2d', { willReadFrequently: true })!;
        context.drawImage(source, 0, 0);
        const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
        let binary = '';
        for (let i = 0; i < data.length; i += 0x8000)
          binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
        const text = await read(canvas.width, canvas.height, btoa(binary));
        return text ? [{ rawValue: text }] : [];
      }
    }
    (window as unknown as { BarcodeDetector: unknown }).BarcodeDetector = PixelBarcodeDetector;
  });
  await openSaleScreen(page, preview, 'en');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await preview?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('the door’s camera', () => {
  it('admits a ticket held to the camera once, and judges it again when shown after more than three seconds away', async () => {
    await page.evaluate(() => window.preview!.setDoor('one'));
    await page.waitForSelector('[data-testid=mode-door]', { timeout: 30_000 });
    await page.keyboard.press('Alt+G');
    await page.waitForSelector('[data-testid=door-screen]', { timeout: 30_000 });
    const code = await page.evaluate(
      () => window.preview!.doorCodes().tickets.find((t) => t.holder === 'Neema Mollel')!.code,
    );
    // The camera opens the file when it starts: the ticket's code is known only once the door has it.
    await writeFile(video, qrVideo(code));

    const before = Number(await page.textContent('[data-testid=door-admitted-here]'));
    await page.click('[data-testid=door-camera]');
    await page.waitForSelector('[data-testid=door-verdict][data-verdict=ok]', { timeout: 30_000 });
    const admittedAt = Date.now();
    expect(await page.textContent('[data-testid=door-verdict]')).toContain('Admit');
    expect(await page.textContent('.door-verdict')).toContain('Neema Mollel');
    expect(await page.textContent('[data-testid=door-admitted-here]')).toBe(String(before + 1));

    // Held there for a second, the code is seen at each look (every 150 ms) but judged once. Shown
    // again after four seconds away, it is judged again: already in, and the count stays.
    await page.waitForSelector('[data-testid=door-verdict][data-verdict=already_redeemed]', {
      timeout: 30_000,
    });
    // Judged at each look, it would have come back within 150 ms; away 4 s, it comes back after seconds.
    expect(Date.now() - admittedAt).toBeGreaterThanOrEqual(1_500);
    expect(await page.textContent('.door-verdict')).toContain('Neema Mollel');
    expect(await page.textContent('[data-testid=door-admitted-here]')).toBe(String(before + 1));
  });
});
