/**
 * A browser build served with no API key (the till's at `/till/`, the back
 * office's at `/office/`). index.html and sw.js are never cached by the
 * browser (a new build must reach the page); hashed assets are immutable.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import type { RequestState } from '../../http/pipeline.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const NO_CACHE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';

async function fileAt(root: string, relative: string): Promise<string | null> {
  const file = path.resolve(root, relative);
  if (!file.startsWith(root)) return null; // `..` out of the build
  try {
    return (await stat(file)).isFile() ? file : null;
  } catch {
    return null;
  }
}

/** A built single-page app at `base` (`/till/`): its files, and its index.html for any other page. */
export function webAppRouter(
  base: string,
  root: string,
  headers: Record<string, string>,
): Router<RequestState> {
  const bare = base.slice(0, -1);
  const router = new Router<RequestState>();
  router.get(bare, async (ctx, next) => {
    if (ctx.path !== bare) {
      await next(); // the router also matches `/till/`
      return;
    }
    ctx.status = 308;
    ctx.redirect(base + ctx.search);
  });
  router.get(`${base}{*rest}`, async (ctx) => {
    let relative = decodeURIComponent(ctx.path.slice(base.length)) || 'index.html';
    let file = await fileAt(root, relative);
    // Any other page under the base is the app (`?pair=CODE`, `/office/tills`); missing assets stay 404.
    if (!file && !relative.startsWith('assets/') && !path.extname(relative)) {
      relative = 'index.html';
      file = await fileAt(root, relative);
    }
    if (!file) return; // the error object's 404
    const name = path.basename(file);
    ctx.type = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
    ctx.set('Cache-Control', relative.startsWith('assets/') ? IMMUTABLE : NO_CACHE);
    if (name === 'sw.js') ctx.set('Service-Worker-Allowed', base);
    ctx.set('X-Content-Type-Options', 'nosniff');
    for (const [header, value] of Object.entries(headers)) ctx.set(header, value);
    ctx.body = createReadStream(file);
  });
  return router;
}
