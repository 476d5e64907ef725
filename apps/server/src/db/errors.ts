/**
 * What a database error says about trying again. A connection lost, a
 * timeout, a serialization failure or a race on a unique key may pass; an
 * error of the data itself (SQLSTATE class 22, most of 23, 54) comes back
 * every time the same statement is sent.
 */

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections, query_canceled (statement timeout)
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
  '08006',
  '08001',
  '08003',
]);

/** True when an error means the database (or another dependency) is unreachable or saturated. */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)))
    return true;
  return /timeout exceeded when trying to connect|Connection terminated|connection timeout|Query read timeout|Client has encountered a connection error|the database system is (starting up|shutting down)/i.test(
    error.message,
  );
}

// unique_violation and exclusion_violation: another transaction got there first, and a retry sees it.
const RACES = new Set(['23505', '23P01']);

/**
 * True when PostgreSQL refused the data itself: data exceptions (22: a NUL or
 * invalid UTF-8 in text, a number out of range), integrity violations that
 * are not races (23), program limits exceeded (54: a value too large to index).
 */
export function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code) || RACES.has(code)) return false;
  return code.startsWith('22') || code.startsWith('23') || code.startsWith('54');
}

/**
 * True when the same statement may well succeed later: the database was
 * unreachable, busy or shutting down (classes 08, 53, 57), the transaction
 * lost a serialization or deadlock (40) or waited too long for a lock
 * (55P03), or a race on a unique key.
 */
export function isTransientFailure(error: unknown): boolean {
  if (isUnavailable(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return RACES.has(code) || code === '55P03' || /^(08|40|53|57)/.test(code);
}

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
}

/** A UNIQUE violation on `constraint` (any when omitted). */
export function isUniqueViolation(error: unknown, constraint?: string): error is PgError {
  const e = error as PgError | null;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

/** An exclusion constraint's refusal (two stays of one room), on `constraint`. */
export function isExclusionViolation(error: unknown, constraint: string): error is PgError {
  const e = error as PgError | null;
  return e?.code === '23P01' && e.constraint === constraint;
}
