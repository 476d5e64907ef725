/**
 * Employee records on PostgreSQL: the personal and pay fields round trip for a secret key,
 * a publishable key reads no employee at all, a till's pull carries none of the record, and the
 * employment's status moves only along core's table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PULL_DOCUMENTS } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { client, signUp, startTestServer } from '../support/server.ts';
import type { Api } from '../support/retail.ts';
import { makeEmployee, pairedTill, pullCollection } from '../support/tills.ts';
import { fullRecord, RECORD_FIELDS } from './fixtures.ts';

let server: RunningServer;
let api: Api;
let publishable: Api;
let store: string;

beforeAll(async () => {
  server = await startTestServer();
  const merchant = await signUp(server.url);
  api = client(server.url, merchant.keys.secretTest);
  publishable = client(server.url, merchant.keys.publishableTest);
  store = (await api.post('/v1/retail/stores', { name: 'Kariakoo' })).body.id;
});
afterAll(() => server?.close());

const employeeEvents = async (id: string) =>
  (
    await server.database.pool.query<{ type: string }>(
      `SELECT type FROM events WHERE data->'object'->>'id' = $1 ORDER BY created_at, id`,
      [id],
    )
  ).rows.map((row) => row.type);

describe('employee records', () => {
  it('keeps every record field for a secret key, normalised, and emits employee.created and employee.updated', async () => {
    const created = await makeEmployee(api, [store], fullRecord());
    // As given, but for the fields kept normalised.
    expect(created).toMatchObject({
      ...fullRecord(),
      status: 'active',
      phone: '255754123456',
      national_id: '19940312141230000125',
      tin: '123456789',
    });
    const read = await api.get(`/v1/employees/${created.id}`);
    expect(read.body).toEqual(created);

    const changed = await api.patch(`/v1/employees/${created.id}`, {
      pay_destination: { type: 'mobile_money', phone: '0712 345 678' },
      heslb_loan: false,
      heslb_index_number: null,
      jurisdiction: 'zanzibar',
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      pay_destination: { type: 'mobile_money', phone: '255712345678' },
      heslb_loan: false,
      heslb_index_number: null,
      jurisdiction: 'zanzibar',
      basic_salary: 1_000_000,
      tin: '123456789',
    });
    expect(await employeeEvents(created.id)).toEqual(['employee.created', 'employee.updated']);
  });

  it('defaults the record of an employee made with the till’s fields only', async () => {
    const plain = await makeEmployee(api, [store]);
    expect(plain).toMatchObject({
      status: 'active',
      employment_type: 'permanent',
      residency: 'resident',
      jurisdiction: 'mainland',
      heslb_loan: false,
      basic_salary: null,
      pay_destination: null,
    });
  });

  it('refuses bad fields naming each, and rules across fields on the record as changed', async () => {
    for (const [field, value] of [
      ['national_id', '1234'],
      ['tin', '12-34'],
      ['basic_salary', 1500.5],
      ['employment_type', 'contractor'],
      ['residency', 'visitor'],
      ['jurisdiction', 'pemba'],
      ['date_of_birth', '1994-02-30'],
    ] as const) {
      const refused = await api.post('/v1/employees', {
        name: 'Juma',
        role: 'cashier',
        stores: [store],
        pin: '9173',
        [field]: value,
      });
      expect(refused.status, field).toBe(400);
      expect(refused.body.code).toBe('parameter_invalid');
      expect(Object.keys(refused.body.details ?? {}).join(), field).toContain(field);
    }
    const employee = await makeEmployee(api, [store], { start_date: '2025-01-06' });
    const backwards = await api.patch(`/v1/employees/${employee.id}`, { end_date: '2024-12-31' });
    expect(backwards.status).toBe(400);
    expect(backwards.body.details).toHaveProperty('end_date');
    const loan = await api.patch(`/v1/employees/${employee.id}`, { heslb_loan: true });
    expect(loan.status).toBe(400);
    expect(loan.body.details).toHaveProperty('heslb_index_number');
  });

  it('refuses a publishable key every employee route, so it never reads a personal or pay field', async () => {
    const employee = await makeEmployee(api, [store], fullRecord());
    for (const response of [
      await publishable.get(`/v1/employees/${employee.id}`),
      await publishable.get('/v1/employees?limit=100'),
      await publishable.get(`/v1/employees/${employee.id}/payslip?period=2026-01`),
      await publishable.get('/v1/statutory/settings'),
      await publishable.post('/v1/employees', { name: 'X', role: 'cashier', stores: [store], pin: '5931' }),
      await publishable.patch(`/v1/employees/${employee.id}`, { name: 'X' }),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('publishable_key_forbidden');
      expect(JSON.stringify(response.body)).not.toMatch(/1000000|123456789|Neema/);
    }
  });

  it('gives a till’s pull of employees the name, role and PIN verifier only, none of the record', async () => {
    const { actor } = await pairedTill(server, api, { store });
    const employee = await makeEmployee(api, [store], fullRecord());
    const docs = await pullCollection(server, actor, 'employees', (pulled) =>
      pulled.some((doc) => doc.id === employee.id),
    );
    const doc = docs.find((pulled) => pulled.id === employee.id)!;
    expect(PULL_DOCUMENTS.employees.parse(doc).name).toBe('Neema');
    for (const field of [...RECORD_FIELDS, 'status']) expect(doc).not.toHaveProperty(field);
    expect(Object.keys(doc).sort()).toEqual(['_deleted', 'id', 'name', 'pin', 'role']);
    const text = JSON.stringify(docs);
    for (const value of ['255754123456', '19940312141230000125', '0150123456700', '123456789', 'S0123'])
      expect(text).not.toContain(value);
  });

  it('moves status along the table only, and only an active employee signs in', async () => {
    const employee = await makeEmployee(api, [store]);
    const suspended = await api.patch(`/v1/employees/${employee.id}`, { status: 'suspended' });
    expect(suspended.body).toMatchObject({ status: 'suspended', active: false });
    const signIn = await api.patch(`/v1/employees/${employee.id}`, { active: true });
    expect(signIn.status).toBe(400);
    expect(signIn.body.details).toHaveProperty('active');
    const back = await api.patch(`/v1/employees/${employee.id}`, { status: 'active' });
    expect(back.body).toMatchObject({ status: 'active', active: true });
    const ended = await api.patch(`/v1/employees/${employee.id}`, { status: 'terminated' });
    expect(ended.body).toMatchObject({ status: 'terminated', active: false });
    expect(ended.body.end_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // A fixed term cut short ends on the termination's day, not the term's; one given ends then.
    const fixedTerm = await makeEmployee(api, [store], { start_date: '2025-01-06', end_date: '2099-12-31' });
    const cut = await api.patch(`/v1/employees/${fixedTerm.id}`, { status: 'terminated' });
    expect(cut.body.end_date >= ended.body.end_date && cut.body.end_date < '2099-12-31').toBe(true);
    const dated = await makeEmployee(api, [store], { start_date: '2025-01-06' });
    const given = await api.patch(`/v1/employees/${dated.id}`, {
      status: 'terminated',
      end_date: '2026-03-31',
    });
    expect(given.body.end_date).toBe('2026-03-31');
    for (const status of ['active', 'suspended']) {
      const refused = await api.patch(`/v1/employees/${employee.id}`, { status });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('state_transition_invalid');
    }
    expect((await api.get(`/v1/employees/${employee.id}`)).body.status).toBe('terminated');
  });
});
