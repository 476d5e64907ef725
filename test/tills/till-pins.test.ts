/**
 * What a till holds of the employees: only its store's active ones, each PIN
 * as a verifier made for that till (slow, salted per till), and a deletion for
 * an employee deactivated or moved away (docs/TILL.md, "What a stolen till holds").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchTillPin, PULL_DOCUMENTS, TILL_PIN_ITERATIONS, type PullDocument } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import type { TillActor } from '../../apps/server/src/actor.ts';
import { client, signUp, startTestServer } from '../support/server.ts';
import type { Api } from '../support/retail.ts';
import { makeEmployee, pairedTill, pullCollection } from '../support/tills.ts';

let server: RunningServer;
let api: Api;
let stores: [string, string];
beforeAll(async () => {
  server = await startTestServer();
  api = client(server.url, (await signUp(server.url)).keys.secretTest);
  stores = [
    (await api.post('/v1/retail/stores', { name: 'Kariakoo' })).body.id,
    (await api.post('/v1/retail/stores', { name: 'Mlimani' })).body.id,
  ];
});
afterAll(() => server?.close());

type Employee = PullDocument<'employees'>;
type From = { checkpoint: { seq: number; id: string } | null };

/** The employee documents the feed brings after `from` (moved on), once `until` holds of them. */
const pulledEmployees = (actor: TillActor, from: From, until: (docs: Employee[]) => boolean = () => true) =>
  pullCollection(
    server,
    actor,
    'employees',
    (docs) => until(docs.map((doc) => PULL_DOCUMENTS.employees.parse(doc))),
    from,
  ).then((docs) => docs.map((doc) => PULL_DOCUMENTS.employees.parse(doc)));

/** Everything the till holds of the employees after pulling from `from` until `until` holds (a deletion removes). */
async function pullEmployees(
  actor: TillActor,
  held = new Map<string, Employee>(),
  from: From = { checkpoint: null },
  until?: (docs: Employee[]) => boolean,
) {
  for (const doc of await pulledEmployees(actor, from, until)) {
    if (doc._deleted) held.delete(doc.id);
    else held.set(doc.id, doc);
  }
  return held;
}

/** The documents pulled include each of these employees. */
const has =
  (...ids: string[]) =>
  (docs: Employee[]) =>
    ids.every((id) => docs.some((doc) => doc.id === id));

