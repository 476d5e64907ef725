/**
 * A sale's digital receipt: the page at `{server}/receipt/{token}`, where the
 * token is made here at the moment of sale (offline too) and sent with the
 * sale's `order.create`. The server is the public address the till was paired
 * with, else the address this till reaches it at.
 */
import { normalizeTanzanianMobile, receiptUrl } from '@tz/core';
import type { DigitalReceiptLink, TillIdentity } from '../api.ts';
import type { Context } from '../store/context.ts';
import type { CommandDoc } from '../store/schema.ts';

export function digitalReceiptOf(
  ctx: Context,
  till: TillIdentity,
  command: CommandDoc,
  customerPhone: string | null | undefined,
): DigitalReceiptLink | undefined {
  const token = command.payload.receipt_token;
  const base = till.publicUrl ?? ctx.serverUrl ?? '';
  if (typeof token !== 'string' || base === '') return undefined;
  return {
    url: receiptUrl(base, token),
    phone: customerPhone ? normalizeTanzanianMobile(customerPhone) : null,
  };
}
