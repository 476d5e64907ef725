/**
 * Salary bands: per grade a minimum and a maximum basic salary, the whole set replaced at once.
 * The check lists every employee paid outside their grade's band (and by how much) and those
 * with no grade or a grade with no band.
 */
import { z } from 'zod';

const shillings = z.number().int().min(0).max(999_999_999_999);

export const salaryBandSchema = z
  .object({
    grade: z.string().trim().min(1).max(40),
    minimum: shillings,
    maximum: shillings,
  })
  .strict()
  .refine((band) => band.maximum >= band.minimum, {
    path: ['maximum'],
    message: 'maximum must be at least minimum',
  });
export type SalaryBand = z.infer<typeof salaryBandSchema>;

/** The whole set: each grade once. */
export const salaryBandsSchema = z
  .array(salaryBandSchema)
  .max(200)
  .superRefine((bands, context) => {
    const seen = new Set<string>();
    bands.forEach((band, index) => {
      if (seen.has(band.grade))
        context.addIssue({
          code: 'custom',
          path: [index, 'grade'],
          message: `grade ${band.grade} is given twice`,
        });
      seen.add(band.grade);
    });
  });

export interface BandedEmployee {
  id: string;
  grade: string | null;
  basic_salary: number | null;
}

export type BandFinding =
  | {
      employee: string;
      problem: 'below_band' | 'above_band';
      grade: string;
      basic_salary: number;
      by: number;
    }
  | { employee: string; problem: 'no_grade' | 'no_band_for_grade' | 'no_salary'; grade: string | null };

/** Every employee outside their band (by how many shillings), or who cannot be checked, and why. */
export function checkSalaryBands(
  bands: readonly SalaryBand[],
  employees: readonly BandedEmployee[],
): BandFinding[] {
  const byGrade = new Map(bands.map((band) => [band.grade, band]));
  const findings: BandFinding[] = [];
  for (const employee of employees) {
    if (employee.grade === null) {
      findings.push({ employee: employee.id, problem: 'no_grade', grade: null });
      continue;
    }
    const band = byGrade.get(employee.grade);
    if (!band) findings.push({ employee: employee.id, problem: 'no_band_for_grade', grade: employee.grade });
    else if (employee.basic_salary === null)
      findings.push({ employee: employee.id, problem: 'no_salary', grade: employee.grade });
    else if (employee.basic_salary < band.minimum)
      findings.push({
        employee: employee.id,
        problem: 'below_band',
        grade: employee.grade,
        basic_salary: employee.basic_salary,
        by: band.minimum - employee.basic_salary,
      });
    else if (employee.basic_salary > band.maximum)
      findings.push({
        employee: employee.id,
        problem: 'above_band',
        grade: employee.grade,
        basic_salary: employee.basic_salary,
        by: employee.basic_salary - band.maximum,
      });
  }
  return findings;
}
