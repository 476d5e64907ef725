/**
 * The till's browser build (apps/desktop/dist/web) at `/till/`, where the page
 * pairs itself with a device credential; its service worker's scope is `/till/`.
 */
import { fileURLToPath } from 'node:url';
import type Router from '@koa/router';
import type { RequestState } from '../../http/pipeline.ts';
import { webAppRouter } from './web-app.ts';

export const TILL_PATH = '/till/';
export const TILL_WEB_DIR = fileURLToPath(new URL('../../../../desktop/dist/web/', import.meta.url));

export function tillStaticRouter(root: string = TILL_WEB_DIR): Router<RequestState> {
  return webAppRouter(TILL_PATH, root, {});
}
