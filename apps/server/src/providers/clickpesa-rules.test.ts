import { describe, expect, it } from 'vitest';
import {
  checksumCanonicalForm,
  escrowTransferId,
  escrowTransferOf,
  initiationRefusal,
  orderReferenceFor,
  payerFailure,
  paymentIdFromOrderReference,
  payoutFailure,
  payoutIdFromOrderReference,
  payoutSettlementOf,
  settlementOf,
} from './clickpesa-rules.ts';

describe('ClickPesa checksum canonical form', () => {
  it('sorts keys at every level, keeps array order and leaves out checksum fields', () => {
    const form = checksumCanonicalForm({
      orderReference: 'pay01',
      checksum: 'abc',
      checksumMethod: 'canonical',
      amount: '1000',
      data: { z: 1, a: [{ y: true, b: null }, 'x'] },
    });
    expect(form).toBe(
      '{"amount":"1000","data":{"a":[{"b":null,"y":true},"x"],"z":1},"orderReference":"pay01"}',
    );
  });

  it('gives the same string whatever the key order of the input', () => {
    expect(checksumCanonicalForm({ b: '2', a: { d: 4, c: 3 } })).toBe(
      checksumCanonicalForm({ a: { c: 3, d: 4 }, b: '2' }),
    );
  });
});

describe('ClickPesa order references', () => {
  it('round-trips a payment id through the alphanumeric order reference', () => {
    const id = 'pay_01jzq8n6w4x2m3k5p7r9s1t3v5';
    const reference = orderReferenceFor(id);
    expect(reference).toMatch(/^[0-9a-z]+$/);
    expect(paymentIdFromOrderReference(reference)).toBe(id);
    expect(paymentIdFromOrderReference(id)).toBe(id);
    expect(paymentIdFromOrderReference(reference.toUpperCase())).toBe(id);
  });

  it('refuses references that are not ours', () => {
    expect(paymentIdFromOrderReference('ORD123456')).toBeUndefined();
    expect(paymentIdFromOrderReference('cus_01jzq8n6w4x2m3k5p7r9s1t3v5')).toBeUndefined();
    expect(paymentIdFromOrderReference('pay_01jzq8n6w4x2m3k5p7r9s1t3v5x')).toBeUndefined();
  });
});

describe('ClickPesa order references of escrow transfers', () => {
  const split = 'esp_01jzq8n6w4x2m3k5p7r9s1t3v5';

  it('keeps the split id for the first attempt and appends the attempt after it', () => {
    expect(escrowTransferId(split, 1)).toBe(split);
    expect(orderReferenceFor(escrowTransferId(split, 1))).toBe('esp01jzq8n6w4x2m3k5p7r9s1t3v5');
    expect(orderReferenceFor(escrowTransferId(split, 2))).toBe('esp01jzq8n6w4x2m3k5p7r9s1t3v5a2');
    expect(orderReferenceFor(escrowTransferId(split, 12))).toMatch(/^[0-9a-z]+$/);
  });

  it('maps every attempt’s id and order reference back to its split and attempt', () => {
    for (const attempt of [1, 2, 9, 10, 137]) {
      const id = escrowTransferId(split, attempt);
      expect(escrowTransferOf(id)).toEqual({ splitId: split, attempt });
      expect(escrowTransferOf(orderReferenceFor(id).toUpperCase())).toEqual({ splitId: split, attempt });
    }
  });

  it('refuses references that are not an escrow transfer of ours', () => {
    for (const reference of [
      'pay01jzq8n6w4x2m3k5p7r9s1t3v5',
      'esp01jzq8n6w4x2m3k5p7r9s1t3v',
      'esp01jzq8n6w4x2m3k5p7r9s1t3v5a1',
      'esp01jzq8n6w4x2m3k5p7r9s1t3v5a0',
      'esp01jzq8n6w4x2m3k5p7r9s1t3v5a02',
      'esp01jzq8n6w4x2m3k5p7r9s1t3v5b2',
    ])
      expect(escrowTransferOf(reference), reference).toBeUndefined();
  });
});

describe('ClickPesa statuses and failure codes', () => {
  it('maps documented statuses and rejects unknown ones', () => {
    expect(settlementOf('SUCCESS')).toBe('paid');
    expect(settlementOf('SETTLED')).toBe('paid');
    expect(settlementOf('FAILED')).toBe('failed');
    expect(settlementOf('PROCESSING')).toBe('pending');
    expect(settlementOf('PENDING')).toBe('pending');
    expect(settlementOf('REVERSED')).toBeUndefined();
  });

  it('reads the failure code from the provider message', () => {
    expect(payerFailure('Insufficient balance').code).toBe('insufficient_funds');
    expect(payerFailure('User cancelled the transaction').code).toBe('payer_declined');
    expect(payerFailure('Transaction timed out').code).toBe('payer_timeout');
    expect(payerFailure('Wrong PIN entered').code).toBe('payer_authentication_failed');
    expect(payerFailure('Something odd').code).toBe('payment_declined');
    expect(payerFailure(undefined).code).toBe('payment_declined');
  });

  it('treats initiation refusals about our request as provider errors', () => {
    expect(initiationRefusal('Invalid checksum').code).toBe('provider_error');
    expect(initiationRefusal('orderReference is not valid').code).toBe('provider_error');
    expect(initiationRefusal(undefined).code).toBe('provider_error');
    expect(initiationRefusal('Invalid phone number').code).toBe('phone_unsupported');
    expect(initiationRefusal('Amount exceeds the maximum allowed').code).toBe('amount_limit_exceeded');
  });
});

describe('ClickPesa payout rules', () => {
  it('map the order reference back, statuses to outcomes, and messages to codes', () => {
    expect(payoutIdFromOrderReference('po01jx0000000000000000000000')).toBe('po_01jx0000000000000000000000');
    expect(payoutIdFromOrderReference('pay01jx0000000000000000000000')).toBeUndefined();
    expect(payoutSettlementOf('SUCCESS')).toBe('paid');
    for (const status of ['FAILED', 'REFUNDED', 'reversed'])
      expect(payoutSettlementOf(status)).toBe('failed');
    for (const status of ['AUTHORIZED', 'PROCESSING', 'PENDING'])
      expect(payoutSettlementOf(status)).toBe('pending');
    expect(payoutSettlementOf('SETTLED')).toBeUndefined();
    expect(payoutFailure('Invalid phone number').code).toBe('destination_refused');
    expect(payoutFailure('Beneficiary account not registered').code).toBe('destination_refused');
    expect(payoutFailure('Insufficient balance').code).toBe('provider_error');
    expect(payoutFailure(undefined).code).toBe('provider_error');
  });
});
