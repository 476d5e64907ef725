import { AppError, DESK_STAY_WINDOW_DAYS, ROOM_HOLDING_STATUSES } from '@tz/core';
import { isTransaction, type Queryable } from '../db/database.ts';
import { PROPERTY_COLUMNS } from '../hospitality/property.ts';

/**
 * The change feed tills pull reference data from (docs/SYNC.md, "Change feed").
 * Each collection is one table that joined the feed in a migration
 * (`enable_change_feed`); the map below names its table, the column that ties
 * a row to a store (for per-store collections) and the columns a till gets.
 * Everything in the SQL comes from this map, never from input.
 */
interface CollectionSource {
  table: string;
  /** The column naming the till's store, for collections a till sees only its store's rows of. */
  storeColumn?: 'store_id' | 'id';
  /** The column naming the till, for collections a till sees only its own rows of. */
  tillColumn?: 'till_id';
  /** When the till is to drop a row (default: soft-deleted); rooms and room types are archived instead. */
  deleted?: string;
  /**
   * Which rows a till needs at all; the rest never go down (a stay that ended
   * long ago). `{now}` stands for the reader's time, a parameter (the server's
   * clock, never the database's).
   */
  only?: string;
  columns: readonly string[];
}

/**
 * The door's window (events app): events published, canceled or ended, until a day after they
 * end by the reader's clock, while the merchant has the events app; `table` names the row's own
 * table, `event` its event's id column. An event enters it once (published; its tiers are
 * touched then, so they come down with it: events/events.ts) and leaves it only as time passes
 * or the app is removed; reinstalling sends what changed meanwhile, as the till's checkpoint
 * never moved past it.
 */
const doorWindow = (table: string, event: string): string =>
  `EXISTS (SELECT 1 FROM ticketed_events e WHERE e.id = ${table}.${event}
     AND e.status IN ('published', 'canceled', 'ended') AND e.ends_at > {now}::timestamptz - interval '1 day')
   AND NOT EXISTS (SELECT 1 FROM merchant_apps a WHERE a.merchant_id = ${table}.merchant_id
     AND a.livemode = ${table}.livemode AND a.slug = 'events' AND NOT a.installed)`;

