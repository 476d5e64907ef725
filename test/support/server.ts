import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { startServer, type RunningServer } from '../../apps/server/src/server.ts';
import type { Clock } from '../../apps/server/src/infra/clock.ts';

/** The key the test servers seal webhook secrets with: every process on one PostgreSQL database needs the same. */
export const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

/**
 * A real server on an ephemeral port: PostgreSQL when the run has a database
 * (DATABASE_URL set), embedded PGlite in memory otherwise, started from the
 * run's migrated template (support/global-setup.ts) unless `fresh`, which
 * leaves the server to create and migrate its own.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { clock?: Clock; fresh?: boolean } = {},
): Promise<RunningServer> {
  const config: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    VALIDATE_RESPONSES: 'true',
    SANDBOX_SETTLE_MS: '100',
    RATE_LIMIT_MAX: '10000',
    PUBLIC_RATE_LIMIT_MAX: '10000',
    RATE_LIMIT_KEY_PREFIX: `t${randomUUID().replace(/-/g, '').slice(0, 12)}`,
    ...(process.env.TEST_DATABASE_URL ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}),
    SECRETS_KEY: TEST_SECRETS_KEY,
    ...env,
  };
  const inMemory = !config.DATABASE_URL && config.DATA_DIR === 'memory://';
  const template = inMemory && !options.fresh ? await embeddedTemplate() : undefined;
  return startServer(config, {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(template ? { embeddedTemplate: template } : {}),
  });
}

let template: Promise<Blob | undefined> | undefined;

/**
 * The migrated embedded database global-setup dumped, read once per test process: a test that
 * opens its own embedded database starts from it (`openDatabase({ embeddedTemplate })`) instead of
 * migrating from nothing, 10 to 20 s on PGlite.
 */
export function embeddedTemplate(): Promise<Blob | undefined> {
  const file = process.env.TEST_PGLITE_TEMPLATE;
  template ??= file ? readFile(file).then((bytes) => new Blob([bytes])) : Promise.resolve(undefined);
  return template;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A small client over real HTTP. */
export function client(baseUrl: string, key?: string) {
  const request = async <T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(key ? { Authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  };
  return {
    get: <T = any>(path: string, headers?: Record<string, string>) =>
      request<T>('GET', path, undefined, headers),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      request<T>('POST', path, body, headers),
    patch: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      request<T>('PATCH', path, body, headers),
    put: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      request<T>('PUT', path, body, headers),
    delete: <T = any>(path: string, headers?: Record<string, string>) =>
      request<T>('DELETE', path, undefined, headers),
    request,
  };
}

export interface Merchant {
  id: string;
  email: string;
  password: string;
  keys: { secretTest: string; secretLive: string; publishableTest: string; publishableLive: string };
}

let merchantCounter = 0;

/** Signs up a fresh merchant and returns its keys. */
export async function signUp(baseUrl: string, overrides: { business_name?: string } = {}): Promise<Merchant> {
  const email = `m${Date.now()}${++merchantCounter}${randomUUID().slice(0, 6)}@example.tz`;
  const password = 'correct horse battery';
  const response = await client(baseUrl).post('/v1/merchants', {
    business_name: overrides.business_name ?? 'Duka la Mama',
    email,
    password,
  });
  if (response.status !== 201)
    throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(response.body)}`);
  const keys = response.body.api_keys as Array<{ key: string; type: string; mode: string }>;
  const find = (type: string, mode: string) => keys.find((k) => k.type === type && k.mode === mode)!.key;
  return {
    id: response.body.id,
    email,
    password,
    keys: {
      secretTest: find('secret', 'test'),
      secretLive: find('secret', 'live'),
      publishableTest: find('publishable', 'test'),
      publishableLive: find('publishable', 'live'),
    },
  };
}

/**
 * Polls until `check` returns a value, or fails after `timeoutMs` saying what
 * it waited for. The deadline is generous: a busy machine is slow, not wrong
 * (a sandbox payment claimed by a server that then stopped is due again only
 * after its 5 s lease, and a loaded CI host took more than 10 s for one). It
 * stays under the test's own 30 s, so the message says what was waited for.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
  what = 'the condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until a synchronous condition holds (a receiver's count, say). */
export const until = (condition: () => boolean, timeoutMs?: number, what?: string) =>
  eventually(() => Promise.resolve(condition()), timeoutMs, what);
