import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CODES, ERROR_KINDS, isErrorCode } from '@tz/core';
import { appErrorOf } from './trpc-errors.ts';

describe('the tills’ errors', () => {
  it('send each code under the tRPC code whose status is the code’s own', () => {
    for (const code of ERROR_CODES) {
      const { status, trpc } = ERROR_KINDS[code];
      // tRPC has no 431; the formatter sends the status itself, so the till still reads 431.
      if (code === 'headers_too_large') continue;
      expect(getHTTPStatusCodeFromError(new TRPCError({ code: trpc })), code).toBe(status);
    }
  });

  it('keep our own errors as they are', () => {
    const refused = new AppError('till_revoked', 'This till was revoked');
    expect(appErrorOf(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: refused }))).toBe(refused);
  });

  it('give tRPC’s own refusals the code of the same condition on /v1', () => {
    const cases = [
      ['NOT_FOUND', 'route_not_found', 404],
      ['METHOD_NOT_SUPPORTED', 'route_not_found', 404],
      ['BAD_REQUEST', 'parameter_invalid', 400],
      ['PARSE_ERROR', 'body_invalid_json', 400],
    ] as const;
    for (const [trpc, code, status] of cases) {
      const answer = appErrorOf(new TRPCError({ code: trpc, message: 'tRPC says' }));
      expect([answer.code, answer.kind.status, answer.message]).toEqual([code, status, 'tRPC says']);
    }
  });

  it('answer anything else as toAppError does, without its words', () => {
    const bug = appErrorOf(
      new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: new Error('secret detail') }),
    );
    expect([bug.code, bug.kind.status]).toEqual(['internal_error', 500]);
    expect(bug.message).not.toContain('secret');
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const unavailable = appErrorOf(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: down }));
    expect([unavailable.code, unavailable.kind.status]).toEqual(['service_unavailable', 503]);
    // Whatever tRPC invents later still reads as one of our codes.
    expect(isErrorCode(appErrorOf(new TRPCError({ code: 'CLIENT_CLOSED_REQUEST' })).code)).toBe(true);
  });
});
