import { expect } from 'vitest';
import { AppError } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import type { Transaction } from '../../apps/server/src/db/database.ts';
import { authenticateTill, pairTill } from '../../apps/server/src/tills/tills.ts';
import type { TillActor } from '../../apps/server/src/actor.ts';
import type { Api } from './retail.ts';

/** Creates a till through the API; fails the test when creation fails. */
export async function makeTill(api: Api, overrides: Record<string, unknown> = {}) {
  const response = await api.post('/v1/tills', { name: 'Kaunta 1', ...overrides });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** A till created and paired, as the sync router would see it after authenticating its credential. */
export async function pairedTill(server: RunningServer, api: Api, overrides: Record<string, unknown> = {}) {
  const till = await makeTill(api, overrides);
  const paired = await pairTill(server.database.pool, till.pairing_code);
  const auth = await authenticateTill(server.database.pool, paired.credential);
  if (auth.status !== 'ok') throw new Error(`a fresh credential did not authenticate: ${auth.status}`);
  return { till, credential: paired.credential, actor: auth.till satisfies TillActor };
}

/** The AppError a service call refused with; fails the test when it did not refuse. */
export async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** Creates an employee through the API; fails the test when creation fails. */
export async function makeEmployee(api: Api, stores: string[], overrides: Record<string, unknown> = {}) {
  const response = await api.post('/v1/employees', {
    name: 'Neema',
    role: 'cashier',
    stores,
    pin: randomPin(),
    ...overrides,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

let pins = 0;
/** A PIN no other fixture uses in this process, so fixtures never clash on pin_taken. */
export const randomPin = () => String(100_000 + ++pins * 7);

/** Runs a till command's service in one transaction, as the sync router does. */
export const inTransaction = <T>(server: RunningServer, work: (tx: Transaction) => Promise<T>): Promise<T> =>
  server.database.transaction(work);
