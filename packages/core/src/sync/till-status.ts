/**
 * The life of a till. A till ends one of two ways: **retired** (the merchant
 * stops it selling; the till pushes what it has not yet synced, says so, and
 * its credential stops once its backlog is empty) or **revoked** (a lost or
 * stolen device: its credential stops at once, and what it had not synced
 * reaches the server only in a signed export the merchant imports).
 */
import { stateMachine, type TransitionTable } from '../state-machine.ts';

export const TILL_STATUSES = ['unpaired', 'paired', 'retiring', 'retired', 'revoked'] as const;
export type TillStatus = (typeof TILL_STATUSES)[number];

export const TILL_TRANSITIONS: TransitionTable<TillStatus> = {
  unpaired: ['paired', 'retired', 'revoked'],
  // A new device takes over a paired till (a new pairing code exchanged).
  paired: ['paired', 'retiring', 'revoked'],
  retiring: ['retired', 'revoked'],
  retired: ['revoked'],
  revoked: [],
};

export const TILL_STATES = stateMachine('till', TILL_TRANSITIONS);

/** What `sync.report` answers: whether the till may still sell. */
export interface ReportResult {
  /** `retiring`: sell nothing new, push the backlog; `retired`: the backlog arrived, stop. */
  status: 'paired' | 'retiring' | 'retired';
}
