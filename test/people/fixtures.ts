import { EMPLOYEE_RECORD_DEFAULTS } from '@tz/core';

/** Every record field, none of which a till or a publishable key may see. */
export const RECORD_FIELDS = Object.keys(EMPLOYEE_RECORD_DEFAULTS);

/** A full record as an owner types it (hyphens, a local phone), with `overrides`. */
export const fullRecord = (overrides: Record<string, unknown> = {}) => ({
  phone: '0754 123 456',
  email: 'neema@example.co.tz',
  date_of_birth: '1994-03-12',
  national_id: '19940312-14123-00001-25',
  job_title: 'Senior cashier',
  grade: 'G3',
  employment_type: 'fixed_term',
  start_date: '2025-01-06',
  end_date: '2026-12-31',
  basic_salary: 1_000_000,
  pay_destination: { type: 'bank', bank_name: 'CRDB', account_number: '0150123456700' },
  pension_number: 'NSSF-778812',
  tin: '123-456-789',
  residency: 'resident',
  heslb_loan: true,
  heslb_index_number: 'S0123/0045/2013',
  jurisdiction: 'mainland',
  ...overrides,
});
