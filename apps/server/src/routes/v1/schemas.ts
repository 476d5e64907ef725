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

/** The last second of year 9999: every timestamp the API takes fits PostgreSQL's range below it. */
export const MAX_UNIX_SECONDS = 253_402_300_799;
/** A time filter in a query string, in unix seconds. */
export const unixSecondsQuery = z.coerce
  .number({ error: `must be unix seconds from 0 to ${MAX_UNIX_SECONDS}` })
  .int({ error: `must be unix seconds from 0 to ${MAX_UNIX_SECONDS}` })
  .min(0, { error: `must be unix seconds from 0 to ${MAX_UNIX_SECONDS}` })
  .max(MAX_UNIX_SECONDS, { error: `must be unix seconds from 0 to ${MAX_UNIX_SECONDS}` });
export const livemode = z.boolean();
