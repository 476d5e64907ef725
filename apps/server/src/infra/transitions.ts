import { assertTransition, type StateMachine } from '@tz/core';
import type { Queryable } from '../db/database.ts';

type SqlType = 'text' | 'integer' | 'bigint' | 'timestamptz' | 'boolean';

/** Where a kind of object keeps its status: its table, the columns naming one row, and its state machine. */
export interface StoredStates<S extends string> {
  machine: StateMachine<S>;
  table: string;
  keys: ReadonlyArray<readonly [column: string, type: SqlType]>;
}

export const storedStates = <S extends string>(
  machine: StateMachine<S>,
  table: string,
  keys: StoredStates<S>['keys'] = [['id', 'text']],
): StoredStates<S> => ({ machine, table, keys });

export interface TransitionWrite {
  /** Assignments written with the status, e.g. `paid_at = now(), fee = $1`; `m.<column>` reads a `perRow` value. */
  set?: string;
  /** The parameters `set` names as $1, $2, … */
  params?: readonly unknown[];
  /** Values that differ by row, one per row in the order given, read in `set` as `m.<column>`. */
  perRow?: Record<string, readonly [type: SqlType, values: readonly unknown[]]>;
}

type Row<S extends string> = { status: S };

/**
 * The one way a stored status changes. Each row's move to `to` is checked
 * against its machine's table and refused with `state_transition_invalid`
 * otherwise; then all the rows are written in one UPDATE, the status with the
 * columns that go with it, where each row still has the status it was read
 * with. Answers the rows as written, in the order given. Callers name the
 * change for its intent (`markPaid`, `void`, `close`): there is no generic
 * status patch.
 */
export async function transition<S extends string, R extends Row<S>>(
  db: Queryable,
  states: StoredStates<S>,
  row: R,
  to: S,
  write?: TransitionWrite,
): Promise<R>;
export async function transition<S extends string, R extends Row<S>>(
  db: Queryable,
  states: StoredStates<S>,
  rows: readonly R[],
  to: S,
  write?: TransitionWrite,
): Promise<R[]>;
export async function transition<S extends string, R extends Row<S>>(
  db: Queryable,
  states: StoredStates<S>,
  rowOrRows: R | readonly R[],
  to: S,
  write: TransitionWrite = {},
): Promise<R | R[]> {
  const rows: readonly R[] = Array.isArray(rowOrRows) ? rowOrRows : [rowOrRows as R];
  if (rows.length === 0) return [];
  for (const row of rows) assertTransition(states.machine, row.status, to);
  const params = [...(write.params ?? [])];
  const column = (name: string) => rows.map((row) => (row as unknown as Record<string, unknown>)[name]);
  const matched: Array<[alias: string, type: string, values: readonly unknown[]]> = [
    ...states.keys.map(([name, type]): [string, string, readonly unknown[]] => [
      `key_${name}`,
      type,
      column(name),
    ]),
    ['from_status', 'text', rows.map((row) => row.status)],
    ...Object.entries(write.perRow ?? {}).map(
      ([name, [type, values]]): [string, string, readonly unknown[]] => [name, type, values],
    ),
  ];
  const toParam = params.push(to);
  const unnest = matched.map(([, type, values]) => `$${params.push(values)}::${type}[]`);
  const result = await db.query<R>(
    `UPDATE ${states.table} AS t SET status = $${toParam}${write.set ? `, ${write.set}` : ''}
     FROM unnest(${unnest.join(', ')}) AS m(${matched.map(([alias]) => alias).join(', ')})
     WHERE ${states.keys.map(([name]) => `t.${name} = m.key_${name}`).join(' AND ')} AND t.status = m.from_status
     RETURNING t.*`,
    params,
  );
  const keyOf = (row: R) =>
    states.keys.map(([name]) => String((row as unknown as Record<string, unknown>)[name])).join('/');
  const written = new Map(result.rows.map((row) => [keyOf(row), row]));
  const moved = rows.map((row) => written.get(keyOf(row)));
  if (moved.some((row) => row === undefined)) {
    throw new Error(`a ${states.machine.name} changed status while it was being moved to '${to}'`);
  }
  return Array.isArray(rowOrRows) ? (moved as R[]) : moved[0]!;
}
