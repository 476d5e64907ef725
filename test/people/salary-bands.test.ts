/**
 * Salary bands on PostgreSQL: the set replaced whole (and replayed under its Idempotency-Key), bad
 * bands refused naming the field, and the check listing who is paid outside their band by how
 * much, who cannot be checked, and leaving out those terminated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { client, signUp, startTestServer } from '../support/server.ts';
import { makeEmployee } from '../support/tills.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

async function employer() {
  const signed = await signUp(server.url);
  const api = client(server.url, signed.keys.secretTest);
  const store = (await api.post('/v1/retail/stores', { name: 'Kariakoo' })).body.id as string;
  return { api, store, publishable: client(server.url, signed.keys.publishableTest) };
}

const BANDS = [
  { grade: 'G1', minimum: 300_000, maximum: 500_000 },
  { grade: 'G2', minimum: 500_000, maximum: 900_000 },
];

describe('salary bands', () => {
  it('are empty at first, replaced whole, and replayed under their Idempotency-Key', async () => {
    const { api } = await employer();
    expect((await api.get('/v1/employees/salary-bands')).body).toEqual({
      object: 'salary_bands',
      data: [],
      livemode: false,
    });
    const headers = { 'Idempotency-Key': 'bands-2026' };
    const put = await api.put('/v1/employees/salary-bands', { bands: BANDS }, headers);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data).toEqual(BANDS);
    expect((await api.put('/v1/employees/salary-bands', { bands: BANDS }, headers)).body).toEqual(put.body);
    // Replaced whole: a grade left out has no band any more.
    const narrowed = await api.put('/v1/employees/salary-bands', { bands: [BANDS[1]] });
    expect(narrowed.body.data).toEqual([BANDS[1]]);
    expect((await api.get('/v1/employees/salary-bands')).body.data).toEqual([BANDS[1]]);
  });

  it('refuses a band upside down or a grade given twice, naming the field, and keeps the set', async () => {
    const { api } = await employer();
    await api.put('/v1/employees/salary-bands', { bands: BANDS });
    const upsideDown = await api.put('/v1/employees/salary-bands', {
      bands: [{ grade: 'G1', minimum: 500_000, maximum: 400_000 }],
    });
    expect(upsideDown.status).toBe(400);
    expect(upsideDown.body.code).toBe('parameter_invalid');
    expect(Object.keys(upsideDown.body.details)).toEqual(['bands.0.maximum']);
    const twice = await api.put('/v1/employees/salary-bands', { bands: [BANDS[0], BANDS[0]] });
    expect(twice.status).toBe(400);
    expect(Object.keys(twice.body.details)).toEqual(['bands.1.grade']);
    expect((await api.get('/v1/employees/salary-bands')).body.data).toEqual(BANDS);
  });

  it('checks every employee not terminated against their band, by how much, naming them', async () => {
    const { api, store } = await employer();
    await api.put('/v1/employees/salary-bands', { bands: BANDS });
    const inside = await makeEmployee(api, [store], { name: 'Asha', grade: 'G1', basic_salary: 400_000 });
    const low = await makeEmployee(api, [store], { name: 'Baraka', grade: 'G2', basic_salary: 450_000 });
    const high = await makeEmployee(api, [store], { name: 'Chausiku', grade: 'G1', basic_salary: 520_000 });
    const noGrade = await makeEmployee(api, [store], { name: 'Daudi', basic_salary: 400_000 });
    const gone = await makeEmployee(api, [store], { name: 'Eliya', grade: 'G1', basic_salary: 9_000_000 });
    expect((await api.patch(`/v1/employees/${gone.id}`, { status: 'terminated' })).status).toBe(200);

    const check = await api.get('/v1/employees/salary-band-check');
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(check.body).toEqual({
      object: 'salary_band_check',
      data: [
        {
          employee: low.id,
          name: 'Baraka',
          problem: 'below_band',
          grade: 'G2',
          basic_salary: 450_000,
          by: 50_000,
        },
        {
          employee: high.id,
          name: 'Chausiku',
          problem: 'above_band',
          grade: 'G1',
          basic_salary: 520_000,
          by: 20_000,
        },
        { employee: noGrade.id, name: 'Daudi', problem: 'no_grade', grade: null },
      ],
      livemode: false,
    });
    expect(check.body.data.map((f: { employee: string }) => f.employee)).not.toContain(inside.id);
  });

  it('is the owner’s: a publishable key reads and changes nothing', async () => {
    const { publishable } = await employer();
    for (const response of [
      await publishable.get('/v1/employees/salary-bands'),
      await publishable.request('PUT', '/v1/employees/salary-bands', { bands: BANDS }),
      await publishable.get('/v1/employees/salary-band-check'),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('publishable_key_forbidden');
    }
  });
});
