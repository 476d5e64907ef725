/**
 * The till's 13 RxDB collections (the free build's limit, which a 14th would
 * break): 10 pulled collections stored as their own, `records` (the small
 * reference collections pulled from the server, one document per server row
 * with its `kind`: categories and the front desk's property, room types,
 * rooms, rates, reservations and conflicts), `commands` (the outbox: every sale, refund,
 * void, shift step, desk step and print result, each one document) and `kv`
 * (the device, settings, counters, the cart, parked sales, the session).
 * `PULL_TARGETS` says where each of `PULL_COLLECTIONS` is stored.
 *
 * Pulled documents keep the server's fields; the pull modifier (`toLocal`)
 * adds lowercased search keys, flattens nullable fields that are indexed (an
 * index cannot hold null), and gives a document stored in `records` its
 * `kind` (the pulled collection's name; server ids are unique across kinds). Products and variants are stored as pages of
 * up to 1,000 (`catalogue-pages.ts`) with no index: catalogue search and
 * barcode lookup are answered from memory (`catalogue-index.ts`), and each
 * record is work IndexedDB does in a first sync of 100,000 products. The
 * door's tickets are pages too, kept in `records` as the kind `tickets`
 * (a page's key starts with digits, so it is never a server id), and looked
 * up in memory (`door/door-tickets.ts`).
 *
 * A pulled collection's `version` is raised when its schema changes: the
 * stored one is then dropped and pulled again from the server, never migrated;
 * one moved into `records` is listed in `RETIRED_COLLECTIONS` and dropped the
 * same way (`database.ts`).
 */
import type { RxJsonSchema } from 'rxdb';
import { PULL_COLLECTIONS } from '@tz/core';
import type { CommandType, PullCollection, PullDocument } from '@tz/core';

const id = { type: 'string', maxLength: 128 } as const;
const key = { type: 'string', maxLength: 128 } as const;
const any = {} as const;

type Local<T> = T & Record<string, unknown>;

/** A document as stored: the server's fields plus the local keys `toLocal` adds (`kind` in `records`). */
export type LocalDoc<C extends PullCollection> = Local<PullDocument<C>>;

function pulled(
  properties: Record<string, unknown>,
  indexes: Array<string | string[]> = [],
  version = 0,
): RxJsonSchema<Record<string, unknown>> {
  return {
    version,
    primaryKey: 'id',
    type: 'object',
    properties: { id, ...properties },
    // Indexed fields must always be present: `toLocal` fills them.
    required: ['id', ...new Set(indexes.flat())],
    indexes,
  };
}

/** A page of the catalogue: up to 1,000 products or variants as the server sent them. */
const pages = (version: number) => pulled({ items: { type: 'array' } }, [], version);

/** The pulled collections kept in `records`: few documents each, read whole by kind. */
export const RECORD_KINDS = [
  'categories',
  'property',
  'room_types',
  'rooms',
  'room_rates',
  'reservations',
  'desk_conflicts',
  'ticketed_events',
  'event_tiers',
  'tickets',
  'checkins',
  'double_admissions',
] as const satisfies readonly PullCollection[];
export type RecordKind = (typeof RECORD_KINDS)[number];

/** A pulled collection stored as its own RxDB collection. */
export type OwnPulled = Exclude<PullCollection, RecordKind>;
/** The RxDB collections pulled documents are stored in. */
export type PulledStorage = OwnPulled | 'records';

export const isRecordKind = (collection: PullCollection): collection is RecordKind =>
  (RECORD_KINDS as readonly string[]).includes(collection);

/** The one map from a pulled collection to the RxDB collection it is stored in. */
export const PULL_TARGETS = Object.fromEntries(
  PULL_COLLECTIONS.map((collection) => [collection, isRecordKind(collection) ? 'records' : collection]),
) as { [C in PullCollection]: C extends RecordKind ? 'records' : C };

/**
 * Collections a till of an earlier version stored on their own and stores no
 * more (their documents are in `records` now): removed on open, with their
 * pull checkpoints, so they are pulled again into their new home.
 */
export const RETIRED_COLLECTIONS = ['categories'] as const satisfies readonly RecordKind[];

