import { describe, expect, it } from 'vitest';
import { createCustomerCommand } from './customers.ts';
import { newId } from './ids.ts';
import { commandPayloads } from './sync/protocol.ts';

const makePayload = (overrides: Record<string, unknown> = {}) => ({
  customer: newId('customer'),
  name: 'Asha Mwinyi',
  phone: '0712 345 678',
  ...overrides,
});

const issuesOf = (payload: unknown) => {
  const parsed = commandPayloads['customer.create'].safeParse(payload);
  return parsed.success
    ? {}
    : Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('the customer.create command', () => {
  it('is a till command, with the name trimmed and the phone normalised', () => {
    const payload = makePayload({ name: '  Asha Mwinyi ', phone: '+255 712-345-678' });
    expect(commandPayloads['customer.create'].parse(payload)).toEqual({
      customer: payload.customer,
      name: 'Asha Mwinyi',
      phone: '255712345678',
    });
  });

  it('accepts every written form of a Tanzanian mobile number', () => {
    for (const phone of ['0712345678', '255712345678', '+255712345678', '0612 345 678', '0789.345.678']) {
      expect(createCustomerCommand.safeParse(makePayload({ phone })).success, phone).toBe(true);
    }
  });

  it('refuses a number that is not a Tanzanian mobile, saying which field', () => {
    for (const phone of ['0222123456', '071234', '254712345678', 'hello', '']) {
      expect(issuesOf(makePayload({ phone })), phone).toHaveProperty('phone');
    }
  });

  it('needs a name, and no more than 200 characters of it', () => {
    expect(issuesOf(makePayload({ name: '   ' }))).toHaveProperty('name');
    expect(issuesOf(makePayload({ name: 'a'.repeat(201) }))).toHaveProperty('name');
    expect(issuesOf(makePayload({ name: undefined }))).toHaveProperty('name');
    expect(issuesOf(makePayload({ name: 'a'.repeat(200) }))).toEqual({});
  });

  it('takes only an id of the form the till makes, and no other fields', () => {
    expect(issuesOf(makePayload({ customer: 'cus_1' }))).toHaveProperty('customer');
    expect(issuesOf(makePayload({ customer: newId('customer').toUpperCase() }))).toHaveProperty('customer');
    expect(issuesOf(makePayload({ customer: newId('order') }))).toHaveProperty('customer');
    expect(issuesOf(makePayload({ email: 'a@b.tz' }))).toHaveProperty('');
  });
});
