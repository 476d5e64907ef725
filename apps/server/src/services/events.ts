import { newId } from '@tz/core';
import { write, type Queryable } from '../db/database.ts';
import { RETAIL_EVENT_TYPES } from '../retail/shared.ts';
import { TILL_EVENT_TYPES } from '../tills/shared.ts';

export const API_VERSION = '1.1.0';

/** Every event type the platform emits; the webhook catalog is built from this list. */
export const EVENT_TYPES = [
  'payment.created',
  'payment.succeeded',
  'payment.failed',
  'payment.refunded',
  'checkout.completed',
  'customer.created',
  ...RETAIL_EVENT_TYPES,
  ...TILL_EVENT_TYPES,
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

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
