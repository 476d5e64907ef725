import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { commandPayloads } from '../sync/protocol.ts';
import { PRINT_JOB_STATUSES, failForRevokedTill, printJobOutcome } from './print-job-status.ts';

describe('print job transitions', () => {
  it('moves a pending job to printed or failed with its reason', () => {
    expect(printJobOutcome('pending', { status: 'printed' })).toEqual({
      status: 'printed',
      failureReason: null,
    });
    expect(printJobOutcome('pending', { status: 'failed', failure_reason: 'paper_out' })).toEqual({
      status: 'failed',
      failureReason: 'paper_out',
    });
  });

  it('treats the same result reported again as no move', () => {
    expect(printJobOutcome('printed', { status: 'printed' })).toBeNull();
    expect(printJobOutcome('failed', { status: 'failed', failure_reason: 'offline' })).toBeNull();
  });

  it('refuses to change a finished job’s result', () => {
    expect(() => printJobOutcome('printed', { status: 'failed', failure_reason: 'timeout' })).toThrow(
      AppError,
    );
    expect(() => printJobOutcome('failed', { status: 'printed' })).toThrow(
      /cannot move from 'failed' to 'printed'/,
    );
  });

  it('fails only pending jobs for a revoked till', () => {
    expect(failForRevokedTill('pending')).toEqual({ status: 'failed', failureReason: 'till_revoked' });
    for (const status of PRINT_JOB_STATUSES.filter((s) => s !== 'pending'))
      expect(() => failForRevokedTill(status)).toThrow(AppError);
  });
});

describe('the print_job.result command', () => {
  const schema = commandPayloads['print_job.result'];
  it('needs a reason for a failure and takes none for a print', () => {
    expect(schema.safeParse({ print_job: 'pjob_1', status: 'failed' }).success).toBe(false);
    expect(
      schema.safeParse({ print_job: 'pjob_1', status: 'printed', failure_reason: 'offline' }).success,
    ).toBe(false);
    expect(
      schema.safeParse({ print_job: 'pjob_1', status: 'failed', failure_reason: 'cover_open' }).success,
    ).toBe(true);
  });
});