const COLLECTIONS = {
  categories: {
    table: 'retail_categories',
    columns: ['name', 'description', 'created_at', 'updated_at'],
  },
  products: {
    table: 'retail_products',
    columns: [
      'name',
      'description',
      'sku',
      'barcodes',
      'price',
      'currency',
      'tax_rate',
      'category_id',
      'unit',
      'track_stock',
      'active',
      'metadata',
      'plu',
      'favourite_position',
      'created_at',
      'updated_at',
    ],
  },
  variants: {
    table: 'retail_variants',
    columns: ['product_id', 'name', 'sku', 'barcodes', 'price', 'active', 'created_at', 'updated_at'],
  },
  customers: {
    table: 'customers',
    columns: ['name', 'email', 'phone', 'description', 'metadata', 'created_at'],
  },
  stores: {
    table: 'retail_stores',
    storeColumn: 'id',
    columns: [
      'name',
      'address_lines',
      'phone',
      'tin',
      'vrn',
      'vat_region',
      'currency',
      'receipt_header',
      'receipt_footer',
      'receipt_language',
      'is_default',
      'scale_barcodes',
      'created_at',
      'updated_at',
    ],
  },
  stock_levels: {
    table: 'retail_stock_levels',
    storeColumn: 'store_id',
    columns: ['store_id', 'product_id', 'variant_id', 'on_hand_milli', 'reorder_level_milli', 'updated_at'],
  },
  orders: {
    table: 'retail_orders',
    storeColumn: 'store_id',
    columns: [
      'store_id',
      'till',
      'cashier',
      'client_order_id',
      'receipt_number',
      'status',
      'currency',
      'vat_region',
      'customer_id',
      'gross_total',
      'line_discount_total',
      'subtotal',
      'discount_rule',
      'order_discount',
      'total',
      'tax_total',
      'tax_breakdown',
      'amount_tendered',
      'change_due',
      'refunded_amount',
      'receipt',
      'metadata',
      'void_reason',
      'flags',
      'created_at',
      'paid_at',
      'voided_at',
    ],
  },
  // Each till's own rows: its store's active employees, with PIN verifiers made for it (tills/till-employees.ts).
  employees: {
    table: 'till_employees',
    tillColumn: 'till_id',
    columns: ['name', 'role', 'pin', 'created_at', 'updated_at'],
  },
  printers: {
    table: 'printers',
    tillColumn: 'till_id',
    columns: [
      'till_id',
      'name',
      'connection',
      'paper_width',
      'command_set',
      'code_page',
      'status',
      'status_at',
      'deleted_at',
      'created_at',
      'updated_at',
    ],
  },
  print_jobs: {
    table: 'print_jobs',
    tillColumn: 'till_id',
    columns: [
      'printer_id',
      'till_id',
      'order_id',
      'receipt',
      'text',
      'status',
      'failure_reason',
      'failure_message',
      'created_at',
      'updated_at',
      'completed_at',
    ],
  },
  shifts: {
    table: 'shifts',
    tillColumn: 'till_id',
    columns: [
      'till_id',
      'store_id',
      'cashier_id',
      'status',
      'currency',
      'opening_float',
      'opened_at',
      'closed_at',
      'counted',
      'expected_cash',
      'counted_cash',
      'created_at',
      'updated_at',
    ],
  },
  // The front desk's (hospitality app); rows exist once the property was set up, installed or not.
  property: {
    table: 'hospitality_properties',
    columns: PROPERTY_COLUMNS,
  },
  room_types: {
    table: 'hospitality_room_types',
    deleted: 'archived_at IS NOT NULL',
    columns: [
      'name',
      'max_adults',
      'max_children',
      'base_rate',
      'day_use_rate',
      'day_use_block_minutes',
      'booking_mode',
      'confirmation',
    ],
  },
  rooms: {
    table: 'hospitality_rooms',
    deleted: 'archived_at IS NOT NULL',
    columns: ['room_type_id', 'number', 'floor', 'housekeeping'],
  },
  room_rates: {
    table: 'hospitality_rates',
    columns: ['room_type_id', 'starts_on', 'ends_on', 'days_of_week', 'rate'],
  },
  // The desk's stays: those holding a room, and the rest until a week after they ended (core's
  // `leftDeskWindow`, by which the till drops them). A stay leaves that window only as time passes,
  // never to come back, so no change is ever missed by it.
  reservations: {
    table: 'hospitality_reservations',
    only: `(status IN (${ROOM_HOLDING_STATUSES.map((status) => `'${status}'`).join(', ')})
      OR ends_at > {now}::timestamptz - interval '${DESK_STAY_WINDOW_DAYS} days')`,
    columns: [
      'room_type_id',
      'room_id',
      'status',
      'mode',
      'arrival',
      'departure',
      'starts_at',
      'ends_at',
      'adults',
      'children',
      'guest_name',
      'guest_phone',
      'source',
      'quote',
      'total',
      'folio_balance',
      'folio_nights_posted',
      'registered_guests',
      'checked_in_at',
      'checked_out_at',
    ],
  },
  // Clashes between desks, every one (a handful): a resolved one goes down deleted.
  desk_conflicts: {
    table: 'hospitality_desk_conflicts',
    deleted: 'resolved_at IS NOT NULL',
    columns: [
      'command_id',
      'command_type',
      'till_id',
      'till_name',
      'reservation_id',
      'guest_name',
      'room_id',
      'room_number',
      'holder_reservation_id',
      'holder_guest_name',
      'code',
      'message',
      'created_at',
    ],
  },
  // The door's (events app): see `doorWindow`. Tickets come with their code (null until paid).
  ticketed_events: {
    table: 'ticketed_events',
    only: doorWindow('ticketed_events', 'id'),
    columns: [
      'name',
      'venue',
      'status',
      'starts_at',
      'ends_at',
      'doors_open_at',
      'time_zone',
      'capacity',
      'door_public_key',
    ],
  },
  event_tiers: {
    table: 'event_tiers',
    only: doorWindow('event_tiers', 'event_id'),
    columns: ['event_id', 'name', 'price', 'quantity', 'taken'],
  },
  tickets: {
    table: 'event_tickets',
    only: doorWindow('event_tickets', 'event_id'),
    columns: ['event_id', 'tier_id', 'order_id', 'status', 'holder_name', 'code'],
  },
  checkins: {
    table: 'event_checkins',
    only: doorWindow('event_checkins', 'event_id'),
    columns: ['event_id', 'ticket_id', 'door', 'checked_in_at', 'scan_id'],
  },
  double_admissions: {
    table: 'event_double_admissions',
    only: doorWindow('event_double_admissions', 'event_id'),
    columns: [
      'event_id',
      'ticket_id',
      'holder_name',
      'checkin_id',
      'first_door',
      'first_at',
      'door',
      'admitted_at',
      'scan_id',
      'detected_at',
    ],
  },
} as const satisfies Record<string, CollectionSource>;

export type Collection = keyof typeof COLLECTIONS;
export const COLLECTION_NAMES = Object.keys(COLLECTIONS) as Collection[];

/** The table a collection reads, for tests and tools that check the migrations agree. */
export const collectionTable = (collection: Collection): string => COLLECTIONS[collection].table;

/** Whose changes a till sees: its merchant and mode, for per-store collections its store, for its own rows itself. */
export interface ChangeScope {
  merchantId: string;
  livemode: boolean;
  storeId: string;
  tillId: string;
  /** The reader's time, for collections a till needs only part of (`only`). */
  now: Date;
}

/** Where a reader stopped: the last row it was given. Opaque to the till. */
export interface Checkpoint {
  seq: number;
  id: string;
}

/** A row as the table holds it (the collection's columns), with its place in the feed. */
export type ChangeRow = Record<string, unknown> & { id: string; change_seq: number; deleted: boolean };

export interface ChangePage {
  rows: ChangeRow[];
  /** Where to read from next: the last row's place, or the checkpoint given when nothing changed. */
  checkpoint: Checkpoint | null;
}

