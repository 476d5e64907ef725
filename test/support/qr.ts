/** A QR code drawn on screen as an SVG, read back as pixels in the page and decoded. */
import type { Browser, Page } from 'playwright-core';
import decodeQR from '@paulmillr/qr/decode.js';

export async function decodeOnScreenQr(
  page: Page,
  selector: string,
): Promise<{ text: string; width: number }> {
  const image = await page.evaluate(async (at) => {
    const svg = document.querySelector(at)!;
    const box = svg.getBoundingClientRect();
    const picture = new Image();
    picture.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`;
    await picture.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(box.width);
    canvas.height = Math.round(box.height);
    const context = canvas.getContext('2d')!;
    context.drawImage(picture, 0, 0, canvas.width, canvas.height);
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
    return { width: pixels.width, height: pixels.height, data: Array.from(pixels.data) };
  }, selector);
  return { text: decodeQR(image), width: image.width };
}

/**
 * Every `svg.qr` on the page drawn by Chromium into pixels and read back by a
 * QR decoder, in the page's order; drawn on a blank page, so a page whose CSP
 * loads no images (the hosted pages) is read too.
 */
export async function decodeQrSvgs(browser: Browser, page: Page): Promise<string[]> {
  const svgs = await page.locator('svg.qr').evaluateAll((found) =>
    found.map((svg) => {
      const copy = svg.cloneNode(true) as SVGSVGElement;
      copy.setAttribute('width', '400');
      copy.setAttribute('height', '400');
      return new XMLSerializer().serializeToString(copy);
    }),
  );
  const blank = await browser.newPage();
  // The pixels cross as base64 text: as an array of numbers they take seconds.
  const images = await blank.evaluate(async (markups) => {
    const out: string[] = [];
    for (const markup of markups) {
      const image = new Image();
      image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 400;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0, 400, 400);
      const pixels = context.getImageData(0, 0, 400, 400).data;
      let text = '';
      for (let at = 0; at < pixels.length; at += 0x8000)
        text += String.fromCharCode(...pixels.subarray(at, at + 0x8000));
      out.push(btoa(text));
    }
    return out;
  }, svgs);
  await blank.close();
  return images.map((image) =>
    decodeQR({ width: 400, height: 400, data: Uint8Array.from(Buffer.from(image, 'base64')) }),
  );
}
