/**
 * The life of a print job: made `pending` on the server, it reaches its
 * printer's till over sync, and the till reports `printed` or `failed` (with a
 * reason). Nothing moves a finished job.
 */
import { assertTransition, stateMachine, type TransitionTable } from '../state-machine.ts';

export const PRINT_JOB_STATUSES = ['pending', 'printed', 'failed'] as const;
export type PrintJobStatus = (typeof PRINT_JOB_STATUSES)[number];

/** Why a job did not print: the printer's own problems, or its till was removed. */
export const PRINT_JOB_FAILURE_REASONS = [
  'offline',
  'paper_out',
  'cover_open',
  'timeout',
  'till_revoked',
] as const;
export type PrintJobFailureReason = (typeof PRINT_JOB_FAILURE_REASONS)[number];

export const PRINT_JOB_TRANSITIONS: TransitionTable<PrintJobStatus> = {
  pending: ['printed', 'failed'],
  printed: [],
  failed: [],
};

export const PRINT_JOB_STATES = stateMachine('print job', PRINT_JOB_TRANSITIONS);

export interface PrintJobOutcome {
  status: 'printed' | 'failed';
  failureReason: PrintJobFailureReason | null;
}

/**
 * The job's move for a reported result. `null` when the job already has that
 * result (a till repeating its report changes nothing); otherwise the move must
 * be in the table. (The command's schema makes a failure say why.)
 */
export function printJobOutcome(
  from: PrintJobStatus,
  report: { status: 'printed' | 'failed'; failure_reason?: PrintJobFailureReason | undefined },
): PrintJobOutcome | null {
  if (from === report.status) return null;
  assertTransition(PRINT_JOB_STATES, from, report.status);
  return { status: report.status, failureReason: report.failure_reason ?? null };
}

/** A job to a revoked till's printer, or pending when its till is revoked, fails at once. */
export function failForRevokedTill(from: PrintJobStatus): PrintJobOutcome {
  assertTransition(PRINT_JOB_STATES, from, 'failed');
  return { status: 'failed', failureReason: 'till_revoked' };
}
