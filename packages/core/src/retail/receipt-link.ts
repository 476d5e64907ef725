/**
 * A sale's digital receipt is a page at `{PUBLIC_URL}/receipt/{token}`. The
 * till makes the token at the moment of sale, offline too, and sends it with
 * `order.create`; the server stores only its SHA-256. The token is 16 random
 * bytes (128 bits) in base64url, derived from nothing, so a receipt cannot be
 * found by guessing or by counting through ids.
 */
import { z } from 'zod';
import { toBase64 } from '../base64.ts';

/** Random bytes in a token: 128 bits. */
export const RECEIPT_TOKEN_BYTES = 16;

/** base64url of at least 16 bytes (22 characters), at most 48 bytes. */
export const receiptTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{22,64}$/, { error: 'must be 22 to 64 base64url characters' })
  .describe('The till’s random token for the sale’s receipt page (`/receipt/{token}`)');

/** A new token from the platform's cryptographic random source. */
export function newReceiptToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(RECEIPT_TOKEN_BYTES));
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Whether a path segment could be a token at all (a page for anything else needs no lookup). */
export const isReceiptToken = (value: string): boolean => receiptTokenSchema.safeParse(value).success;

/** The receipt page's address under a server's public address (no trailing slash). */
export const receiptUrl = (publicUrl: string, token: string): string =>
  `${publicUrl.replace(/\/+$/, '')}/receipt/${token}`;
