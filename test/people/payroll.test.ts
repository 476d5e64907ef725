/**
 * Statutory settings and payslip previews on PostgreSQL: the numbers of one mainland and one
 * Zanzibar employee worked by hand (docs/PEOPLE.md), SDL by the month's headcount, a past month
 * unchanged by a later change of rates, and each refusal a clean 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STATUTORY_SETTINGS, eastAfricaDate } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { client, signUp, startTestServer } from '../support/server.ts';
import type { Api } from '../support/retail.ts';
import { makeEmployee } from '../support/tills.ts';
import { fullRecord } from './fixtures.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** A fresh merchant with a store and `others` more employees, each started at the start of 2025. */
async function employer(others: number) {
  const api = client(server.url, (await signUp(server.url)).keys.secretTest);
  const store = (await api.post('/v1/retail/stores', { name: 'Stone Town' })).body.id as string;
  for (let index = 0; index < others; index++) await makeEmployee(api, [store], { start_date: '2025-01-01' });
  return { api, store };
}

const payslip = (api: Api, id: string, period: string) =>
  api.get(`/v1/employees/${id}/payslip?period=${period}`);
const amounts = (lines: Array<{ code: string; amount: number }>) =>
  Object.fromEntries(lines.map((line) => [line.code, line.amount]));

describe('statutory settings', () => {
  it('starts from core’s defaults, and refuses bad rates naming the field', async () => {
    const { api } = await employer(0);
    const read = await api.get('/v1/statutory/settings');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ object: 'statutory_settings', ...DEFAULT_STATUTORY_SETTINGS });
    const rates = DEFAULT_STATUTORY_SETTINGS.mainland[0]!;
    for (const [body, field] of [
      [{ jurisdiction: 'pemba', rates }, 'jurisdiction'],
      [
        { jurisdiction: 'mainland', rates: { ...rates, effective_month: '2026-13' } },
        'rates.effective_month',
      ],
      [{ jurisdiction: 'mainland', rates: { ...rates, sdl_bps: 10_001 } }, 'rates.sdl_bps'],
      [
        {
          jurisdiction: 'mainland',
          rates: {
            ...rates,
            paye_bands: [
              { from: 0, rate_bps: 0 },
              { from: 0, rate_bps: 800 },
            ],
          },
        },
        'rates.paye_bands.1.from',
      ],
    ] as const) {
      const refused = await api.patch('/v1/statutory/settings', body);
      expect(refused.status, field).toBe(400);
      expect(refused.body.code).toBe('parameter_invalid');
      expect(refused.body.details, field).toHaveProperty([field]);
    }
    expect((await api.get('/v1/statutory/settings')).body).toEqual(read.body);
  });

  it('replays a change sent again with its Idempotency-Key', async () => {
    const { api } = await employer(0);
    const body = {
      jurisdiction: 'zanzibar',
      rates: { ...DEFAULT_STATUTORY_SETTINGS.zanzibar[0]!, effective_month: '2026-07', sdl_bps: 450 },
    };
    const headers = { 'Idempotency-Key': 'zanzibar-sdl-2026-07' };
    const first = await api.patch('/v1/statutory/settings', body, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await api.patch('/v1/statutory/settings', body, headers);
    expect(again.body).toEqual(first.body);
    expect(first.body.zanzibar.map((set: { effective_month: string }) => set.effective_month)).toEqual([
      '2023-07',
      '2026-07',
    ]);
  });
});

