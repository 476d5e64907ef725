import { expect } from 'vitest';
import { newId, type Command, type CommandResult, type PullCollection, type PullResult } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import type { Api } from '../support/retail.ts';
import { trpcTill } from '../support/tills.ts';

/** A till paired over tRPC, calling as the desktop app's door mode does. */
export async function pairedDoor(server: RunningServer, api: Api, name = 'Lango la Kaskazini') {
  const { client, push, pull } = await trpcTill(server, api, { name });
  return {
    name,
    push,
    pull,
    ask: (input: Record<string, unknown>) =>
      client.mutation('sync.doorCheckin', input) as Promise<Record<string, any>>,
    page: (collection: PullCollection, checkpoint: PullResult['checkpoint'], limit = 1000) =>
      client.query('sync.pull', { collection, checkpoint, limit }) as Promise<PullResult>,
  };
}
export type Door = Awaited<ReturnType<typeof pairedDoor>>;

const commandId = () => `cmd_${newId('request').slice(-26).toUpperCase()}`;

/** A door's report of a holder it let in on its own verdict. */
export const report = (payload: {
  scan: string;
  event: string;
  ticket: string;
  code: string;
  door: string;
  at: number;
}): Command => ({ id: commandId(), type: 'ticket.checkin', created_at: Date.now(), payload });

export const applied = (result: CommandResult | undefined) => {
  expect(result?.status, JSON.stringify(result)).toBe('applied');
  return (result as Extract<CommandResult, { status: 'applied' }>).result;
};

export const refused = (result: CommandResult | undefined) => {
  expect(result?.status, JSON.stringify(result)).toBe('refused');
  return (result as Extract<CommandResult, { status: 'refused' }>).error;
};
