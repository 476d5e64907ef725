/**
 * Cashier PINs, hashed with PBKDF2-SHA256 on Web Crypto so the server makes
 * the hash and a till checks a PIN offline with the same code. A PIN of 4 to 6
 * digits is weak whatever the hash: the hash only keeps it from being read,
 * and the till's lockout (five wrong PINs lock that employee for 5 minutes)
 * keeps it from being guessed at the counter.
 */
import { fromBase64, toBase64 } from './base64.ts';
import type { PinHash } from './sync/protocol.ts';

export const PIN_PATTERN = /^[0-9]{4,6}$/;
const ITERATIONS = 60_000;

async function derive(pin: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(pin), 'PBKDF2', false, [
    'deriveBits',
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    key,
    256,
  );
  return new Uint8Array(bits);
}

export async function hashPin(pin: string): Promise<PinHash> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(pin, salt, ITERATIONS);
  return { algorithm: 'pbkdf2-sha256', iterations: ITERATIONS, salt: toBase64(salt), hash: toBase64(hash) };
}

export async function verifyPin(pin: string, stored: PinHash): Promise<boolean> {
  const salt = fromBase64(stored.salt);
  const expected = fromBase64(stored.hash);
  if (!salt || !expected || !PIN_PATTERN.test(pin)) return false;
  const actual = await derive(pin, salt, stored.iterations);
  if (actual.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < actual.length; i++) difference |= actual[i]! ^ expected[i]!;
  return difference === 0;
}