/** A till's largest page; the sync protocol's limit. */
export const MAX_PAGE_SIZE = 1_000;

const invalid = (
  code: 'parameter_invalid' | 'limit_invalid' | 'cursor_invalid',
  field: string,
  message: string,
) => new AppError(code, `${field}: ${message}`, { details: { [field]: message } });

const statements = new Map<Collection, { name: string; text: string }>();

/** The source's `only` condition, its time the statement's parameter `now`. */
const onlyAt = (source: CollectionSource, now: string): string =>
  source.only ? ` AND ${source.only.replaceAll('{now}', now)}` : '';

/**
 * Keyset on (change_seq, id), bounded by the oldest transaction still running:
 * no transaction below `pg_snapshot_xmin` can commit anything any more, so the
 * rows below it are all the rows there will ever be there, and a checkpoint
 * taken from them never passes a change that commits later. Named, so each
 * connection plans it once: a till's live pull is mostly planning otherwise.
 */
function statementFor(collection: Collection): { name: string; text: string } {
  let statement = statements.get(collection);
  if (statement) return statement;
  const source: CollectionSource = COLLECTIONS[collection];
  const store = source.storeColumn
    ? ` AND ${source.storeColumn} = $6`
    : source.tillColumn
      ? ` AND ${source.tillColumn} = $6`
      : '';
  // The reader's time follows the scope's parameter, when the source has one (an unused parameter has no type).
  const now = source.storeColumn || source.tillColumn ? '$7' : '$6';
  const text = `SELECT id, change_seq, ${source.deleted ?? 'deleted_at IS NOT NULL'} AS deleted, ${source.columns.join(', ')}
    FROM ${source.table}
    WHERE merchant_id = $1 AND livemode = $2${store}${onlyAt(source, now)}
      AND (change_seq, id) > ($3, $4)
      AND change_seq < (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint)
    ORDER BY change_seq, id
    LIMIT $5`;
  statement = { name: `change_feed_${collection}`, text };
  statements.set(collection, statement);
  return statement;
}

/**
 * The page of `collection`'s changes in `scope` after `since` (from the start
 * when null), oldest first. Each statement reads with a snapshot of its own: a
 * read inside a transaction that writes would not see its own changes, and is
 * refused.
 */
export async function readChanges(
  db: Queryable,
  collection: Collection,
  scope: ChangeScope,
  since: Checkpoint | null,
  limit: number,
): Promise<ChangePage> {
  if (isTransaction(db)) throw new Error('the change feed reads outside transactions');
  if (!Object.hasOwn(COLLECTIONS, collection))
    throw invalid('parameter_invalid', 'collection', `must be one of ${COLLECTION_NAMES.join(', ')}`);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE)
    throw invalid('limit_invalid', 'limit', `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  if (since && (!Number.isSafeInteger(since.seq) || since.seq < 0 || typeof since.id !== 'string'))
    throw invalid('cursor_invalid', 'checkpoint', 'must be a checkpoint the feed gave');
  const after = since ?? { seq: -1, id: '' };
  const params: unknown[] = [scope.merchantId, scope.livemode, after.seq, after.id, limit];
  const source: CollectionSource = COLLECTIONS[collection];
  if (source.storeColumn) params.push(scope.storeId);
  else if (source.tillColumn) params.push(scope.tillId);
  if (source.only) params.push(scope.now);
  const { rows } = await db.query<ChangeRow>(statementFor(collection), params);
  const last = rows.at(-1);
  return { rows, checkpoint: last ? { seq: last.change_seq, id: last.id } : since };
}

let changedStatement: { name: string; text: string } | undefined;

/**
 * Which collections changed in `scope` after `since` (a change sequence), and
 * the newest change among them, under the same bound as `readChanges`: the
 * live stream's hint, so a till pulls only what moved.
 */
export async function changedCollections(
  db: Queryable,
  scope: ChangeScope,
  since: number,
): Promise<{ collections: Collection[]; seq: number }> {
  changedStatement ??= {
    name: 'change_feed_changed',
    text: `WITH bound AS (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS xmin)
      ${COLLECTION_NAMES.map((collection) => {
        const source: CollectionSource = COLLECTIONS[collection];
        const own = source.storeColumn
          ? ` AND ${source.storeColumn} = $4`
          : source.tillColumn
            ? ` AND ${source.tillColumn} = $5`
            : '';
        return `SELECT '${collection}' AS collection,
          (SELECT max(change_seq) FROM ${source.table}
           WHERE merchant_id = $1 AND livemode = $2${own}${onlyAt(source, '$6')} AND change_seq > $3 AND change_seq < (SELECT xmin FROM bound)) AS seq`;
      }).join('\n      UNION ALL ')}`,
  };
  const { rows } = await db.query<{ collection: Collection; seq: number | null }>(changedStatement, [
    scope.merchantId,
    scope.livemode,
    since,
    scope.storeId,
    scope.tillId,
    scope.now,
  ]);
  const changed = rows.filter((row) => row.seq !== null);
  return {
    collections: changed.map((row) => row.collection),
    seq: Math.max(since, ...changed.map((row) => row.seq!)),
  };
}
