/**
 * The tills' errors: what reaches tRPC's error formatter, as the one error
 * type. Our own errors pass as they are (`ERROR_KINDS` gives their status and
 * tRPC code); tRPC's own refusals, made before a procedure runs, take the
 * code of the same condition on `/v1`; anything else is `toAppError`'s.
 */
import type { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { AppError, type ErrorCode } from '@tz/core';
import { toAppError } from './errors.ts';

/** The refusals tRPC makes itself, by its code. */
const TRPC_OWN_CODES: Partial<Record<TRPC_ERROR_CODE_KEY, ErrorCode>> = {
  // An input its schema refuses.
  BAD_REQUEST: 'parameter_invalid',
  PARSE_ERROR: 'body_invalid_json',
  // No such procedure, or a query called as a mutation (and the reverse).
  NOT_FOUND: 'route_not_found',
  METHOD_NOT_SUPPORTED: 'route_not_found',
  UNSUPPORTED_MEDIA_TYPE: 'content_type_invalid',
  PAYLOAD_TOO_LARGE: 'body_too_large',
};

export function appErrorOf(error: TRPCError): AppError {
  if (error.cause instanceof AppError) return error.cause;
  const code = TRPC_OWN_CODES[error.code];
  return code ? new AppError(code, error.message) : toAppError(error.cause);
}
