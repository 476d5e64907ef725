/**
 * One employee's pay for one month under the rates in force that month: gross, each deduction
 * and each employer contribution, and net, in whole shillings.
 *
 * The rounding rule: every line is rounded once, half up to the shilling, from exact integer
 * arithmetic on its own base (PAYE once over all its bands, never band by band), and net is gross
 * minus the printed deductions, so the slip adds up to the shilling by construction. Taxable pay
 * is gross minus the employee's pension contribution, as PAYE is charged on the mainland and
 * Zanzibar.
 */
import { basisPointsOf } from '../money.ts';
import type { Jurisdiction, PayeBand, StatutoryRates } from './statutory.ts';

export type Residency = 'resident' | 'non_resident';

/** What a payslip needs of an employee. */
export interface PayslipEmployee {
  basic_salary: number;
  /** Taxable allowances paid this month, each in whole shillings. */
  allowances?: ReadonlyArray<{ name: string; amount: number }>;
  residency: Residency;
  jurisdiction: Jurisdiction;
  heslb_loan: boolean;
}

export type DeductionCode = 'pension' | 'paye' | 'heslb';
export type ContributionCode = 'pension_employer' | 'wcf' | 'sdl';

export interface PayslipLine<C extends string> {
  code: C;
  /** The base the rate applies to, in shillings. */
  base: number;
  amount: number;
}

export interface Payslip {
  basic_salary: number;
  allowances: number;
  gross: number;
  taxable: number;
  deductions: PayslipLine<DeductionCode>[];
  /** The employer's own costs on top of gross: not deducted from the employee. */
  employer_contributions: PayslipLine<ContributionCode>[];
  total_deductions: number;
  net: number;
  /** The pension fund the contributions go to. */
  pension_fund: StatutoryRates['pension_fund'];
}

/** Residents' PAYE on a month's taxable pay: each band's share at its rate, rounded once. */
export function residentPaye(bands: readonly PayeBand[], taxable: number): number {
  let scaled = 0;
  bands.forEach((band, index) => {
    const upTo = bands[index + 1]?.from ?? Infinity;
    const inBand = Math.min(taxable, upTo) - band.from;
    if (inBand > 0) scaled += inBand * band.rate_bps;
  });
  return Math.floor((scaled + 5_000) / 10_000);
}

/**
 * The month's payslip. `employees` is the employer's headcount that month, which decides
 * whether the Skills and Development Levy is owed.
 */
export function computePayslip(employee: PayslipEmployee, rates: StatutoryRates, employees: number): Payslip {
  const allowances = (employee.allowances ?? []).reduce((sum, allowance) => sum + allowance.amount, 0);
  const gross = employee.basic_salary + allowances;
  const pension = basisPointsOf(gross, rates.pension_employee_bps);
  const taxable = gross - pension;
  const paye =
    employee.residency === 'resident'
      ? residentPaye(rates.paye_bands, taxable)
      : basisPointsOf(taxable, rates.paye_non_resident_bps);
  const heslbBase = rates.heslb_base === 'basic' ? employee.basic_salary : gross;
  const deductions: PayslipLine<DeductionCode>[] = [
    { code: 'pension', base: gross, amount: pension },
    { code: 'paye', base: taxable, amount: paye },
  ];
  if (employee.heslb_loan)
    deductions.push({ code: 'heslb', base: heslbBase, amount: basisPointsOf(heslbBase, rates.heslb_bps) });
  const employer: PayslipLine<ContributionCode>[] = [
    { code: 'pension_employer', base: gross, amount: basisPointsOf(gross, rates.pension_employer_bps) },
  ];
  if (rates.wcf_employer_bps > 0)
    employer.push({ code: 'wcf', base: gross, amount: basisPointsOf(gross, rates.wcf_employer_bps) });
  if (rates.sdl_bps > 0 && employees >= rates.sdl_min_employees)
    employer.push({ code: 'sdl', base: gross, amount: basisPointsOf(gross, rates.sdl_bps) });
  const totalDeductions = deductions.reduce((sum, line) => sum + line.amount, 0);
  return {
    basic_salary: employee.basic_salary,
    allowances,
    gross,
    taxable,
    deductions,
    employer_contributions: employer,
    total_deductions: totalDeductions,
    net: gross - totalDeductions,
    pension_fund: rates.pension_fund,
  };
}

/** A payslip line's name as printed, in English (the PDF slip translates by `code`). */
export function payslipLineLabel(
  code: DeductionCode | ContributionCode,
  fund: StatutoryRates['pension_fund'],
): string {
  switch (code) {
    case 'pension':
      return `${fund} (employee)`;
    case 'paye':
      return 'PAYE';
    case 'heslb':
      return 'HESLB loan repayment';
    case 'pension_employer':
      return `${fund} (employer)`;
    case 'wcf':
      return 'Workers Compensation Fund (WCF)';
    case 'sdl':
      return 'Skills and Development Levy (SDL)';
  }
}
