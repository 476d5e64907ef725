/**
 * Salary bands: the merchant's set kept whole (core's `salaryBandsSchema` checks it), and the
 * check of every employee still employed against it (core's `checkSalaryBands`).
 */
import { checkSalaryBands, type SalaryBand } from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';

const bandsObject = (tenant: Tenant, bands: readonly SalaryBand[]) => ({
  object: 'salary_bands' as const,
  data: bands,
  livemode: tenant.livemode,
});

export class SalaryBandService {
  async bands(db: Queryable, tenant: Tenant): Promise<SalaryBand[]> {
    const found = await db.query<{ bands: SalaryBand[] }>(
      `SELECT bands FROM salary_bands WHERE merchant_id = $1 AND livemode = $2`,
      [tenant.merchantId, tenant.livemode],
    );
    return found.rows[0]?.bands ?? [];
  }

  async retrieve(db: Queryable, tenant: Tenant) {
    return bandsObject(tenant, await this.bands(db, tenant));
  }

  /** The whole set replaced at once: a grade left out has no band any more. */
  async replace(db: Queryable, tenant: Tenant, bands: readonly SalaryBand[]) {
    await db.query(
      `INSERT INTO salary_bands (merchant_id, livemode, bands) VALUES ($1, $2, $3)
       ON CONFLICT (merchant_id, livemode) DO UPDATE SET bands = EXCLUDED.bands, updated_at = now()`,
      [tenant.merchantId, tenant.livemode, JSON.stringify(bands)],
    );
    return bandsObject(tenant, bands);
  }

  /** Every employee not terminated who is paid outside their grade's band, or cannot be checked. */
  async check(db: Queryable, tenant: Tenant) {
    const [bands, employees] = await Promise.all([
      this.bands(db, tenant),
      db.query<{ id: string; name: string; grade: string | null; basic_salary: string | null }>(
        `SELECT id, name, grade, basic_salary FROM employees
          WHERE merchant_id = $1 AND livemode = $2 AND status <> 'terminated' ORDER BY seq`,
        [tenant.merchantId, tenant.livemode],
      ),
    ]);
    const names = new Map(employees.rows.map((row) => [row.id, row.name]));
    const findings = checkSalaryBands(
      bands,
      employees.rows.map((row) => ({
        id: row.id,
        grade: row.grade,
        basic_salary: row.basic_salary === null ? null : Number(row.basic_salary),
      })),
    );
    return {
      object: 'salary_band_check' as const,
      data: findings.map((finding) => ({ ...finding, name: names.get(finding.employee)! })),
      livemode: tenant.livemode,
    };
  }
}
