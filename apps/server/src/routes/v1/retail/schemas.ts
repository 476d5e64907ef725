import { z } from 'zod';
import { textSchema } from '@tz/core';

/** Shapes shared by the retail routes; each resource's own shapes sit beside its routes. */

export const name = z.string().trim().min(1, { error: 'is required' }).max(200);

export const code = z
  .string()
  .trim()
  .regex(/^[\x21-\x7e]{1,64}$/, { error: 'must be 1 to 64 printable characters without spaces' });

export const barcodes = z
  .array(code)
  .max(20)
  .describe('EAN/UPC or any code a scanner reads; unique per account and mode');

export const text = textSchema;

export const lines = (count: number) => z.array(z.string().trim().min(1).max(64)).max(count);

export const count = z.number().int();

export const booleanQuery = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((value) => value === 'true')
  .optional();

export const includeDeletedFilter = { include_deleted: booleanQuery };
