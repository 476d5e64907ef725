/**
 * Serves the till's browser build (apps/desktop/dist/web) at `/till/`, with no
 * API key: the page pairs itself with a device credential. index.html and
 * sw.js are never cached by the browser (a new build must reach the till);
 * hashed assets are immutable. The service worker's scope is `/till/`.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import type { RequestState } from './pipeline.ts';

export const TILL_PATH = '/till/';
export const TILL_WEB_DIR = fileURLToPath(new URL('../../../desktop/dist/web/', import.meta.url));

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

export function tillStaticRouter(root: string = TILL_WEB_DIR): Router<RequestState> {
  const router = new Router<RequestState>();
  router.get('/till', async (ctx, next) => {
    if (ctx.path !== '/till') {
      await next(); // the router also matches `/till/`
      return;
    }
    ctx.status = 308;
    ctx.redirect(TILL_PATH + ctx.search);
  });
  router.get('/till/{*rest}', async (ctx) => {
    let relative = decodeURIComponent(ctx.path.slice(TILL_PATH.length)) || 'index.html';
    let file = await fileAt(root, relative);
    // Any other page under /till/ is the app (`?pair=CODE` included); missing assets stay 404.
    if (!file && !relative.startsWith('assets/') && !path.extname(relative)) {
      relative = 'index.html';
      file = await fileAt(root, relative);
    }
    if (!file) return; // the error object's 404
    const name = path.basename(file);
    ctx.type = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
    ctx.set('Cache-Control', relative.startsWith('assets/') ? IMMUTABLE : NO_CACHE);
    if (name === 'sw.js') ctx.set('Service-Worker-Allowed', TILL_PATH);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = createReadStream(file);
  });
  return router;
}
