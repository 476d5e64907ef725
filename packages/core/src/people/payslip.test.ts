import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { computePayslip, residentPaye, type PayslipEmployee } from './payslip.ts';
import {
  DEFAULT_STATUTORY_SETTINGS,
  ratesInForce,
  statutoryRatesSchema,
  withRates,
  type StatutoryRates,
} from './statutory.ts';

const mainland = ratesInForce(DEFAULT_STATUTORY_SETTINGS, 'mainland', '2026-11');
const zanzibar = ratesInForce(DEFAULT_STATUTORY_SETTINGS, 'zanzibar', '2026-11');

describe("residents' PAYE", () => {
  // Worked by hand from the bands: 0 to 270,000; 8 % over 270,000; 20,000 + 20 % over 520,000;
  // 68,000 + 25 % over 760,000; 128,000 + 30 % over 1,000,000; rounded half up once.
  it.each([
    [0, 0],
    [100_000, 0],
    [270_000, 0],
    [270_001, 0], // 0.08
    [270_006, 0], // 0.48
    [270_007, 1], // 0.56
    [300_000, 2_400],
    [519_999, 20_000], // 19,999.92
    [520_000, 20_000],
    [520_001, 20_000], // 20,000.2
    [520_003, 20_001], // 20,000.6
    [600_000, 36_000],
    [759_999, 68_000], // 67,999.8
    [760_000, 68_000],
    [760_002, 68_001], // 68,000.5, half up
    [900_000, 103_000],
    [999_999, 128_000], // 127,999.75
    [1_000_000, 128_000],
    [1_000_001, 128_000], // 128,000.3
    [1_000_002, 128_001], // 128,000.6
    [1_500_000, 278_000],
    [10_000_000, 2_828_000],
  ])('on %i a month is %i', (taxable, paye) => {
    expect(residentPaye(mainland.paye_bands, taxable)).toBe(paye);
  });

  it('is the same table on Zanzibar', () => {
    for (const taxable of [270_000, 520_003, 760_002, 1_500_000])
      expect(residentPaye(zanzibar.paye_bands, taxable)).toBe(residentPaye(mainland.paye_bands, taxable));
  });
});

