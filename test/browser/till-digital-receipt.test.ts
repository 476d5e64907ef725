/**
 * The sale-done dialog's digital receipt in Chromium, over the preview's sample
 * state: the QR code drawn on screen decodes to the receipt link, and the
 * WhatsApp and SMS links carry the link to the sale's customer, or to no one.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { decodeOnScreenQr as decodeQr } from '../support/qr.ts';
import { previewInChromium } from '../support/till-preview.ts';
import { RECEIPT_BASE } from './till-preview/sample-store.ts';

const chromium = previewInChromium();
let page: Page;

async function sell(language: 'en' | 'sw', customer: boolean) {
  await page.goto(`${chromium.preview.url}?lang=${language}`);
  await page.waitForFunction(() => window.preview !== undefined, null, { timeout: 30_000 });
  await page.evaluate(() => {
    window.preview!.setPairing('paired');
    window.preview!.setCashier(true);
    window.preview!.setShift(true);
    window.preview!.fillCart();
  });
  await page.waitForSelector('[data-testid=sale-screen]', { timeout: 30_000 });
  if (!customer) {
    await page.keyboard.press('F3');
    await page.click('[data-testid=customer-dialog] [data-testid=remove-customer]');
    await page.waitForSelector('[data-testid=customer-dialog]', { state: 'detached' });
  }
  await page.keyboard.press('F10');
  await page.fill('[data-testid=cash-given]', '80000');
  await page.keyboard.press('Enter');
  await page.click('[data-testid=digital-receipt-toggle]');
  await page.waitForSelector('[data-testid=receipt-qr]');
}

/** The QR code as drawn on screen, read back as pixels and decoded. */
async function decodeOnScreenQr(): Promise<string> {
  const { text, width } = await decodeQr(page, '[data-testid=receipt-qr]');
  expect(width).toBeGreaterThanOrEqual(150);
  return text;
}

beforeEach(async () => {
  page = await chromium.browser.newPage({ viewport: { width: 1366, height: 768 } });
});

describe('the digital receipt after a sale', () => {
  it(
    'shows a QR code that decodes to the receipt link, and WhatsApp and SMS to the customer',
    { timeout: 90_000 },
    async () => {
      await sell('en', true);
      const link = `${RECEIPT_BASE}/q7Xk2mN9vB4tR8wE1yU6hA`;
      expect(await decodeOnScreenQr()).toBe(link);
      expect(await page.getAttribute('[data-testid=receipt-qr]', 'aria-label')).toContain('QR');
      const receiptNumber = (await page.textContent('.done .receipt-number'))!.replace('Receipt ', '');
      const text = `Receipt ${receiptNumber} from Duka la Mama — Kariakoo, TZS 37,075: ${link}`;
      expect(await page.getAttribute('[data-testid=receipt-whatsapp]', 'href')).toBe(
        `https://wa.me/255754000111?text=${encodeURIComponent(text)}`,
      );
      expect(await page.getAttribute('[data-testid=receipt-sms]', 'href')).toBe(
        `sms:+255754000111?body=${encodeURIComponent(text)}`,
      );
    },
  );

  it('in Swahili, with no customer, lets the cashier pick the chat', { timeout: 90_000 }, async () => {
    await sell('sw', false);
    const link = `${RECEIPT_BASE}/q7Xk2mN9vB4tR8wE1yU6hA`;
    expect(await decodeOnScreenQr()).toBe(link);
    const whatsApp = (await page.getAttribute('[data-testid=receipt-whatsapp]', 'href'))!;
    expect(whatsApp.startsWith('https://wa.me/?text=')).toBe(true);
    const text = decodeURIComponent(whatsApp.slice('https://wa.me/?text='.length));
    expect(text).toMatch(/^Risiti T01-\d{6} kutoka Duka la Mama — Kariakoo, TZS [\d,]+: /);
    expect(text.endsWith(link)).toBe(true);
    expect(await page.getAttribute('[data-testid=receipt-sms]', 'href')).toBe(
      `sms:?body=${encodeURIComponent(text)}`,
    );
    expect(await page.textContent('[data-testid=receipt-whatsapp]')).toBe('Tuma kwa WhatsApp');
  });
});
