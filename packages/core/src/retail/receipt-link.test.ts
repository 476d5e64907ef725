import { describe, expect, it } from 'vitest';
import { fromBase64 } from '../base64.ts';
import { commandPayloads } from '../sync/protocol.ts';
import { createOrderCommand } from './commands.ts';
import { isReceiptToken, newReceiptToken, receiptUrl, RECEIPT_TOKEN_BYTES } from './receipt-link.ts';

const sale = (extra: Record<string, unknown> = {}) => ({
  client_order_id: 'sale_1',
  receipt_number: 'T01-000001',
  lines: [{ product: 'prod_1', quantity: 2 }],
  tenders: [{ method: 'cash', amount: 5000 }],
  ...extra,
});

describe('order.create with a receipt token', () => {
  const orderCreate = commandPayloads['order.create'];

  it('still takes a sale from a till that sends no token', () => {
    const parsed = orderCreate.parse(sale());
    expect(parsed.receipt_token).toBeUndefined();
    expect(parsed.lines[0]!.quantity_milli).toBe(2000);
  });

  it('keeps the token a till sends', () => {
    const token = newReceiptToken();
    expect(orderCreate.parse(sale({ receipt_token: token })).receipt_token).toBe(token);
  });

  it('refuses a token too short to be unguessable, or with characters outside base64url', () => {
    for (const bad of [
      'abc',
      'A'.repeat(21),
      `${'A'.repeat(21)}+`,
      `${'A'.repeat(21)}/`,
      'A'.repeat(65),
      42,
    ]) {
      const result = orderCreate.safeParse(sale({ receipt_token: bad }));
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(['receipt_token']);
    }
  });

  it('is a till field: the REST order body does not take it', () => {
    expect(createOrderCommand.safeParse(sale({ receipt_token: newReceiptToken() })).success).toBe(false);
  });
});

describe('newReceiptToken', () => {
  it('is 128 random bits in base64url, different each time', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => newReceiptToken()));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(isReceiptToken(token)).toBe(true);
      const bytes = fromBase64(`${token.replace(/-/g, '+').replace(/_/g, '/')}==`);
      expect(bytes?.length).toBe(RECEIPT_TOKEN_BYTES);
    }
  });

  it('makes the page address under the server’s public address', () => {
    expect(receiptUrl('https://pay.example.co.tz/', 'abc')).toBe('https://pay.example.co.tz/receipt/abc');
  });
});
