import { describe, expect, it } from 'vitest';
import { isDataError, isTransientFailure } from './errors.ts';

/** An error as `pg` throws it: the SQLSTATE in `code`. */
const pgError = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('what a database error says about trying again', () => {
  it.each([
    ['08006', 'the connection failed'],
    ['57014', 'a statement timeout'],
    ['57P01', 'the server shutting down'],
    ['53300', 'too many connections'],
    ['40001', 'a serialization failure'],
    ['40P01', 'a deadlock'],
    ['55P03', 'a lock not available'],
    ['23505', 'a race on a unique key'],
    ['ECONNREFUSED', 'the database unreachable'],
  ])('tries %s (%s) again', (code) => {
    expect(isTransientFailure(pgError(code))).toBe(true);
    expect(isDataError(pgError(code))).toBe(false);
  });

  it('tries again when the connection ended mid-query', () => {
    expect(isTransientFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it.each([
    ['22P05', 'a NUL in jsonb'],
    ['22021', 'a NUL or invalid UTF-8 in text'],
    ['22003', 'a number out of range'],
    ['23502', 'a missing value'],
    ['23514', 'a check failed'],
    ['54000', 'a value too large to index'],
  ])('refuses %s (%s): it fails the same way every time', (code) => {
    expect(isTransientFailure(pgError(code))).toBe(false);
    expect(isDataError(pgError(code))).toBe(true);
  });

  it('neither retries nor calls a data error what is not a database error', () => {
    expect(isTransientFailure(new TypeError('x is undefined'))).toBe(false);
    expect(isDataError(new TypeError('x is undefined'))).toBe(false);
  });
});
