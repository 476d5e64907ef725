/**
 * The back office's one door to the server: `/v1` (the API merchants' own
 * backends call) and `/office/session`, with the browser's session cookie.
 * The page never holds a key or token: the cookie is HttpOnly.
 */

/** The platform's error object, as the API answers it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, string> = {},
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

/** The network gave no answer at all. */
export const NETWORK_ERROR = 'network_unreachable';

let onSignedOut: () => void = () => undefined;

/** Called when an answer says the session has ended (signed out elsewhere, expired). */
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

/** A fresh Idempotency-Key per action (`crypto.randomUUID` needs HTTPS; a shop's LAN may be plain HTTP). */
function idempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export interface List<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

export async function request<T>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const write = method !== 'GET';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(write && path.startsWith('/v1/') ? { 'Idempotency-Key': idempotencyKey() } : {}),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, NETWORK_ERROR, 'The server could not be reached');
  }
  const answer: unknown = await response.json().catch(() => null);
  if (response.ok) return answer as T;
  const error = (answer ?? {}) as { code?: string; message?: string; details?: Record<string, string> };
  const retryAfter = Number(response.headers.get('Retry-After')) || null;
  const failure = new ApiError(
    response.status,
    error.code ?? 'internal_error',
    error.message ?? response.statusText,
    error.details ?? {},
    retryAfter,
  );
  if (
    response.status === 401 &&
    !path.startsWith('/office/session') &&
    failure.code !== 'credentials_invalid'
  )
    onSignedOut();
  return Promise.reject(failure);
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body: unknown = {}) => request<T>('POST', path, body),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  delete: <T>(path: string) => request<T>('DELETE', path),
};

/**
 * Every page of a short list, following the API's cursor (a shop has tens of tills or stores, not
 * thousands); `path` may carry its own filters (`?status=…`).
 */
export async function allPages<T extends { id: string }>(path: string): Promise<T[]> {
  const all: T[] = [];
  const joiner = path.includes('?') ? '&' : '?';
  for (let after = ''; ;) {
    const page = await api.get<List<T>>(`${path}${joiner}limit=100${after && `&starting_after=${after}`}`);
    all.push(...page.data);
    if (!page.has_more || page.data.length === 0) return all;
    after = page.data.at(-1)!.id;
  }
}
