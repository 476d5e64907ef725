/**
 * Webhook signatures, on Web Crypto so the same code verifies deliveries in
 * Node (18+) and in browsers. Two schemes sign every delivery:
 *
 * - `X-Webhook-Signature`: lowercase hex HMAC-SHA256 of the raw body, keyed
 *   with the whole secret string (`whsec_...`) as UTF-8.
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`):
 *   `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the bytes that
 *   the base64 after `whsec_` encodes. During a secret rotation the header holds
 *   several space-separated signatures; any one matching is enough.
 */

import { fromBase64, toBase64 } from '../base64.ts';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Default age, in seconds, beyond which a Standard Webhooks timestamp is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

function fromHex(text: string): Uint8Array<ArrayBuffer> | null {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return null;
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

const toHex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

const hmacKey = (raw: Uint8Array<ArrayBuffer>, usage: 'sign' | 'verify') =>
  crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);

/** A new secret: `whsec_` + base64 of `byteLength` (24 to 64) random bytes. */
export function generateWebhookSecret(byteLength = 32): string {
  if (!Number.isInteger(byteLength) || byteLength < 24 || byteLength > 64) {
    throw new RangeError('a webhook secret has 24 to 64 random bytes');
  }
  return WEBHOOK_SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(byteLength)));
}

/** The Standard Webhooks key: the bytes after `whsec_`; null when the secret is malformed. */
export function standardWebhookKey(secret: string): Uint8Array<ArrayBuffer> | null {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) return null;
  const bytes = fromBase64(secret.slice(WEBHOOK_SECRET_PREFIX.length));
  return bytes && bytes.length > 0 ? bytes : null;
}

/** `X-Webhook-Signature`: hex HMAC-SHA256 of the raw body keyed with the whole secret string. */
export async function signWebhookBody(secret: string, body: string): Promise<string> {
  const key = await hmacKey(encoder.encode(secret), 'sign');
  return toHex(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(body))));
}

/** Checks `X-Webhook-Signature` against the raw body, in constant time. */
export async function verifyWebhookBody(
  secret: string,
  body: string,
  signature: string | null | undefined,
): Promise<boolean> {
  const expected = signature ? fromHex(signature.trim()) : null;
  if (!expected || expected.length !== 32) return false;
  const key = await hmacKey(encoder.encode(secret), 'verify');
  return crypto.subtle.verify('HMAC', key, expected, encoder.encode(body));
}

/** One Standard Webhooks signature: `v1,<base64>` over `${id}.${timestamp}.${body}`. */
export async function signStandardWebhook(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const raw = standardWebhookKey(secret);
  if (!raw) throw new TypeError('a webhook secret is whsec_ followed by base64');
  const key = await hmacKey(raw, 'sign');
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** Request headers as Node (`req.headers`), fetch (`Headers`) or a plain object gives them. */
export type HeaderSource =
  { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof headers.get === 'function')
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

export interface StandardWebhookOptions {
  /** Largest accepted distance between the timestamp and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Now, in unix seconds (for tests). */
  now?: number;
}

/**
 * Verifies the Standard Webhooks headers of a delivery against its raw body:
 * the timestamp must be within the tolerance and one `v1` signature must
 * match (compared in constant time by Web Crypto).
 */
export async function verifyStandardWebhook(
  secret: string,
  body: string,
  headers: HeaderSource,
  options: StandardWebhookOptions = {},
): Promise<boolean> {
  const id = header(headers, 'webhook-id');
  const timestampText = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  const raw = standardWebhookKey(secret);
  if (!id || !timestampText || !signatures || !raw || !/^\d{1,15}$/.test(timestampText)) return false;
  const timestamp = Number(timestampText);
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS)) return false;
  const key = await hmacKey(raw, 'verify');
  const signed = encoder.encode(`${id}.${timestampText}.${body}`);
  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const candidate = fromBase64(value);
    if (candidate && candidate.length === 32 && (await crypto.subtle.verify('HMAC', key, candidate, signed)))
      return true;
  }
  return false;
}
