import { z } from 'zod';
import { CURRENCY_CODES } from '@tz/core';

/** Shared pieces of request and response schemas. */
export { metadataSchema } from '@tz/core';

export const idParams = z.object({ id: z.string().min(1).max(255) });

export const currencyOut = z.enum(CURRENCY_CODES);
export const unix = z.number().int().describe('Unix seconds');
export const livemode = z.boolean();
