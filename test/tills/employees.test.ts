import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPin, type PinHash } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { client, signUp, startTestServer, type Merchant } from '../support/server.ts';
import type { Api } from '../support/retail.ts';
import { makeEmployee } from '../support/tills.ts';

let server: RunningServer;
let merchant: Merchant;
let api: Api;
let stores: string[];

beforeAll(async () => {
  server = await startTestServer();
  merchant = await signUp(server.url);
  api = client(server.url, merchant.keys.secretTest);
  stores = [
    (await api.post('/v1/retail/stores', { name: 'Kariakoo' })).body.id,
    (await api.post('/v1/retail/stores', { name: 'Mwenge' })).body.id,
  ];
});
afterAll(() => server?.close());

const storedPin = async (id: string): Promise<PinHash> =>
  (await server.database.pool.query(`SELECT pin_hash FROM employees WHERE id = $1`, [id])).rows[0].pin_hash;

describe('employees', () => {
  it('creates a cashier whose PIN is never returned and is stored as a hash core’s verifyPin accepts', async () => {
    const response = await api.post('/v1/employees', {
      name: 'Neema Mushi',
      role: 'cashier',
      stores: [stores[0]],
      pin: '4821',
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      object: 'employee',
      name: 'Neema Mushi',
      role: 'cashier',
      stores: [stores[0]],
      active: true,
      livemode: false,
    });
    expect(response.body.id).toMatch(/^emp_/);
    const text = JSON.stringify(response.body);
    expect(text).not.toContain('4821');
    expect(text).not.toMatch(/pin/i);
    const hash = await storedPin(response.body.id);
    expect(hash.algorithm).toBe('pbkdf2-sha256');
    expect(JSON.stringify(hash)).not.toContain('4821');
    expect(await verifyPin('4821', hash)).toBe(true);
    expect(await verifyPin('4822', hash)).toBe(false);
    for (const read of [
      await api.get(`/v1/employees/${response.body.id}`),
      await api.get('/v1/employees?limit=100'),
    ])
      expect(JSON.stringify(read.body)).not.toMatch(/pin|4821/i);
  });

  it('updates fields, replaces the PIN, and deactivates instead of deleting', async () => {
    const employee = await makeEmployee(api, [stores[0]!], { pin: '1357' });
    const before = await storedPin(employee.id);
    const patched = await api.patch(`/v1/employees/${employee.id}`, {
      role: 'manager',
      stores,
      pin: '246810',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Neema', role: 'manager', stores, active: true });
    const after = await storedPin(employee.id);
    expect(after.hash).not.toBe(before.hash);
    expect(await verifyPin('246810', after)).toBe(true);
    expect(await verifyPin('1357', after)).toBe(false);

    const renamed = await api.patch(`/v1/employees/${employee.id}`, { name: 'Neema M.' });
    expect(renamed.body).toMatchObject({ name: 'Neema M.', role: 'manager' });
    expect(await storedPin(employee.id)).toEqual(after);

    const off = await api.patch(`/v1/employees/${employee.id}`, { active: false });
    expect(off.body.active).toBe(false);
    const inactive = await api.get('/v1/employees?active=false&limit=100');
    expect(inactive.body.data.map((entry: { id: string }) => entry.id)).toContain(employee.id);
    const active = await api.get('/v1/employees?active=true&limit=100');
    expect(active.body.data.map((entry: { id: string }) => entry.id)).not.toContain(employee.id);
    expect((await api.delete(`/v1/employees/${employee.id}`)).status).toBe(404);
  });

  it('lists newest first and filters by store', async () => {
    const first = await makeEmployee(api, [stores[1]!]);
    const second = await makeEmployee(api, [stores[1]!]);
    const list = await api.get(`/v1/employees?store=${stores[1]}&limit=2`);
    expect(list.body.data.map((entry: { id: string }) => entry.id)).toEqual([second.id, first.id]);
    expect(list.body.has_more).toBe(true);
  });

  it('refuses a PIN another active employee of the same store has, but not at another store', async () => {
    const fresh = client(server.url, (await signUp(server.url)).keys.secretTest);
    const [a, b] = [
      (await fresh.post('/v1/retail/stores', { name: 'A' })).body.id,
      (await fresh.post('/v1/retail/stores', { name: 'B' })).body.id,
    ];
    const first = await makeEmployee(fresh, [a], { pin: '9090' });
    const clash = await fresh.post('/v1/employees', {
      name: 'Juma',
      role: 'cashier',
      stores: [a, b],
      pin: '9090',
    });
    expect(clash.status).toBe(400);
    expect(clash.body).toMatchObject({ code: 'pin_taken', details: { pin: expect.any(String) } });
    const elsewhere = await makeEmployee(fresh, [b], { pin: '9090' });
    // A PATCH to the same PIN clashes too; once the first is inactive, it is free.
    const patch = await fresh.patch(`/v1/employees/${elsewhere.id}`, { stores: [a], pin: '9090' });
    expect(patch.body.code).toBe('pin_taken');
    await fresh.patch(`/v1/employees/${first.id}`, { active: false });
    expect((await fresh.patch(`/v1/employees/${elsewhere.id}`, { stores: [a], pin: '9090' })).status).toBe(
      200,
    );
  });

  it('names the offending field: PIN shape, role, and stores that are not the account’s', async () => {
    const foreignStore = (
      await client(server.url, (await signUp(server.url)).keys.secretTest).post('/v1/retail/stores', {
        name: 'X',
      })
    ).body.id;
    const liveStore = (
      await client(server.url, merchant.keys.secretLive).post('/v1/retail/stores', { name: 'Live' })
    ).body.id;
    const base = { name: 'Asha', role: 'cashier', stores: [stores[0]], pin: '5555' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ pin: '12' }, 'pin'],
      [{ pin: '1234567' }, 'pin'],
      [{ pin: '12a4' }, 'pin'],
      [{ role: 'owner' }, 'role'],
      [{ stores: [] }, 'stores'],
      [{ stores: [stores[0], foreignStore] }, 'stores.1'],
      [{ stores: [liveStore] }, 'stores.0'],
    ];
    for (const [change, field] of cases) {
      const response = await api.post('/v1/employees', { ...base, ...change });
      expect(response.status, JSON.stringify(change)).toBe(400);
      expect(Object.keys(response.body.details), JSON.stringify(change)).toContain(field);
    }
    const employee = await makeEmployee(api, [stores[0]!]);
    const patch = await api.patch(`/v1/employees/${employee.id}`, { stores: [foreignStore] });
    expect(patch.status).toBe(400);
    expect(patch.body.details).toEqual({ 'stores.0': 'is not a store of this account' });
  });

  it('answers 404 for another merchant’s or the other mode’s employee', async () => {
    const employee = await makeEmployee(api, [stores[0]!]);
    const stranger = client(server.url, (await signUp(server.url)).keys.secretTest);
    const live = client(server.url, merchant.keys.secretLive);
    for (const other of [stranger, live]) {
      expect((await other.get(`/v1/employees/${employee.id}`)).status).toBe(404);
      expect((await other.patch(`/v1/employees/${employee.id}`, { name: 'X' })).status).toBe(404);
      expect(JSON.stringify((await other.get('/v1/employees')).body)).not.toContain(employee.id);
    }
  });
});
