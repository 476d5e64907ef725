import { AppError } from './errors.ts';

/** A transition table: for each state, the states it may move to. */
export type TransitionTable<S extends string> = { readonly [From in S]: readonly S[] };

/** A kind of object's states: its name, as a refusal says it, and its transition table. */
export interface StateMachine<S extends string> {
  readonly name: string;
  readonly transitions: TransitionTable<S>;
}

export const stateMachine = <S extends string>(
  name: string,
  transitions: TransitionTable<S>,
): StateMachine<S> => ({ name, transitions });

export const canTransition = <S extends string>(machine: StateMachine<S>, from: S, to: S): boolean =>
  machine.transitions[from].includes(to);

/** The one gate every state change passes through; refuses a move not in the machine's table. */
export function assertTransition<S extends string>(machine: StateMachine<S>, from: S, to: S): void {
  if (!canTransition(machine, from, to)) {
    throw new AppError(
      'state_transition_invalid',
      `A ${machine.name} cannot move from '${from}' to '${to}'`,
      { details: { status: `is '${from}'` } },
    );
  }
}
