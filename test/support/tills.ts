import { expect } from 'vitest';
import { createTRPCUntypedClient, httpLink } from '@trpc/client';
import {
  AppError,
  type Command,
  type PullCollection,
  type PullDocument,
  type PullInput,
  type PullResult,
  type PushResult,
} from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import type { Transaction } from '../../apps/server/src/db/database.ts';
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
  const paired = await server.services.tills.pair(server.database.pool, till.pairing_code);
  const auth = await server.services.tills.authenticate(server.database.pool, paired.credential);
  if (auth.status !== 'ok') throw new Error(`a fresh credential did not authenticate: ${auth.status}`);
  return { till, credential: paired.credential, actor: auth.till satisfies TillActor };
}

/**
 * A till made through the API and paired over tRPC, calling as the desktop app does: its tRPC
 * client, the till the pairing answered, and push and pull as the app sends them.
 */
export async function trpcTill(server: RunningServer, api: Api, overrides: Record<string, unknown> = {}) {
  const made = await makeTill(api, overrides);
  const trpc = (credential: string | null) =>
    createTRPCUntypedClient({
      links: [
        httpLink({
          url: `${server.url}/trpc`,
          headers: () => (credential ? { authorization: `Bearer ${credential}` } : {}),
        }),
      ],
    });
  const paired = (await trpc(null).mutation('sync.pair', { code: made.pairing_code })) as {
    credential: string;
    till: { id: string; store: string; receipt_prefix: string };
  };
  const client = trpc(paired.credential);
  return {
    client,
    till: paired.till,
    push: async (...commands: Command[]) =>
      ((await client.mutation('sync.push', { commands })) as PushResult).results,
    pull: <C extends PullCollection>(
      collection: C,
      done: (documents: PullDocument<C>[]) => boolean,
      from: { checkpoint: PullResult['checkpoint'] } = { checkpoint: null },
    ) =>
      pullUntil<PullDocument<C>>(
        (checkpoint) =>
          client.query('sync.pull', { collection, checkpoint, limit: 1000 }) as Promise<PullResult>,
        done,
        from,
      ),
  };
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

type FeedCheckpoint = PullInput['checkpoint'];

/**
 * Pulls pages of a feed the way a till does, from `from.checkpoint` (moved as it goes), until
 * `done` holds of the documents pulled, failing after a generous deadline. On PostgreSQL the
 * feed holds back rows while an older transaction anywhere in the cluster is open, so on a busy
 * machine "not yet" is normal for a moment.
 */
export async function pullUntil<D extends { id: string }>(
  page: (
    checkpoint: FeedCheckpoint,
  ) => Promise<{ documents: readonly unknown[]; checkpoint: FeedCheckpoint }>,
  done: (documents: D[]) => boolean,
  from: { checkpoint: FeedCheckpoint } = { checkpoint: null },
  timeoutMs = 15_000,
): Promise<D[]> {
  const documents: D[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pulled = await page(from.checkpoint);
    documents.push(...(pulled.documents as D[]));
    from.checkpoint = pulled.checkpoint;
    if (pulled.documents.length > 0) continue;
    if (done(documents)) return documents;
    if (Date.now() > deadline)
      throw new Error(`the feed did not bring what was waited for within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `pullUntil` over the sync service, as a paired till pulls `collection`. */
export const pullCollection = <C extends PullCollection>(
  server: RunningServer,
  actor: TillActor,
  collection: C,
  done: (documents: PullDocument<C>[]) => boolean,
  from?: { checkpoint: FeedCheckpoint },
) =>
  pullUntil<PullDocument<C>>(
    (checkpoint) => server.services.sync.pull(actor, { collection, checkpoint, limit: 1000 }),
    done,
    from,
  );
