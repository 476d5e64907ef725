/**
 * The statutory rates a Tanzanian employer pays and withholds, per jurisdiction, each set with
 * the month it takes effect: a month's payroll reads the set in force that month, so a past month
 * recomputes exactly as it was after the rates change. Rates are basis points of a shilling
 * amount; PAYE is a table of monthly bands.
 *
 * The defaults (docs/PEOPLE.md gives their sources) are a starting point the employer checks
 * against the Tanzania Revenue Authority's and the funds' current notices and changes by
 * `PATCH /v1/statutory/settings`.
 */
import { z } from 'zod';
import { invalidField } from '../errors.ts';

export const JURISDICTIONS = ['mainland', 'zanzibar'] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

/** A calendar month, `YYYY-MM`. */
export const monthSchema = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month as YYYY-MM, such as 2026-07');
export type Month = z.infer<typeof monthSchema>;

const bps = z.number().int().min(0).max(10_000);
const shillings = z.number().int().min(0).max(999_999_999_999);

/** One PAYE band: income above `from` (monthly shillings) taxed at `rate_bps`, up to the next band's `from`. */
export const payeBandSchema = z.object({ from: shillings, rate_bps: bps }).strict();
export type PayeBand = z.infer<typeof payeBandSchema>;

export const statutoryRatesSchema = z
  .object({
    /** The first month these rates apply to. */
    effective_month: monthSchema,
    /** Residents' monthly PAYE bands, the first from 0, each `from` above the last. */
    paye_bands: z.array(payeBandSchema).min(1).max(12),
    /** Non-residents' PAYE: a flat rate of the taxable pay. */
    paye_non_resident_bps: bps,
    /** The social security fund: NSSF on the mainland, ZSSF on Zanzibar. */
    pension_fund: z.enum(['NSSF', 'ZSSF']),
    pension_employee_bps: bps,
    pension_employer_bps: bps,
    /** Workers Compensation Fund, paid by the employer on gross pay. */
    wcf_employer_bps: bps,
    /** Skills and Development Levy on gross pay, owed from `sdl_min_employees` employees. */
    sdl_bps: bps,
    sdl_min_employees: z.number().int().min(0).max(100_000),
    /** HESLB loan repayment for loan holders, of `heslb_base`. */
    heslb_bps: bps,
    heslb_base: z.enum(['basic', 'gross']),
  })
  .strict()
  .superRefine((rates, context) => {
    const [first, ...rest] = rates.paye_bands;
    if (first && first.from !== 0)
      context.addIssue({
        code: 'custom',
        path: ['paye_bands', 0, 'from'],
        message: 'the first band starts at 0',
      });
    rest.forEach((band, index) => {
      if (band.from <= rates.paye_bands[index]!.from)
        context.addIssue({
          code: 'custom',
          path: ['paye_bands', index + 1, 'from'],
          message: 'each band starts above the one before',
        });
    });
  });
export type StatutoryRates = z.infer<typeof statutoryRatesSchema>;

/** Every jurisdiction's rate sets, each list in effective order. */
export type StatutorySettings = Record<Jurisdiction, StatutoryRates[]>;

/** Residents' monthly PAYE bands, the same on the mainland and Zanzibar since July 2021 (8 % from 9 %). */
const RESIDENT_PAYE_BANDS: PayeBand[] = [
  { from: 0, rate_bps: 0 },
  { from: 270_000, rate_bps: 800 },
  { from: 520_000, rate_bps: 2_000 },
  { from: 760_000, rate_bps: 2_500 },
  { from: 1_000_000, rate_bps: 3_000 },
];

/**
 * In force from July 2023, the first month all of these held on the mainland (SDL 3.5 % from
 * July 2023, WCF 0.5 % from July 2022). An employer paying earlier months adds the sets they need.
 */
export const DEFAULT_STATUTORY_SETTINGS: StatutorySettings = {
  mainland: [
    {
      effective_month: '2023-07',
      paye_bands: RESIDENT_PAYE_BANDS,
      paye_non_resident_bps: 1_500,
      pension_fund: 'NSSF',
      pension_employee_bps: 1_000,
      pension_employer_bps: 1_000,
      wcf_employer_bps: 50,
      sdl_bps: 350,
      sdl_min_employees: 10,
      heslb_bps: 1_500,
      heslb_base: 'basic',
    },
  ],
  zanzibar: [
    {
      effective_month: '2023-07',
      paye_bands: RESIDENT_PAYE_BANDS,
      paye_non_resident_bps: 1_500,
      pension_fund: 'ZSSF',
      pension_employee_bps: 700,
      pension_employer_bps: 1_300,
      wcf_employer_bps: 0,
      sdl_bps: 400,
      sdl_min_employees: 5,
      heslb_bps: 1_500,
      heslb_base: 'basic',
    },
  ],
};

/** The rate set in force in `month`: the latest that took effect in or before it. */
export function ratesInForce(
  settings: StatutorySettings,
  jurisdiction: Jurisdiction,
  month: Month,
): StatutoryRates {
  const inForce = settings[jurisdiction]
    .filter((rates) => rates.effective_month <= month)
    .sort((a, b) => (a.effective_month < b.effective_month ? 1 : -1))[0];
  if (!inForce)
    throw invalidField(
      'parameter_invalid',
      'period',
      `no statutory rates for ${jurisdiction} take effect by ${month}: the earliest is ${settings[jurisdiction][0]?.effective_month ?? 'none'}`,
    );
  return inForce;
}

/**
 * A jurisdiction's rate sets with `rates` put in: it replaces the set of its month, or is added
 * in effective order. Months before it keep the rates they had.
 */
export function withRates(existing: readonly StatutoryRates[], rates: StatutoryRates): StatutoryRates[] {
  return [...existing.filter((set) => set.effective_month !== rates.effective_month), rates].sort((a, b) =>
    a.effective_month < b.effective_month ? -1 : 1,
  );
}
