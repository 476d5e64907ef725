/**
 * Cashier PINs on Web Crypto, so the server makes the hashes and a till checks
 * a PIN offline with the same code (docs/TILL.md, "What a stolen till holds").
 *
 * Two layers of PBKDF2-SHA256:
 * - the server's hash (`hashPin`): the PIN under the merchant's salt, which the
 *   server keeps and checks a new PIN against;
 * - a till's verifier (`tillPinVerifier`): that hash again under the till's own
 *   salt, with many more iterations. A till holds only these, so its data gives
 *   an offline guesser a target salted for that till alone that costs both
 *   layers per guess. The server makes a verifier from its hash, without the PIN,
 *   so a till paired later gets one too.
 *
 * A PIN of 4 to 6 digits stays weak whatever the hash: the hashing makes each
 * guess at a stolen till's data slow, and the till's lockout keeps guesses at
 * the counter few.
 */
import { fromBase64, toBase64 } from './base64.ts';
import type { PinHash, TillPin } from './sync/protocol.ts';

export const PIN_PATTERN = /^[0-9]{4,6}$/;
/** A manager's PIN approves refunds, voids and discounts: the longest a PIN may be. */
export const MANAGER_PIN_DIGITS = 6;
/** The server's hash of a PIN. */
export const PIN_ITERATIONS = 100_000;
/** A till's verifier: the slow part of every offline guess (measured in docs/TILL.md). */
export const TILL_PIN_ITERATIONS = 400_000;

async function derive(
  secret: Uint8Array<ArrayBuffer>,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const key = await crypto.subtle.importKey('raw', secret, 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    key,
    256,
  );
  return new Uint8Array(bits);
}

const digits = (pin: string) => new TextEncoder().encode(pin);

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/** A new random salt, base64. */
export const newPinSalt = (): string => toBase64(crypto.getRandomValues(new Uint8Array(16)));

/** The server's hash of `pin`, under `salt` (base64; the merchant's), or a random one. */
export async function hashPin(pin: string, salt: string = newPinSalt()): Promise<PinHash> {
  const bytes = fromBase64(salt);
  if (!bytes) throw new Error('the PIN salt is not base64');
  const hash = await derive(digits(pin), bytes, PIN_ITERATIONS);
  return { algorithm: 'pbkdf2-sha256', iterations: PIN_ITERATIONS, salt, hash: toBase64(hash) };
}

export async function verifyPin(pin: string, stored: PinHash): Promise<boolean> {
  const salt = fromBase64(stored.salt);
  const expected = fromBase64(stored.hash);
  if (!salt || !expected || !PIN_PATTERN.test(pin)) return false;
  return sameBytes(await derive(digits(pin), salt, stored.iterations), expected);
}

/** A till's verifier of the PIN behind the server's `stored` hash, under the till's `salt` (base64). */
export async function tillPinVerifier(
  stored: PinHash,
  salt: string,
  iterations: number = TILL_PIN_ITERATIONS,
): Promise<TillPin> {
  const inner = fromBase64(stored.hash);
  const outer = fromBase64(salt);
  if (!inner || !outer) throw new Error('the PIN hash or the till salt is not base64');
  return {
    algorithm: 'pbkdf2-sha256-till',
    inner: { iterations: stored.iterations, salt: stored.salt },
    iterations,
    salt,
    hash: toBase64(await derive(inner, outer, iterations)),
  };
}

/**
 * Which of `verifiers` `pin` opens: the index of the first, or -1. Verifiers
 * made under the same salts share one derivation, so a till whose employees'
 * PINs were all set under its merchant's salt derives once per attempt however
 * many employees it holds.
 */
export async function matchTillPin(pin: string, verifiers: ReadonlyArray<TillPin | null>): Promise<number> {
  if (!PIN_PATTERN.test(pin)) return -1;
  const derived = new Map<string, Promise<Uint8Array | null>>();
  const deriveFor = (v: TillPin): Promise<Uint8Array | null> => {
    const key = JSON.stringify([v.inner.salt, v.inner.iterations, v.salt, v.iterations]);
    let found = derived.get(key);
    if (!found) {
      const innerSalt = fromBase64(v.inner.salt);
      const outerSalt = fromBase64(v.salt);
      found =
        innerSalt && outerSalt
          ? derive(digits(pin), innerSalt, v.inner.iterations).then((inner) =>
              derive(inner, outerSalt, v.iterations),
            )
          : Promise.resolve(null);
      derived.set(key, found);
    }
    return found;
  };
  const checks = await Promise.all(
    verifiers.map(async (v) => {
      if (!v) return false;
      const expected = fromBase64(v.hash);
      const actual = await deriveFor(v);
      return expected !== null && actual !== null && sameBytes(actual, expected);
    }),
  );
  return checks.indexOf(true);
}
