import { z } from 'zod';
import { CURRENCY_CODES, MAX_UNIX_SECONDS } from '@tz/core';

/** Shared pieces of request and response schemas. */
export { metadataSchema } from '@tz/core';

export const idParams = z.object({ id: z.string().min(1).max(255) });

export const currencyOut = z.enum(CURRENCY_CODES);
export const unix = z.number().int().describe('Unix seconds');

/** A time filter in a query string, in unix seconds. */
export const unixSecondsQuery = z.coerce
  .number({ error: `must be unix seconds from 0 to ${MAX_UNIX_SECONDS}` })
  .int({ error: `must be unix seconds from 0 to ${MAX_UNIX_SECONDS}` })
  .min(0, { error: `must be unix seconds from 0 to ${MAX_UNIX_SECONDS}` })
  .max(MAX_UNIX_SECONDS, { error: `must be unix seconds from 0 to ${MAX_UNIX_SECONDS}` });
export const livemode = z.boolean();
