import { describe, expect, it } from 'vitest';
import {
  hashPin,
  matchTillPin,
  newPinSalt,
  PIN_ITERATIONS,
  TILL_PIN_ITERATIONS,
  tillPinVerifier,
  verifyPin,
} from './pin.ts';

describe('cashier PINs', () => {
  it('accepts the PIN that was hashed and refuses any other', async () => {
    const stored = await hashPin('4821');
    expect(stored).toMatchObject({ algorithm: 'pbkdf2-sha256', iterations: PIN_ITERATIONS });
    expect(await verifyPin('4821', stored)).toBe(true);
    expect(await verifyPin('4822', stored)).toBe(false);
    expect(await verifyPin('48210', stored)).toBe(false);
  });

  it('salts each hash, so two employees with one PIN have different hashes', async () => {
    const [a, b] = await Promise.all([hashPin('123456'), hashPin('123456')]);
    expect(a.hash).not.toBe(b.hash);
    expect(await verifyPin('123456', b)).toBe(true);
  });

  it('refuses a malformed stored hash instead of throwing', async () => {
    expect(await verifyPin('1234', { algorithm: 'pbkdf2-sha256', iterations: 1, salt: '%%', hash: '' })).toBe(
      false,
    );
  });
});

describe('a till’s PIN verifiers', () => {
  it('are made from the server’s hash, slow by design, and salted per till', async () => {
    const merchant = newPinSalt();
    const stored = await hashPin('482193', merchant);
    const [one, two] = await Promise.all([
      tillPinVerifier(stored, newPinSalt()),
      tillPinVerifier(stored, newPinSalt()),
    ]);
    expect(one).toMatchObject({
      algorithm: 'pbkdf2-sha256-till',
      iterations: TILL_PIN_ITERATIONS,
      inner: { salt: merchant, iterations: PIN_ITERATIONS },
    });
    expect(TILL_PIN_ITERATIONS).toBeGreaterThanOrEqual(400_000);
    // One till's verifier tells nothing of another's: the same PIN, different targets.
    expect(one.hash).not.toBe(two.hash);
    expect(one.hash).not.toBe(stored.hash);
    expect(await matchTillPin('482193', [one])).toBe(0);
    expect(await matchTillPin('482193', [two])).toBe(0);
    expect(await matchTillPin('482194', [one, two])).toBe(-1);
  });

  it('finds which employee a PIN opens, old per-employee salts and malformed verifiers included', async () => {
    const till = newPinSalt();
    const merchant = newPinSalt();
    const fast = (stored: Awaited<ReturnType<typeof hashPin>>) => tillPinVerifier(stored, till, 1_000);
    const verifiers = [
      await fast(await hashPin('1111', merchant)),
      null,
      { ...(await fast(await hashPin('2222', merchant))), salt: '%%' },
      await fast(await hashPin('3333')),
      await fast(await hashPin('4444', merchant)),
    ];
    expect(await matchTillPin('1111', verifiers)).toBe(0);
    expect(await matchTillPin('2222', verifiers)).toBe(-1);
    expect(await matchTillPin('3333', verifiers)).toBe(3);
    expect(await matchTillPin('4444', verifiers)).toBe(4);
    expect(await matchTillPin('12ab', verifiers)).toBe(-1);
  });
});
