/**
 * What ClickPesa's payment and payout calls share: the request checksum and its
 * check, the error a failed call throws, an HTTP answer and its message, and
 * the outcome of a refusal.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { checksumCanonicalForm, type FailureReason } from './clickpesa-rules.ts';
import type { ProviderOutcome } from './provider.ts';

/** Lowercase hex HMAC-SHA256 of the payload's canonical form, keyed with the checksum key. */
export function clickPesaChecksum(checksumKey: string, payload: Record<string, unknown>): string {
  return createHmac('sha256', checksumKey).update(checksumCanonicalForm(payload), 'utf8').digest('hex');
}

/** Constant-time check of a received checksum against the payload it claims to sign. */
export function checksumMatches(
  checksumKey: string,
  payload: Record<string, unknown>,
  received: unknown,
): boolean {
  if (typeof received !== 'string' || !/^[0-9a-f]{64}$/i.test(received)) return false;
  const expected = Buffer.from(clickPesaChecksum(checksumKey, payload), 'hex');
  return timingSafeEqual(expected, Buffer.from(received, 'hex'));
}

/** A failed provider call; `reached` is false only when the request surely never arrived. */
export class ClickPesaError extends Error {
  constructor(
    message: string,
    readonly reached: boolean,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ClickPesaError';
  }
}

/**
 * A send whose create call may have reached ClickPesa although nothing says so
 * (an ambiguous answer, then no record of it just after). Failing it would
 * free its money for a second send while the first may still pay; it stays
 * in flight for the reconciler instead.
 */
export const mayHaveReached = (error: unknown): boolean =>
  error instanceof ClickPesaError && error.reached && error.status === undefined;

/** What ClickPesa knows of a payment or payout: nothing, still pending, or its outcome. */
export type ProviderView =
  | { state: 'unknown' }
  | { state: 'pending'; reference: string }
  | { state: 'final'; reference: string; outcome: ProviderOutcome };

export interface HttpResult {
  status: number;
  body: unknown;
}

export const messageOf = (body: unknown): string | undefined => {
  if (!body || typeof body !== 'object') return undefined;
  const message = (body as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.filter((m) => typeof m === 'string').join('; ');
  return undefined;
};

/** What the payout calls need of the provider: its checksum key and an HTTP call with its token. */
export interface ClickPesaCaller {
  readonly options: { checksumKey: string };
  call(method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<HttpResult>;
}

export const failed = (reference: string | null, reason: FailureReason): ProviderOutcome => ({
  status: 'failed',
  reference,
  failureCode: reason.code,
  failureMessage: reason.message,
});
