import { z } from 'zod';

/** Query parameters every list endpoint accepts. */
export const listQuery = z.object({
  limit: z.coerce
    .number({ error: 'must be an integer from 1 to 100' })
    .int({ error: 'must be an integer from 1 to 100' })
    .min(1, { error: 'must be an integer from 1 to 100' })
    .max(100, { error: 'must be an integer from 1 to 100' })
    .default(10),
  starting_after: z.string().max(255).optional(),
  ending_before: z.string().max(255).optional(),
});

export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() });
