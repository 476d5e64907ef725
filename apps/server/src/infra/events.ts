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

/**
 * This process's word that committed writes recorded events: the webhook
 * dispatcher, the referral earner and tills' live streams wake on it at once;
 * other processes find the events when they poll. One per server.
 */
export class EventSignal {
  private readonly listeners = new Set<() => void>();

  /** Listens until the returned function is called. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Said after the commit of a transaction that recorded events. */
  notify(): void {
    for (const listener of this.listeners) listener();
  }
}

/**
 * Writes an event into the outbox. Call it with the same transaction as the
 * change it reports, so the change and its event commit together.
 */
export async function recordEvent(db: Queryable, input: EventInput): Promise<string> {
  const [id] = await insertEvents(db, [input]);
  return id!;
}

/**
 * One `type` event for each of `rows` (whose object `toObject` builds), in one
 * statement, in the order given; as `recordEvent`, in the change's
 * transaction. Returns the objects.
 */
export async function recordEvents<R extends { merchant_id: string; livemode: boolean }, O extends object>(
  db: Queryable,
  type: EventType,
  rows: readonly R[],
  toObject: (row: R) => O,
): Promise<O[]> {
  const objects = rows.map((row) => toObject(row));
  await insertEvents(
    db,
    rows.map((row, index) => ({
      merchantId: row.merchant_id,
      livemode: row.livemode,
      type,
      object: objects[index]!,
    })),
  );
  return objects;
}

/** The one statement that writes events, one or many, in the order given; their ids. */
async function insertEvents(
  db: Queryable,
  events: ReadonlyArray<Omit<EventInput, 'object'> & { object: object }>,
) {
  const ids = events.map(() => newId('event'));
  if (events.length === 0) return ids;
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
      ids,
      events.map((event) => event.merchantId),
      events.map((event) => event.livemode),
      events.map((event) => event.type),
      API_VERSION,
      events.map((event) => JSON.stringify({ object: event.object })),
    ],
  );
  return ids;
}
