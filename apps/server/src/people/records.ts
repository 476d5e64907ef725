/**
 * The employee's record columns (core's `EmployeeRecord`): what a create or change makes of
 * them, checked by core's rules, and how they are written. Only the API's secret-key routes
 * read them; the till's copy (`till_employees`) never has them.
 */
import {
  assertTransition,
  checkEmployeeRecord,
  eastAfricaDate,
  EMPLOYEE_RECORD_DEFAULTS,
  EMPLOYEE_STATES,
  type EmployeeRecord,
  type EmployeeRecordInput,
  type EmployeeStatus,
} from '@tz/core';
import { invalid } from '../retail/shared.ts';

export const RECORD_COLUMNS = Object.keys(EMPLOYEE_RECORD_DEFAULTS) as Array<keyof EmployeeRecord>;

/** The record as stored on an employee's row. */
export const recordOf = (row: EmployeeRecord): EmployeeRecord =>
  Object.fromEntries(RECORD_COLUMNS.map((column) => [column, row[column]])) as unknown as EmployeeRecord;

/** `base` with the fields `input` gives (`null` clears one), checked as a whole. */
export function mergeRecord(base: EmployeeRecord, input: EmployeeRecordInput): EmployeeRecord {
  const merged = { ...base };
  for (const column of RECORD_COLUMNS) {
    const value = input[column];
    if (value !== undefined) Object.assign(merged, { [column]: value });
  }
  checkEmployeeRecord(merged);
  return merged;
}

/** The record's values in `RECORD_COLUMNS` order, as query parameters. */
export const recordValues = (record: EmployeeRecord): unknown[] =>
  RECORD_COLUMNS.map((column) =>
    column === 'pay_destination' && record.pay_destination
      ? JSON.stringify(record.pay_destination)
      : record[column],
  );

/**
 * A change of status through core's gate, and what follows from it: only an active employee
 * signs in at a till, reinstatement lets them again, and a termination that gives no end date
 * ends the employment today in the shop's zone (or on the end already recorded, if earlier).
 */
export function nextEmployment(
  current: { status: EmployeeStatus; active: boolean },
  change: {
    status?: EmployeeStatus | undefined;
    active?: boolean | undefined;
    end_date?: string | null | undefined;
  },
  record: EmployeeRecord,
  now: Date,
): { status: EmployeeStatus; active: boolean; record: EmployeeRecord } {
  const status = change.status ?? current.status;
  if (status !== current.status) assertTransition(EMPLOYEE_STATES, current.status, status);
  if (status !== 'active' && change.active === true)
    throw invalid(
      'parameter_invalid',
      'active',
      `a ${status} employee cannot sign in: make them active first`,
    );
  const active =
    status !== 'active' ? false : (change.active ?? (current.status !== 'active' || current.active));
  if (status === 'terminated' && current.status !== 'terminated' && !change.end_date) {
    const today = eastAfricaDate(now);
    const latest = record.end_date && record.end_date < today ? record.end_date : today;
    const ended = {
      ...record,
      end_date: record.start_date && record.start_date > latest ? record.start_date : latest,
    };
    return { status, active, record: ended };
  }
  return { status, active, record };
}