describe('payslip previews', () => {
  it('works a mainland resident with a HESLB loan among 12 employees as by hand', async () => {
    const { api, store } = await employer(11);
    const employee = await makeEmployee(api, [store], fullRecord({ basic_salary: 1_000_000 }));
    const slip = await payslip(api, employee.id, '2026-01');
    expect(slip.status, JSON.stringify(slip.body)).toBe(200);
    // NSSF 10 % of 1,000,000; taxable 900,000; PAYE 68,000 + 25 % of 140,000; HESLB 15 % of basic.
    expect(slip.body).toMatchObject({
      object: 'payslip_preview',
      period: '2026-01',
      jurisdiction: 'mainland',
      headcount: 12,
      rates_effective_month: '2023-07',
      gross: 1_000_000,
      taxable: 900_000,
      total_deductions: 353_000,
      net: 647_000,
      pension_fund: 'NSSF',
    });
    expect(amounts(slip.body.deductions)).toEqual({ pension: 100_000, paye: 103_000, heslb: 150_000 });
    expect(slip.body.deductions.map((line: { label: string }) => line.label)).toEqual([
      'NSSF (employee)',
      'PAYE',
      'HESLB loan repayment',
    ]);
    // The employer's NSSF 10 %, WCF 0.5 % and SDL 3.5 % (12 employees reach the 10 it is owed from).
    expect(amounts(slip.body.employer_contributions)).toEqual({
      pension_employer: 100_000,
      wcf: 5_000,
      sdl: 35_000,
    });
  });

  it('works a Zanzibar resident as by hand, with SDL only once the headcount reaches 5', async () => {
    const { api, store } = await employer(3);
    const employee = await makeEmployee(
      api,
      [store],
      fullRecord({
        basic_salary: 800_000,
        jurisdiction: 'zanzibar',
        heslb_loan: false,
        heslb_index_number: null,
      }),
    );
    const four = await payslip(api, employee.id, '2026-01');
    // ZSSF 7 % = 56,000; taxable 744,000; PAYE 20,000 + 20 % of 224,000 = 64,800; net 679,200.
    expect(four.body).toMatchObject({
      headcount: 4,
      gross: 800_000,
      taxable: 744_000,
      net: 679_200,
      pension_fund: 'ZSSF',
    });
    expect(amounts(four.body.deductions)).toEqual({ pension: 56_000, paye: 64_800 });
    expect(amounts(four.body.employer_contributions)).toEqual({ pension_employer: 104_000 });

    await makeEmployee(api, [store], { start_date: '2025-06-01' });
    const five = await payslip(api, employee.id, '2026-01');
    expect(five.body.headcount).toBe(5);
    expect(amounts(five.body.employer_contributions)).toEqual({ pension_employer: 104_000, sdl: 32_000 });
    expect(five.body.net).toBe(679_200);
  });

  it('taxes a non-resident at the flat rate', async () => {
    const { api, store } = await employer(0);
    const employee = await makeEmployee(
      api,
      [store],
      fullRecord({
        basic_salary: 500_000,
        residency: 'non_resident',
        heslb_loan: false,
        heslb_index_number: null,
      }),
    );
    const slip = await payslip(api, employee.id, '2026-01');
    // NSSF 50,000; taxable 450,000; PAYE 15 % = 67,500.
    expect(amounts(slip.body.deductions)).toEqual({ pension: 50_000, paye: 67_500 });
    expect(slip.body.net).toBe(382_500);
  });

  it('recomputes a past month as it was after the rates change from a later month', async () => {
    const { api, store } = await employer(11);
    const employee = await makeEmployee(api, [store], fullRecord({ basic_salary: 1_000_000 }));
    const before = await payslip(api, employee.id, '2026-01');
    const changed = await api.patch('/v1/statutory/settings', {
      jurisdiction: 'mainland',
      rates: {
        ...DEFAULT_STATUTORY_SETTINGS.mainland[0]!,
        effective_month: '2026-07',
        pension_employee_bps: 1_200,
        paye_bands: [
          { from: 0, rate_bps: 0 },
          { from: 300_000, rate_bps: 900 },
        ],
      },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.mainland[0]).toEqual(DEFAULT_STATUTORY_SETTINGS.mainland[0]);
    expect((await payslip(api, employee.id, '2026-01')).body).toEqual(before.body);
    expect((await payslip(api, employee.id, '2026-06')).body.net).toBe(647_000);

    const after = await payslip(api, employee.id, '2026-08');
    // NSSF 12 % = 120,000; taxable 880,000; PAYE 9 % of 580,000 = 52,200; HESLB 150,000.
    expect(after.body).toMatchObject({ rates_effective_month: '2026-07', taxable: 880_000, net: 677_800 });
  });

  it('refuses a malformed month, a month before any rates, a month not employed and a missing salary', async () => {
    const { api, store } = await employer(0);
    const employee = await makeEmployee(api, [store], fullRecord({ basic_salary: 600_000 }));
    const longServing = await makeEmployee(
      api,
      [store],
      fullRecord({ basic_salary: 600_000, start_date: '2020-01-01' }),
    );
    for (const [id, period, message] of [
      [employee.id, '2026-13', /YYYY-MM/],
      [employee.id, '2026', /YYYY-MM/],
      [longServing.id, '2023-06', /earliest is 2023-07/],
      [employee.id, '2024-12', /not employed/],
      [employee.id, '2027-01', /not employed/],
    ] as const) {
      const refused = await payslip(api, id, period);
      expect(refused.status, period).toBe(400);
      expect(refused.body.code).toBe('parameter_invalid');
      expect(refused.body.details.period, period).toMatch(message);
    }
    // Without a period: this month in Dar es Salaam, the same answer as naming it.
    const thisMonth = eastAfricaDate(new Date()).slice(0, 7);
    const unnamed = await api.get(`/v1/employees/${employee.id}/payslip`);
    const named = await payslip(api, employee.id, thisMonth);
    expect({ status: unnamed.status, body: unnamed.body }).toEqual({
      status: named.status,
      body: named.body,
    });
    const unpaid = await makeEmployee(api, [store]);
    const noSalary = await payslip(api, unpaid.id, '2026-01');
    expect(noSalary.status).toBe(400);
    expect(noSalary.body.details).toHaveProperty('basic_salary');
    expect((await payslip(api, 'emp_01jz0000000000000000000000', '2026-01')).status).toBe(404);
  });
});
