import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { assertTransition, canTransition } from '../state-machine.ts';
import {
  checkEmployeeRecord,
  EMPLOYEE_RECORD_DEFAULTS,
  EMPLOYEE_STATES,
  EMPLOYEE_STATUSES,
  employeeRecordFields,
} from './employee.ts';

describe('employee states', () => {
  it('allows exactly suspend, terminate and reinstate', () => {
    const moves = EMPLOYEE_STATUSES.flatMap((from) =>
      EMPLOYEE_STATUSES.filter((to) => canTransition(EMPLOYEE_STATES, from, to)).map(
        (to) => `${from}->${to}`,
      ),
    );
    expect(moves).toEqual([
      'active->suspended',
      'active->terminated',
      'suspended->active',
      'suspended->terminated',
    ]);
  });

  it('refuses any move out of terminated with state_transition_invalid', () => {
    for (const to of ['active', 'suspended'] as const) {
      try {
        assertTransition(EMPLOYEE_STATES, 'terminated', to);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe('state_transition_invalid');
      }
    }
  });
});

describe('employee record', () => {
  it('keeps NIDA numbers and TINs as digits, refusing other lengths', () => {
    expect(employeeRecordFields.national_id.parse('19940312-14123-00001-25')).toBe('19940312141230000125');
    expect(employeeRecordFields.tin.parse('123-456-789')).toBe('123456789');
    expect(employeeRecordFields.tin.safeParse('1234567890').success).toBe(false);
    expect(employeeRecordFields.national_id.safeParse('1994031214123').success).toBe(false);
  });

  it('refuses an end before the start, a birth after it, and a HESLB loan without its index number', () => {
    const record = { ...EMPLOYEE_RECORD_DEFAULTS, start_date: '2025-01-06' };
    expect(() => checkEmployeeRecord(record)).not.toThrow();
    expect(() => checkEmployeeRecord({ ...record, end_date: '2025-01-05' })).toThrow(/before start_date/);
    expect(() => checkEmployeeRecord({ ...record, end_date: '2025-01-06' })).not.toThrow();
    expect(() => checkEmployeeRecord({ ...record, date_of_birth: '2025-02-01' })).toThrow(
      /before start_date/,
    );
    expect(() => checkEmployeeRecord({ ...record, heslb_loan: true })).toThrow(/heslb_index_number|HESLB/);
  });
});
