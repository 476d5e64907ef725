import { z } from 'zod';
import { CURRENCY_CODES } from '@tz/core';

/** Shared pieces of request and response schemas. */
export const metadataSchema = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .refine((value) => Object.keys(value).length <= 50, { error: 'at most 50 keys' })
  .describe('Up to 50 string key-value pairs for your own use');

export const idParams = z.object({ id: z.string().min(1).max(255) });

export const currencyOut = z.enum(CURRENCY_CODES);
export const unix = z.number().int().describe('Unix seconds');
export const livemode = z.boolean();
