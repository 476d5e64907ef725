/**
 * An employee's record beyond what a till needs: personal details, the job, pay and the
 * statutory numbers payroll files under, and the employment's state. Every field here is
 * personal or pay data: the API shows it to secret keys only and no till ever holds it.
 */
import { z } from 'zod';
import { invalidField } from '../errors.ts';
import { calendarDateSchema } from '../hospitality/commands.ts';
import { tanzanianMobileSchema } from '../phone.ts';
import { stateMachine, type TransitionTable } from '../state-machine.ts';
import { JURISDICTIONS } from './statutory.ts';

export const EMPLOYEE_STATUSES = ['active', 'suspended', 'terminated'] as const;
export type EmployeeStatus = (typeof EMPLOYEE_STATUSES)[number];

/** A suspension ends in reinstatement or termination; a termination is final (a rehire is a new employee). */
export const EMPLOYEE_TRANSITIONS: TransitionTable<EmployeeStatus> = {
  active: ['suspended', 'terminated'],
  suspended: ['active', 'terminated'],
  terminated: [],
};
export const EMPLOYEE_STATES = stateMachine('employee', EMPLOYEE_TRANSITIONS);

export const EMPLOYMENT_TYPES = ['permanent', 'fixed_term', 'casual'] as const;
export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];
export const RESIDENCIES = ['resident', 'non_resident'] as const;

const text = (max: number) => z.string().trim().min(1, { error: 'must not be empty' }).max(max);

/** Where the net pay goes: a bank account, or a mobile money wallet. */
export const payDestinationSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('bank'), bank_name: text(100), account_number: text(40) }),
  z.strictObject({
    type: z.literal('mobile_money'),
    phone: tanzanianMobileSchema.describe('Normalised to 255XXXXXXXXX'),
  }),
]);
export type PayDestination = z.output<typeof payDestinationSchema>;

/** Digits only, after taking out the hyphens people write them with. */
const digits = (count: number, what: string) =>
  z
    .string()
    .transform((value) => value.replace(/[\s-]/g, ''))
    .refine((value) => new RegExp(`^\\d{${count}}$`).test(value), {
      error: `must be ${what}: ${count} digits`,
    });

/**
 * The record's fields as a create or a change gives them: each may be left out, and each
 * nullable one cleared with `null`. Cross-field rules are `checkEmployeeRecord`'s.
 */
export const employeeRecordFields = {
  phone: tanzanianMobileSchema.nullable().describe('Normalised to 255XXXXXXXXX'),
  email: z.email({ error: 'must be an email address' }).max(254).nullable(),
  date_of_birth: calendarDateSchema.nullable(),
  national_id: digits(20, 'a NIDA number').nullable().describe('NIDA number, 20 digits (hyphens dropped)'),
  job_title: text(100).nullable(),
  grade: text(40).nullable().describe('The salary band the employee is paid in'),
  employment_type: z.enum(EMPLOYMENT_TYPES),
  start_date: calendarDateSchema.nullable(),
  end_date: calendarDateSchema
    .nullable()
    .describe('The last day employed: a fixed term’s end, or a termination'),
  basic_salary: z
    .number()
    .int({ error: 'must be whole shillings' })
    .min(0)
    .max(999_999_999_999)
    .nullable()
    .describe('Monthly, in whole TZS'),
  pay_destination: payDestinationSchema.nullable(),
  pension_number: text(40).nullable().describe('NSSF number on the mainland, ZSSF number on Zanzibar'),
  tin: digits(9, 'a TIN').nullable().describe('Taxpayer Identification Number, 9 digits (hyphens dropped)'),
  residency: z.enum(RESIDENCIES).describe('For PAYE: non-residents pay a flat rate'),
  heslb_loan: z.boolean().describe('Repays a HESLB student loan from pay'),
  heslb_index_number: text(40).nullable(),
  jurisdiction: z.enum(JURISDICTIONS).describe('Where the employee works: which statutory rates apply'),
};
export type EmployeeRecordInput = {
  [K in keyof typeof employeeRecordFields]?: z.output<(typeof employeeRecordFields)[K]> | undefined;
};

/** A record as stored: every field present, nullable ones possibly null. */
export interface EmployeeRecord {
  phone: string | null;
  email: string | null;
  date_of_birth: string | null;
  national_id: string | null;
  job_title: string | null;
  grade: string | null;
  employment_type: EmploymentType;
  start_date: string | null;
  end_date: string | null;
  basic_salary: number | null;
  pay_destination: PayDestination | null;
  pension_number: string | null;
  tin: string | null;
  residency: (typeof RESIDENCIES)[number];
  heslb_loan: boolean;
  heslb_index_number: string | null;
  jurisdiction: (typeof JURISDICTIONS)[number];
}

/** What a new employee's record holds when a field is not given. */
export const EMPLOYEE_RECORD_DEFAULTS: EmployeeRecord = {
  phone: null,
  email: null,
  date_of_birth: null,
  national_id: null,
  job_title: null,
  grade: null,
  employment_type: 'permanent',
  start_date: null,
  end_date: null,
  basic_salary: null,
  pay_destination: null,
  pension_number: null,
  tin: null,
  residency: 'resident',
  heslb_loan: false,
  heslb_index_number: null,
  jurisdiction: 'mainland',
};

/** The rules across fields, on the record as it would be after a create or change. */
export function checkEmployeeRecord(record: EmployeeRecord): void {
  if (record.start_date && record.end_date && record.end_date < record.start_date)
    throw invalidField('parameter_invalid', 'end_date', 'must not be before start_date');
  if (record.date_of_birth && record.start_date && record.date_of_birth >= record.start_date)
    throw invalidField('parameter_invalid', 'date_of_birth', 'must be before start_date');
  if (record.heslb_loan && !record.heslb_index_number)
    throw invalidField('parameter_invalid', 'heslb_index_number', 'is required for a HESLB loan holder');
}
