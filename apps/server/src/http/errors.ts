import { AppError, type ErrorCode } from '@tz/core';
import type { z } from 'zod';
import { isUnavailable } from '../db/errors.ts';

/** Field-specific codes, so a client can branch on `code` without parsing messages. */
const FIELD_CODES: Record<string, ErrorCode> = {
  amount: 'amount_invalid',
  currency: 'currency_invalid',
  phone: 'phone_invalid',
  email: 'email_invalid',
  limit: 'limit_invalid',
  quantity: 'quantity_invalid',
};

/** Turns a zod failure into a 400 whose `details` name each offending field. */
export function validationError(
  error: z.ZodError,
  where: 'body' | 'query' | 'path',
  input: unknown,
): AppError {
  // Field names come from the request: a Map, so `constructor` or `toString` are names like any other.
  const details = new Map<string, string>();
  let code: ErrorCode | undefined;
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) details.set([...issue.path, key].join('.'), 'is not a known parameter');
      code ??= 'parameter_unknown';
      continue;
    }
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : where;
    const missing = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
    if (!details.has(field)) details.set(field, missing ? 'is required' : issue.message);
    const last = issue.path.at(-1);
    const fieldCode =
      typeof last === 'string' && Object.hasOwn(FIELD_CODES, last) ? FIELD_CODES[last] : undefined;
    code ??= missing ? 'parameter_missing' : (fieldCode ?? 'parameter_invalid');
  }
  const fields = [...details.keys()];
  const message =
    where === 'body' && fields[0] === 'body'
      ? 'The request body must be a JSON object'
      : `Invalid ${fields.length === 1 ? 'parameter' : 'parameters'}: ${fields.join(', ')}`;
  return new AppError(code ?? 'parameter_invalid', message, { details: Object.fromEntries(details) });
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Any thrown value as the platform's one error type. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isUnavailable(error)) {
    return new AppError('service_unavailable', 'The service is temporarily unavailable; retry shortly', {
      retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS,
    });
  }
  return new AppError('internal_error', 'An internal error occurred; quote the X-Request-Id to support');
}
