import { AppError } from './errors.ts';

/** A transition table: for each state, the states it may move to. */
export type TransitionTable<S extends string> = { readonly [From in S]: readonly S[] };

/** The one gate every state change of a kind passes through; refuses moves not in its table. */
export function assertTransition<S extends string>(
  what: string,
  table: TransitionTable<S>,
  from: S,
  to: S,
): void {
  if (!table[from].includes(to)) {
    throw new AppError('state_transition_invalid', `A ${what} cannot move from '${from}' to '${to}'`, {
      details: { status: `is '${from}'` },
    });
  }
}
