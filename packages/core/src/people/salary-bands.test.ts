import { describe, expect, it } from 'vitest';
import { checkSalaryBands, salaryBandsSchema } from './salary-bands.ts';

const bands = salaryBandsSchema.parse([
  { grade: 'G1', minimum: 300_000, maximum: 500_000 },
  { grade: 'G2', minimum: 500_000, maximum: 900_000 },
]);

describe('salary bands', () => {
  it('lists those paid outside their band by how much, and those that cannot be checked', () => {
    expect(
      checkSalaryBands(bands, [
        { id: 'emp_in', grade: 'G1', basic_salary: 300_000 },
        { id: 'emp_top', grade: 'G1', basic_salary: 500_000 },
        { id: 'emp_low', grade: 'G2', basic_salary: 450_000 },
        { id: 'emp_high', grade: 'G1', basic_salary: 520_000 },
        { id: 'emp_none', grade: null, basic_salary: 400_000 },
        { id: 'emp_g9', grade: 'G9', basic_salary: 400_000 },
        { id: 'emp_unpaid', grade: 'G2', basic_salary: null },
      ]),
    ).toEqual([
      { employee: 'emp_low', problem: 'below_band', grade: 'G2', basic_salary: 450_000, by: 50_000 },
      { employee: 'emp_high', problem: 'above_band', grade: 'G1', basic_salary: 520_000, by: 20_000 },
      { employee: 'emp_none', problem: 'no_grade', grade: null },
      { employee: 'emp_g9', problem: 'no_band_for_grade', grade: 'G9' },
      { employee: 'emp_unpaid', problem: 'no_salary', grade: 'G2' },
    ]);
  });

  it('refuses a band upside down and a grade given twice', () => {
    const messages = (input: unknown) =>
      salaryBandsSchema.safeParse(input).error?.issues.map((i) => i.message);
    expect(messages([{ grade: 'G1', minimum: 500_000, maximum: 400_000 }])).toEqual([
      'maximum must be at least minimum',
    ]);
    expect(
      messages([
        { grade: 'G1', minimum: 1, maximum: 2 },
        { grade: 'G1', minimum: 3, maximum: 4 },
      ]),
    ).toEqual(['grade G1 is given twice']);
    expect(messages([{ grade: 'G1', minimum: 1.5, maximum: 2 }])).toHaveLength(1);
  });
});
