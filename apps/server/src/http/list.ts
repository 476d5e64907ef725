import { z } from 'zod';
import { AppError } from '@tz/core';
import type { Queryable } from '../db/database.ts';

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
export type ListQuery = z.infer<typeof listQuery>;

export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() });

export interface ListSource {
  /** Table name (from code, never from input); it must have `id` and `seq`. */
  table: string;
  /** SQL conditions using $1..$n, applied to the page and to cursor lookups. */
  where: string;
  params: unknown[];
}

/**
 * Newest first by `seq` (exact creation order), cursor by id. `starting_after`
 * pages back in time; `ending_before` pages forward.
 */
export async function listPage<Row, T>(
  db: Queryable,
  source: ListSource,
  query: ListQuery,
  toObject: (row: Row) => T,
): Promise<ListEnvelope<T>> {
  if (query.starting_after && query.ending_before) {
    throw new AppError('cursor_invalid', 'Give starting_after or ending_before, not both', {
      details: { ending_before: 'cannot be combined with starting_after' },
    });
  }
  const params = [...source.params];
  const cursorId = query.starting_after ?? query.ending_before;
  let cursorCondition = '';
  if (cursorId !== undefined) {
    params.push(cursorId);
    const found = await db.query<{ seq: number }>(
      `SELECT seq FROM ${source.table} WHERE ${source.where} AND id = $${params.length}`,
      params,
    );
    const cursor = found.rows[0];
    if (!cursor) {
      const field = query.starting_after ? 'starting_after' : 'ending_before';
      throw new AppError('cursor_invalid', `No object '${cursorId}' to page from`, {
        details: { [field]: 'is not an id in this list' },
      });
    }
    params[params.length - 1] = cursor.seq;
    cursorCondition = ` AND seq ${query.starting_after ? '<' : '>'} $${params.length}`;
  }
  params.push(query.limit + 1);
  const forward = query.ending_before !== undefined;
  const result = await db.query<Row & { seq: number }>(
    `SELECT * FROM ${source.table} WHERE ${source.where}${cursorCondition}
     ORDER BY seq ${forward ? 'ASC' : 'DESC'} LIMIT $${params.length}`,
    params,
  );
  const rows = result.rows.slice(0, query.limit);
  if (forward) rows.reverse();
  return { object: 'list', data: rows.map(toObject), has_more: result.rows.length > query.limit };
}
