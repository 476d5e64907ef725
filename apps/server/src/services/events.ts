import { newId } from '@tz/core';
import { write, type Queryable } from '../db/database.ts';
import type { EventType } from './event-types.ts';

export const API_VERSION = '1.1.0';

export interface EventInput {
  merchantId: string;
  livemode: boolean;
  type: EventType;
  object: Record<string, unknown>;
}

type Listener = () => void;
const listeners = new Set<Listener>();

/** In-process wake-up for the dispatcher; other processes poll the outbox. */
export function onEventsWritten(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export function notifyEventsWritten(): void {
  for (const listener of listeners) listener();
}

/**
 * Writes an event into the outbox. Call it with the same transaction as the
 * change it reports, so the change and its event commit together.
 */
export async function recordEvent(db: Queryable, input: EventInput): Promise<string> {
  const id = newId('event');
  await write(
    db,
    {
      name: 'insert_event',
      text: `INSERT INTO events (id, merchant_id, livemode, type, api_version, data) VALUES ($1, $2, $3, $4, $5, $6)`,
    },
    [id, input.merchantId, input.livemode, input.type, API_VERSION, JSON.stringify({ object: input.object })],
  );
  return id;
}

/** Writes many events in one statement, in the order given; as `recordEvent`, in the change's transaction. */
export async function recordEvents(db: Queryable, inputs: readonly EventInput[]): Promise<void> {
  if (inputs.length === 0) return;
  await write(
    db,
    {
      name: 'insert_events',
      text: `INSERT INTO events (id, merchant_id, livemode, type, api_version, data)
       SELECT id, merchant_id, livemode, type, $5, data::jsonb
       FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $6::text[])
         WITH ORDINALITY AS e(id, merchant_id, livemode, type, data, n)
       ORDER BY n`,
    },
    [
      inputs.map(() => newId('event')),
      inputs.map((e) => e.merchantId),
      inputs.map((e) => e.livemode),
      inputs.map((e) => e.type),
      API_VERSION,
      inputs.map((e) => JSON.stringify({ object: e.object })),
    ],
  );
}
