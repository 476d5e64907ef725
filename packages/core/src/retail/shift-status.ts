/**
 * A till's shift: opened with a cash float, closed with the amounts counted.
 * The till makes the shift's id (`newId('shift')`), so the till and the server
 * name one shift alike and a repeated command finds the shift it made.
 */
import { z } from 'zod';
import { idPattern } from '../ids.ts';
import { stateMachine, type TransitionTable } from '../state-machine.ts';

export const SHIFT_STATUSES = ['open', 'closed'] as const;
export type ShiftStatus = (typeof SHIFT_STATUSES)[number];

export const SHIFT_TRANSITIONS: TransitionTable<ShiftStatus> = {
  open: ['closed'],
  closed: [],
};

export const SHIFT_STATES = stateMachine('shift', SHIFT_TRANSITIONS);

/** `shift_` and a lowercase ULID, as `newId('shift')` makes it on the till. */
export const shiftIdSchema = z
  .string()
  .regex(idPattern('shift'), { error: "must be shift_ and a lowercase ULID (newId('shift'))" });