export const PULLED_SCHEMAS: Record<PulledStorage, RxJsonSchema<Record<string, unknown>>> = {
  // Version 0 indexed name, SKU and barcode keys (and variants' product); version 1 held a record per document.
  products: pages(2),
  variants: pages(2),
  // Version 0 held a record per ticket; tickets are pages of up to 1,000 now.
  records: pulled({ kind: { type: 'string', maxLength: 32 } }, ['kind'], 1),
  stores: pulled({}),
  stock_levels: pulled({ product: key, variant_key: key, store: key }, [['product', 'variant_key', 'store']]),
  customers: pulled({ name_key: key, phone_key: key }, ['name_key', 'phone_key']),
  // Version 0 held every employee of the merchant with the server's PIN hash; now the till's own, with its verifiers.
  employees: pulled({}, [], 1),
  printers: pulled({}),
  print_jobs: pulled({ status: { type: 'string', maxLength: 16 } }, ['status']),
  orders: pulled({ client_order_id: key }, ['client_order_id']),
  shifts: pulled({}),
};

export const normalise = (text: string): string => text.trim().toLowerCase().slice(0, 120);

/** Adds the indexed keys to a pulled document (RxDB's pull `modifier`). */
export function toLocal(collection: PullCollection, doc: Record<string, unknown>): Record<string, unknown> {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  if (isRecordKind(collection)) return { ...doc, kind: collection };
  switch (collection) {
    case 'stock_levels':
      return { ...doc, variant_key: text(doc.variant) };
    case 'customers':
      return { ...doc, name_key: normalise(text(doc.name)), phone_key: text(doc.phone) };
    case 'orders':
      return { ...doc, client_order_id: text(doc.client_order_id) };
    default:
      return doc;
  }
}

// ------------------------------------------------------------------ commands

/** `exported` / `abandoned`: held by a till that can no longer sync, put in its export file or given up. */
export type CommandStatus = 'pending' | 'applied' | 'refused' | 'exported' | 'abandoned';

/** A line of a sale as priced, kept so refunds and the Z report need no server. */
export interface SaleLine {
  unit: 'piece' | 'kg' | 'litre' | 'metre';
  quantity_milli: number;
  total: number;
  tax: number;
}

/**
 * One outbox command. A sale is exactly one of these: the order payload the
 * server applies, the receipt the customer got, and its sync status, so there
 * is nothing to half-write.
 */
export interface CommandDoc {
  id: string;
  type: CommandType;
  /** Unix ms on the till. */
  created_at: number;
  payload: Record<string, unknown>;
  status: CommandStatus;
  /** The sale this command is or acts on ('' for none). */
  client_order_id: string;
  /** The shift it belongs to ('' for none). */
  shift: string;
  cashier: string;
  receipt_number: string | null;
  receipt: Record<string, unknown> | null;
  sale: {
    total: number;
    currency: string;
    /** Cash kept: cash handed over minus change. */
    cash: number;
    mobile_money: number;
    card: number;
    lines: SaleLine[];
    /** The rooms charged, as the cashier picked them: named should the server refuse the charge. */
    room_charges?: Array<{ reservation: string; room: string; guest: string }>;
  } | null;
  /** For a refund: the amount given back, as planned on the till. */
  refund_amount: number | null;
  result: Record<string, unknown> | null;
  error: { code: string; message: string; details?: Record<string, string> } | null;
  synced_at: number | null;
}

export const commandSchema: RxJsonSchema<CommandDoc> = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id,
    type: { type: 'string', maxLength: 40 },
    created_at: { type: 'number', minimum: 0, maximum: 1e15, multipleOf: 1 },
    payload: { type: 'object' },
    status: { type: 'string', maxLength: 16 },
    client_order_id: key,
    shift: key,
    cashier: { type: 'string' },
    receipt_number: { type: ['string', 'null'] },
    receipt: any,
    sale: any,
    refund_amount: { type: ['number', 'null'] },
    result: any,
    error: any,
    synced_at: { type: ['number', 'null'] },
  },
  required: ['id', 'type', 'created_at', 'payload', 'status', 'client_order_id', 'shift'],
  // Pending commands go up in id order (ULIDs sort by creation time).
  indexes: [
    ['status', 'id'],
    ['client_order_id', 'id'],
    ['shift', 'id'],
    ['type', 'id'],
  ],
};

// ------------------------------------------------------------------------ kv

export interface KvDoc {
  id: string;
  value: unknown;
}

export const kvSchema: RxJsonSchema<KvDoc> = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: { id: key, value: any },
  required: ['id'],
};
