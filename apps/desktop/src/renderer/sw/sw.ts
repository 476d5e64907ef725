/**
 * The till's service worker: it keeps the app shell (index.html and this
 * build's assets) so a till page reloaded or reopened without a network still
 * opens and sells. The shell is served from the cache first, so a slow or
 * unreachable server never delays opening. Data never goes through here:
 * `/trpc` and `/v1` are outside the scope and are refused explicitly as well.
 */
export {};

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response> | Response): void;
}
interface ServiceWorkerScope {
  readonly registration: { readonly scope: string };
  readonly clients: { claim(): Promise<void> };
  readonly caches: CacheStorage;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
}
declare const self: ServiceWorkerScope;

/** Replaced at build time with this build's files, comma-separated (see vite.config.ts). */
const PRECACHE = '__TILL_PRECACHE__'.split(',').filter((name) => name !== '');
const CACHE_PREFIX = 'till-shell-';

/** One cache per build: a short hash of the file list (hashed names change with content). */
function buildId(files: readonly string[]): string {
  let hash = 0x811c9dc5;
  for (const char of files.join(',')) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

const CACHE = CACHE_PREFIX + buildId(PRECACHE);
const scope = new URL(self.registration.scope);
const INDEX = new URL('index.html', scope).href;
const NEVER_CACHED = ['/trpc', '/v1', '/healthz'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await self.caches.open(CACHE);
      await cache.addAll(PRECACHE.map((file) => new Request(new URL(file, scope), { cache: 'reload' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // Keep the build before this one as well: a page still running it may yet load one of its
      // lazy chunks. Cache names come back in the order they were made.
      const older = (await self.caches.keys()).filter(
        (name) => name.startsWith(CACHE_PREFIX) && name !== CACHE,
      );
      for (const name of older.slice(0, -1)) await self.caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  if (NEVER_CACHED.some((prefix) => url.pathname.startsWith(prefix))) return;
  if (request.mode === 'navigate') {
    // Any page under /till/ (with ?pair=… or not) is the one app shell.
    event.respondWith(fromCacheElseNetwork(new Request(INDEX), request));
    return;
  }
  event.respondWith(fromCacheElseNetwork(request, request));
});

async function fromCacheElseNetwork(cached: Request, live: Request): Promise<Response> {
  const options = { ignoreSearch: true };
  // This build's copy first (index.html is in every build); then a file only the previous build
  // had, for a page still running it (hashed names never change content); then the network.
  const hit =
    (await (await self.caches.open(CACHE)).match(cached, options)) ??
    (await self.caches.match(cached, options));
  return hit ?? fetch(live);
}
