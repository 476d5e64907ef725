import { z } from 'zod';
import { JURISDICTIONS, RESIDENCIES } from '@tz/core';
import { livemode } from './schemas.ts';

const line = <C extends readonly [string, ...string[]]>(codes: C) =>
  z.object({
    code: z.enum(codes),
    label: z.string().describe('The line’s printed name'),
    base: z.number().int().describe('The shillings the rate applies to'),
    amount: z.number().int().describe('Whole shillings, rounded once, half up'),
  });

export const payslipSchema = z.object({
  object: z.literal('payslip_preview'),
  employee: z.string().describe('Begins with emp_'),
  period: z.string().describe('YYYY-MM'),
  currency: z.literal('TZS'),
  jurisdiction: z.enum(JURISDICTIONS),
  residency: z.enum(RESIDENCIES),
  rates_effective_month: z.string().describe('The effective month of the rate set used'),
  headcount: z.number().int().describe('Employees employed that month: decides whether SDL is owed'),
  basic_salary: z.number().int(),
  allowances: z.number().int(),
  gross: z.number().int(),
  taxable: z.number().int().describe('Gross less the employee’s pension contribution'),
  deductions: z.array(line(['pension', 'paye', 'heslb'])),
  total_deductions: z.number().int(),
  employer_contributions: z
    .array(line(['pension_employer', 'wcf', 'sdl']))
    .describe('The employer’s costs on top of gross, not deducted'),
  net: z.number().int().describe('gross − total_deductions, exactly'),
  pension_fund: z.enum(['NSSF', 'ZSSF']),
  livemode,
});
