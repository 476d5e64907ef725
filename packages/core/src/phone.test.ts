import { describe, expect, it } from 'vitest';
import { mobileNetwork, normalizeTanzanianMobile } from './phone.ts';

describe('normalizeTanzanianMobile', () => {
  it.each([
    ['+255 754 123 456', '255754123456'],
    ['255754123456', '255754123456'],
    ['0754-123-456', '255754123456'],
    ['0700000001', '255700000001'],
  ])('normalises %s to %s', (input, expected) => {
    expect(normalizeTanzanianMobile(input)).toBe(expected);
  });

  it.each(['12345', '+254712345678', '0221234567', '2557541234567', 'abc', ''])('refuses %s', (input) => {
    expect(normalizeTanzanianMobile(input)).toBeNull();
  });

  it('names the network from the prefix', () => {
    expect(mobileNetwork('255754123456')).toBe('mpesa');
    expect(mobileNetwork('255685123456')).toBe('airtel');
  });
});
