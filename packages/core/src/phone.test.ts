import { describe, expect, it } from 'vitest';
import { mobileNetwork, normalizeTanzanianMobile, tanzanianMobileSchema } from './phone.ts';

describe('normalizeTanzanianMobile', () => {
  it.each([
    ['+255 754 123 456', '255754123456'],
    ['255754123456', '255754123456'],
    ['0754-123-456', '255754123456'],
    ['(0754) 123.456', '255754123456'],
    ['  +255-754-123-456 ', '255754123456'],
    ['0700000001', '255700000001'],
  ])('normalises %s to %s', (input, expected) => {
    expect(normalizeTanzanianMobile(input)).toBe(expected);
  });

  // One number of every mobile range in use, written as a customer would give it.
  it.each([
    ['0601 234 567', '255601234567', undefined],
    ['0612 345 678', '255612345678', 'halotel'],
    ['+255 622 345 678', '255622345678', 'halotel'],
    ['0632-345-678', '255632345678', 'halotel'],
    ['0652 345 678', '255652345678', 'mixx'],
    ['0662 345 678', '255662345678', 'airtel'],
    ['255672345678', '255672345678', 'mixx'],
    ['0682 345 678', '255682345678', 'airtel'],
    ['0692 345 678', '255692345678', 'airtel'],
    ['0701 234 567', '255701234567', 'mixx'],
    ['0712 345 678', '255712345678', 'mixx'],
    ['0722 345 678', '255722345678', 'mpesa'],
    ['0732 345 678', '255732345678', 'ttcl'],
    ['0742 345 678', '255742345678', 'mpesa'],
    ['+255752345678', '255752345678', 'mpesa'],
    ['0762 345 678', '255762345678', 'mpesa'],
    ['0772 345 678', '255772345678', 'mixx'],
    ['0782 345 678', '255782345678', 'airtel'],
    ['0792 345 678', '255792345678', 'mpesa'],
  ])('accepts %s as %s (network hint %s)', (input, expected, network) => {
    const normalized = normalizeTanzanianMobile(input);
    expect(normalized).toBe(expected);
    expect(mobileNetwork(normalized!)).toBe(network);
  });

  it.each([
    ['a Dar es Salaam fixed line', '022 212 3456'],
    ['a Dodoma fixed line', '+255 262 123 456'],
    ['a toll-free number', '0800 123 456'],
    ['a premium-rate number', '0900 123 456'],
    ['a VoIP number', '0411 234 567'],
    ['an unallocated range', '0641 234 567'],
    ['an emergency short number', '112'],
    ['a short number with a trunk zero', '0112'],
    ['a number one digit short', '075412345'],
    ['a +255 number one digit short', '+25575412345'],
    ['a number one digit long', '07541234567'],
    ['a 255 number one digit long', '2557541234567'],
    ['a Kenyan mobile', '+254712345678'],
    ['a Ugandan mobile', '+256 772 123 456'],
    ['a number without its trunk zero', '754123456'],
    ['a number inside other text', 'call 0754123456'],
    ['letters', 'abc'],
    ['nothing', ''],
  ])('refuses %s (%s)', (_name, input) => {
    expect(normalizeTanzanianMobile(input)).toBeNull();
  });
});

describe('tanzanianMobileSchema', () => {
  it('gives the normalised number', () => {
    expect(tanzanianMobileSchema.parse('0632 345 678')).toBe('255632345678');
  });

  it('refuses a fixed line and a toll-free number with the same message as any other non-mobile', () => {
    const messages = ['0222123456', '0800123456', '12345'].map(
      (input) => tanzanianMobileSchema.safeParse(input).error?.issues[0]?.message,
    );
    expect(messages).toEqual(
      Array(3).fill('must be a Tanzanian mobile number (+255, 255 or 0 followed by the number)'),
    );
  });
});
