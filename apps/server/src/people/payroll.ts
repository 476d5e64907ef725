/**
 * The merchant's statutory rate sets and a payslip's preview, both by core's rules
 * (`packages/core/src/people/`): the server keeps the sets and finds the month's headcount.
 */
import {
  computePayslip,
  DEFAULT_STATUTORY_SETTINGS,
  eastAfricaDate,
  ratesInForce,
  withRates,
  type Jurisdiction,
  type Month,
  type StatutoryRates,
  type StatutorySettings,
} from '@tz/core';
import type { Queryable } from '../db/database.ts';
import type { Clock } from '../infra/clock.ts';
import { findOwned } from '../infra/owned.ts';
import { invalid } from '../retail/shared.ts';
import type { Tenant } from '../actor.ts';
import type { EmployeeRow } from '../tills/employees.ts';
import { payslipObject } from './payslip-object.ts';

export const statutorySettingsObject = (tenant: Tenant, settings: StatutorySettings) => ({
  object: 'statutory_settings' as const,
  ...settings,
  livemode: tenant.livemode,
});

/** The first and last day of a `YYYY-MM` month. */
function monthDays(month: Month): { first: string; last: string } {
  const [year, index] = month.split('-').map(Number) as [number, number];
  const days = new Date(Date.UTC(year, index, 0)).getUTCDate();
  return { first: `${month}-01`, last: `${month}-${String(days).padStart(2, '0')}` };
}

export class PayrollService {
  constructor(private readonly clock: Clock) {}

  /** The merchant's rate sets: core's defaults until the first change. */
  async settings(db: Queryable, tenant: Tenant, lock = false): Promise<StatutorySettings> {
    const found = await db.query<{ settings: StatutorySettings }>(
      `SELECT settings FROM statutory_settings WHERE merchant_id = $1 AND livemode = $2${lock ? ' FOR UPDATE' : ''}`,
      [tenant.merchantId, tenant.livemode],
    );
    return found.rows[0]?.settings ?? DEFAULT_STATUTORY_SETTINGS;
  }

  /** Puts `rates` in by its effective month; months before it keep their sets. */
  async putRates(db: Queryable, tenant: Tenant, jurisdiction: Jurisdiction, rates: StatutoryRates) {
    // The row made first, so two changes at once take turns on its lock rather than both reading the defaults.
    await db.query(
      `INSERT INTO statutory_settings (merchant_id, livemode, settings) VALUES ($1, $2, $3)
       ON CONFLICT (merchant_id, livemode) DO NOTHING`,
      [tenant.merchantId, tenant.livemode, JSON.stringify(DEFAULT_STATUTORY_SETTINGS)],
    );
    const current = await this.settings(db, tenant, true);
    const settings = { ...current, [jurisdiction]: withRates(current[jurisdiction], rates) };
    await db.query(
      `UPDATE statutory_settings SET settings = $3, updated_at = now() WHERE merchant_id = $1 AND livemode = $2`,
      [tenant.merchantId, tenant.livemode, JSON.stringify(settings)],
    );
    return statutorySettingsObject(tenant, settings);
  }

  /**
   * The employer's headcount in `month`: everyone employed on any day of it (active or
   * suspended; a termination counts up to its end date). An employee with no start date counts
   * from the day they were created.
   */
  async headcount(db: Queryable, tenant: Tenant, month: Month): Promise<number> {
    const { first, last } = monthDays(month);
    const found = await db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM employees WHERE merchant_id = $1 AND livemode = $2
         AND COALESCE(start_date, (created_at AT TIME ZONE 'Africa/Dar_es_Salaam')::date) <= $4::date
         AND (end_date IS NULL OR end_date >= $3::date)`,
      [tenant.merchantId, tenant.livemode, first, last],
    );
    return found.rows[0]!.count;
  }

  /** An employee's payslip for `period` under the rates in force then, computed, never stored. */
  /** `period` defaults to this month in Dar es Salaam. */
  async previewPayslip(db: Queryable, tenant: Tenant, id: string, period?: Month) {
    const employee = await findOwned<EmployeeRow>(db, 'employees', 'employee', tenant, id);
    period ??= eastAfricaDate(this.clock.now()).slice(0, 7);
    if (employee.basic_salary === null)
      throw invalid(
        'parameter_invalid',
        'basic_salary',
        'the employee has no basic salary to pay: set one first',
      );
    const { first, last } = monthDays(period);
    if (
      (employee.start_date && employee.start_date > last) ||
      (employee.end_date && employee.end_date < first)
    )
      throw invalid('parameter_invalid', 'period', `the employee was not employed in ${period}`);
    const rates = ratesInForce(await this.settings(db, tenant), employee.jurisdiction, period);
    const headcount = await this.headcount(db, tenant, period);
    const slip = computePayslip(
      {
        basic_salary: employee.basic_salary,
        residency: employee.residency,
        jurisdiction: employee.jurisdiction,
        heslb_loan: employee.heslb_loan,
      },
      rates,
      headcount,
    );
    return payslipObject(employee, period, rates, headcount, slip);
  }
}
