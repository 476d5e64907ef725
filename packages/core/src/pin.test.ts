import { describe, expect, it } from 'vitest';
import { hashPin, verifyPin } from './pin.ts';

describe('cashier PINs', () => {
  it('accepts the PIN that was hashed and refuses any other', async () => {
    const stored = await hashPin('4821');
    expect(stored.algorithm).toBe('pbkdf2-sha256');
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
