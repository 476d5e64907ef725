/** A QR code drawn on screen as an SVG, read back as pixels in the page and decoded. */
import type { Page } from 'playwright-core';
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
