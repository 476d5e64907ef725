import { AppError } from '@tz/core';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** Validates the header: 1 to 255 characters. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header.join(',') : header;
  if (key.length < 1 || key.length > 255) {
    throw new AppError('idempotency_key_too_long', 'Idempotency-Key must be 1 to 255 characters', {
      details: { 'Idempotency-Key': `has ${key.length} characters; at most 255` },
    });
  }
  return key;
}