describe('a payslip', () => {
  it('on the mainland: NSSF before PAYE, HESLB on basic, WCF and SDL on the employer', () => {
    const slip = computePayslip(
      { basic_salary: 1_000_000, residency: 'resident', jurisdiction: 'mainland', heslb_loan: true },
      mainland,
      12,
    );
    expect(slip).toMatchObject({
      gross: 1_000_000,
      taxable: 900_000,
      total_deductions: 353_000,
      net: 647_000,
    });
    expect(slip.deductions).toEqual([
      { code: 'pension', base: 1_000_000, amount: 100_000 },
      { code: 'paye', base: 900_000, amount: 103_000 },
      { code: 'heslb', base: 1_000_000, amount: 150_000 },
    ]);
    expect(slip.employer_contributions).toEqual([
      { code: 'pension_employer', base: 1_000_000, amount: 100_000 },
      { code: 'wcf', base: 1_000_000, amount: 5_000 },
      { code: 'sdl', base: 1_000_000, amount: 35_000 },
    ]);
    expect(slip.pension_fund).toBe('NSSF');
  });

  it('on Zanzibar: ZSSF 7 % and 13 %, no WCF, and no SDL under 5 employees', () => {
    const employee: PayslipEmployee = {
      basic_salary: 700_000,
      allowances: [{ name: 'Transport', amount: 100_000 }],
      residency: 'resident',
      jurisdiction: 'zanzibar',
      heslb_loan: false,
    };
    const slip = computePayslip(employee, zanzibar, 4);
    expect(slip).toMatchObject({ allowances: 100_000, gross: 800_000, taxable: 744_000, net: 679_200 });
    expect(slip.deductions.map((line) => [line.code, line.amount])).toEqual([
      ['pension', 56_000],
      ['paye', 64_800],
    ]);
    expect(slip.employer_contributions).toEqual([
      { code: 'pension_employer', base: 800_000, amount: 104_000 },
    ]);
    expect(slip.pension_fund).toBe('ZSSF');
    // The fifth employee brings the levy in, at 4 %.
    expect(computePayslip(employee, zanzibar, 5).employer_contributions.at(-1)).toEqual({
      code: 'sdl',
      base: 800_000,
      amount: 32_000,
    });
  });

  it("a non-resident's PAYE is 15 % flat of taxable pay", () => {
    const slip = computePayslip(
      { basic_salary: 2_000_000, residency: 'non_resident', jurisdiction: 'mainland', heslb_loan: false },
      mainland,
      3,
    );
    expect(slip.deductions.find((line) => line.code === 'paye')!.amount).toBe(270_000);
    expect(slip.net).toBe(1_530_000);
    expect(slip.employer_contributions.map((line) => line.code)).toEqual(['pension_employer', 'wcf']);
  });

  it('always adds up: net is gross minus the printed deductions, every line a whole shilling', () => {
    const employee = fc.record({
      basic_salary: fc.integer({ min: 0, max: 50_000_000 }),
      allowances: fc.array(
        fc.record({ name: fc.constant('Allowance'), amount: fc.integer({ min: 0, max: 2_000_000 }) }),
        { maxLength: 3 },
      ),
      residency: fc.constantFrom('resident' as const, 'non_resident' as const),
      jurisdiction: fc.constantFrom('mainland' as const, 'zanzibar' as const),
      heslb_loan: fc.boolean(),
    });
    fc.assert(
      fc.property(employee, fc.integer({ min: 1, max: 500 }), (person, employees) => {
        const rates = person.jurisdiction === 'mainland' ? mainland : zanzibar;
        const slip = computePayslip(person, rates, employees);
        const printed = slip.deductions.reduce((sum, line) => sum + line.amount, 0);
        expect(slip.net).toBe(slip.gross - printed);
        expect(slip.total_deductions).toBe(printed);
        for (const line of [...slip.deductions, ...slip.employer_contributions]) {
          expect(Number.isInteger(line.amount)).toBe(true);
          expect(line.amount).toBeGreaterThanOrEqual(0);
        }
        // PAYE never takes more than the top rate of taxable pay.
        expect(slip.deductions.find((line) => line.code === 'paye')!.amount).toBeLessThanOrEqual(
          Math.ceil(slip.taxable * 0.3),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('never lowers PAYE as taxable pay rises', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20_000_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        (pay, more) => {
          expect(residentPaye(mainland.paye_bands, pay + more)).toBeGreaterThanOrEqual(
            residentPaye(mainland.paye_bands, pay),
          );
        },
      ),
    );
  });
});

describe('statutory rates by month', () => {
  const raised: StatutoryRates = { ...mainland, effective_month: '2026-07', sdl_bps: 400 };
  const settings = {
    ...DEFAULT_STATUTORY_SETTINGS,
    mainland: withRates(DEFAULT_STATUTORY_SETTINGS.mainland, raised),
  };

  it('reads the set in force in the month, so a past month recomputes as it was', () => {
    expect(ratesInForce(settings, 'mainland', '2026-06').sdl_bps).toBe(350);
    expect(ratesInForce(settings, 'mainland', '2026-07').sdl_bps).toBe(400);
    expect(ratesInForce(settings, 'mainland', '2027-01').sdl_bps).toBe(400);
    const employee: PayslipEmployee = {
      basic_salary: 1_000_000,
      residency: 'resident',
      jurisdiction: 'mainland',
      heslb_loan: false,
    };
    expect(computePayslip(employee, ratesInForce(settings, 'mainland', '2026-06'), 12)).toEqual(
      computePayslip(employee, mainland, 12),
    );
  });

  it('replaces the set of the same month, keeping the months before', () => {
    const again = withRates(settings.mainland, { ...raised, sdl_bps: 300 });
    expect(again.map((set) => [set.effective_month, set.sdl_bps])).toEqual([
      ['2023-07', 350],
      ['2026-07', 300],
    ]);
  });

  it('refuses a month before any set took effect, saying the earliest', () => {
    expect(() => ratesInForce(settings, 'zanzibar', '2020-01')).toThrow(AppError);
    expect(() => ratesInForce(settings, 'zanzibar', '2020-01')).toThrow('the earliest is 2023-07');
  });

  it('refuses bands that do not start at 0 or do not rise', () => {
    const refused = (bands: Array<{ from: number; rate_bps: number }>) =>
      statutoryRatesSchema.safeParse({ ...mainland, paye_bands: bands }).error?.issues.map((i) => i.message);
    expect(refused([{ from: 1, rate_bps: 0 }])).toEqual(['the first band starts at 0']);
    expect(
      refused([
        { from: 0, rate_bps: 0 },
        { from: 500_000, rate_bps: 800 },
        { from: 500_000, rate_bps: 2_000 },
      ]),
    ).toEqual(['each band starts above the one before']);
    expect(statutoryRatesSchema.safeParse(mainland).success).toBe(true);
    expect(statutoryRatesSchema.safeParse({ ...mainland, effective_month: '2026-13' }).success).toBe(false);
  });
});
