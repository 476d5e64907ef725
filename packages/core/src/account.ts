/**
 * The account: one business in both modes. Its default language is the one
 * the back office opens in for a browser that has not chosen one, and the
 * one a new store's receipts start in (each store then keeps its own).
 */
import { z } from 'zod';
import { RECEIPT_LANGUAGES, type ReceiptLanguage } from './receipt.ts';

export type AccountLanguage = ReceiptLanguage;
export const DEFAULT_ACCOUNT_LANGUAGE: AccountLanguage = 'sw';

export const accountLanguageSchema = z.enum(RECEIPT_LANGUAGES, {
  error: 'must be sw (Swahili) or en (English)',
});

/** `PATCH /v1/account`: fields left out keep their value; at least one is given. */
export const accountUpdateSchema = z
  .strictObject({
    business_name: z.string().trim().min(1, { error: 'is required' }).max(200).optional(),
    default_language: accountLanguageSchema
      .optional()
      .describe('sw or en: the back office’s language until a browser chooses, and new stores’ receipts'),
  })
  .refine((body) => body.business_name !== undefined || body.default_language !== undefined, {
    path: ['business_name'],
    error: 'give business_name or default_language',
  });
export type AccountUpdate = z.output<typeof accountUpdateSchema>;
