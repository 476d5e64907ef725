import { AppError } from '@tz/core';
import type { Queryable } from './database.ts';

/** A page request: the `limit` and cursors every list endpoint accepts (validated at the edge). */
export interface ListQuery {
  limit: number;
  starting_after?: string | undefined;
  ending_before?: string | undefined;
}

export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

export interface ListSource {
  /** Table name, or a subquery `(…) AS name`, from code, never from input; it must have `id` and `seq`. */
  table: string;
  /** SQL conditions using $1..$n, applied to the page and to cursor lookups. */
  where: string;
  params: unknown[];
}

/** A list's `created_gte` / `created_lte` filter (unix seconds, both ends included) as SQL conditions. */
export function createdWithin(
  params: unknown[],
  filters: { created_gte?: number | undefined; created_lte?: number | undefined },
): string {
  let where = '';
  if (filters.created_gte !== undefined)
    where += ` AND created_at >= to_timestamp($${params.push(filters.created_gte)})`;
  if (filters.created_lte !== undefined)
    where += ` AND created_at <= to_timestamp($${params.push(filters.created_lte)})`;
  return where;
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
