/**
 * The back office's browser build (apps/server/dist/office) at `/office/`,
 * which signs in to a cookie session (routes/office/session.ts); its pages may
 * not be framed by others.
 */
import { fileURLToPath } from 'node:url';
import type Router from '@koa/router';
import type { RequestState } from '../../http/pipeline.ts';
import { webAppRouter } from './web-app.ts';

export const OFFICE_PATH = '/office/';
export const OFFICE_WEB_DIR = fileURLToPath(new URL('../../../dist/office/', import.meta.url));

/**
 * The office's page: its own scripts and styles only (style attributes for
 * the charts), its own API, never inside another site's frame.
 */
const OFFICE_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
};

export function officeStaticRouter(root: string = OFFICE_WEB_DIR): Router<RequestState> {
  return webAppRouter(OFFICE_PATH, root, OFFICE_HEADERS);
}
