import { payslipLineLabel, type Month, type Payslip, type PayslipLine, type StatutoryRates } from '@tz/core';
import type { EmployeeRow } from '../tills/employees.ts';

/** The API's payslip: core's slip with each line's printed name. */
export function payslipObject(
  employee: EmployeeRow,
  period: Month,
  rates: StatutoryRates,
  headcount: number,
  slip: Payslip,
) {
  const labelled = <C extends Parameters<typeof payslipLineLabel>[0]>(line: PayslipLine<C>) => ({
    ...line,
    label: payslipLineLabel(line.code, slip.pension_fund),
  });
  return {
    object: 'payslip_preview' as const,
    employee: employee.id,
    period,
    currency: 'TZS' as const,
    jurisdiction: employee.jurisdiction,
    residency: employee.residency,
    rates_effective_month: rates.effective_month,
    headcount,
    basic_salary: slip.basic_salary,
    allowances: slip.allowances,
    gross: slip.gross,
    taxable: slip.taxable,
    deductions: slip.deductions.map(labelled),
    total_deductions: slip.total_deductions,
    employer_contributions: slip.employer_contributions.map(labelled),
    net: slip.net,
    pension_fund: slip.pension_fund,
    livemode: employee.livemode,
  };
}