describe('the employees a till pulls', () => {
  it('are its own store’s active ones, each PIN a verifier salted for that till alone', async () => {
    const [kariakoo, mlimani] = stores;
    const neema = await makeEmployee(api, [kariakoo], { pin: '4821' });
    const boss = await makeEmployee(api, [mlimani], { role: 'manager', pin: '739146' });
    const gone = await makeEmployee(api, [kariakoo], { pin: '5050', active: false });
    const one = await pairedTill(server, api, { store: kariakoo });
    const two = await pairedTill(server, api, { store: kariakoo });

    const held = await pullEmployees(one.actor, new Map(), { checkpoint: null }, has(neema.id));
    expect([...held.keys()]).toEqual([neema.id]);
    expect(held.has(boss.id) || held.has(gone.id)).toBe(false);
    const doc = held.get(neema.id)!;
    expect(Object.keys(doc).sort()).toEqual(['_deleted', 'id', 'name', 'pin', 'role']);
    expect(doc.pin).toMatchObject({ algorithm: 'pbkdf2-sha256-till', iterations: TILL_PIN_ITERATIONS });
    expect(await matchTillPin('4821', [doc.pin])).toBe(0);
    expect(await matchTillPin('4822', [doc.pin])).toBe(-1);

    // The same employee on another till of the same store: another salt, another target.
    const other = (await pullEmployees(two.actor, new Map(), { checkpoint: null }, has(neema.id))).get(
      neema.id,
    )!;
    expect(other.pin!.salt).not.toBe(doc.pin!.salt);
    expect(other.pin!.hash).not.toBe(doc.pin!.hash);
    // Neither is the server's own hash.
    const stored = await server.database.pool.query(`SELECT pin_hash FROM employees WHERE id = $1`, [
      neema.id,
    ]);
    expect(JSON.stringify(held)).not.toContain(stored.rows[0].pin_hash.hash);
  });

  it('lose an employee deactivated or moved to another store, as a deletion in the feed', async () => {
    const [kariakoo, mlimani] = stores;
    const { actor } = await pairedTill(server, api, { store: kariakoo });
    const asha = await makeEmployee(api, [kariakoo], { name: 'Asha', pin: '6161' });
    const juma = await makeEmployee(api, [kariakoo], { name: 'Juma', pin: '6262' });
    const from: From = { checkpoint: null };
    const held = await pullEmployees(actor, new Map(), from, has(asha.id, juma.id));
    expect(held.has(asha.id) && held.has(juma.id)).toBe(true);

    await api.patch(`/v1/employees/${asha.id}`, { active: false });
    await api.patch(`/v1/employees/${juma.id}`, { stores: [mlimani] });
    const deleted = (docs: Employee[]) =>
      docs
        .filter((doc) => doc._deleted)
        .map((doc) => doc.id)
        .sort();
    const changes = await pulledEmployees(actor, { ...from }, (docs) => deleted(docs).length >= 2);
    expect(deleted(changes)).toEqual([asha.id, juma.id].sort());
    await pullEmployees(actor, held, from);
    expect(held.has(asha.id) || held.has(juma.id)).toBe(false);

    // Back at the store and active again, with a new PIN: the till gets them again, the new PIN working.
    await api.patch(`/v1/employees/${asha.id}`, { active: true, pin: '6363' });
    await api.patch(`/v1/employees/${juma.id}`, { stores: [kariakoo, mlimani], name: 'Juma M.' });
    await pullEmployees(actor, held, from, has(asha.id, juma.id));
    expect(held.get(juma.id)).toMatchObject({ name: 'Juma M.' });
    expect(await matchTillPin('6363', [held.get(asha.id)!.pin])).toBe(0);
    expect(await matchTillPin('6262', [held.get(juma.id)!.pin])).toBe(0);
  });

  it('reach a till paired before its employees were made, and follow a PIN change', async () => {
    const [kariakoo] = stores;
    const { actor } = await pairedTill(server, api, { store: kariakoo });
    const from: From = { checkpoint: null };
    const held = await pullEmployees(actor, new Map(), from);
    const zawadi = await makeEmployee(api, [kariakoo], { name: 'Zawadi', pin: '8181' });
    await pullEmployees(actor, held, from, has(zawadi.id));
    expect(await matchTillPin('8181', [held.get(zawadi.id)!.pin])).toBe(0);
    await api.patch(`/v1/employees/${zawadi.id}`, { pin: '8282' });
    await pullEmployees(actor, held, from, has(zawadi.id));
    expect(await matchTillPin('8181', [held.get(zawadi.id)!.pin])).toBe(-1);
    expect(await matchTillPin('8282', [held.get(zawadi.id)!.pin])).toBe(0);
  });
});

describe('a manager’s PIN', () => {
  it('has 6 digits: a shorter one is a 400 naming the PIN, on creation and on promotion', async () => {
    const short = await api.post('/v1/employees', { name: 'Baraka', role: 'manager', stores, pin: '12345' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({
      error: 'invalid_request_error',
      code: 'parameter_invalid',
      details: { pin: 'must be 6 digits for a manager' },
    });
    const cashier = await makeEmployee(api, [stores[0]], { pin: '2468' });
    const promoted = await api.patch(`/v1/employees/${cashier.id}`, { role: 'manager' });
    expect(promoted.status).toBe(400);
    expect(promoted.body.details.pin).toMatch(/6 digits/);
    const withPin = await api.patch(`/v1/employees/${cashier.id}`, { role: 'manager', pin: '246813' });
    expect(withPin.status).toBe(200);
    const shortened = await api.patch(`/v1/employees/${cashier.id}`, { pin: '1357' });
    expect(shortened.status).toBe(400);
  });
});
