/**
 * What a till and the server say to each other over `/trpc`, as zod schemas
 * both sides validate with. Down: documents per collection, pulled from a
 * checkpoint, with a live hint stream. Up: commands with client-made ids, each
 * applied once (the command id is its idempotency key).
 */
import { z } from 'zod';
import { createCustomerCommand } from '../customers.ts';
import type { ErrorCode, ErrorDetails } from '../errors.ts';
import { COMMAND_ID_PATTERN } from '../ids.ts';
import { currencySchema } from '../money.ts';
import {
  ORDER_FLAGS,
  MAX_UNIX_SECONDS,
  createOrderCommand,
  referenceSchema,
  refundOrderCommand,
  textSchema,
  voidOrderCommand,
} from '../retail/commands.ts';
import { RECEIPT_LANGUAGES } from '../receipt.ts';
import { receiptTokenSchema } from '../retail/receipt-link.ts';
import { VAT_REGIONS } from '../retail/tax.ts';
import { PRINT_JOB_FAILURE_REASONS, PRINT_JOB_STATUSES } from '../retail/print-job-status.ts';
import { shiftIdSchema } from '../retail/shift-status.ts';
import { scaleBarcodeFormatSchema } from '../retail/scale-barcode.ts';
import { PRINTER_STATUSES } from '../printer-settings.ts';
import { BOOKING_MODES, CONFIRMATION_MODES, RESERVATION_SOURCES } from '../hospitality/commands.ts';
import { frontDeskCommands } from '../hospitality/front-desk.ts';
import { HOUSEKEEPING_STATUSES, RESERVATION_STATUSES } from '../hospitality/states.ts';
import { doorCommands } from '../events/door.ts';
import { boxOfficeCommands } from '../events/box-office.ts';
import { EVENT_STATUSES, TICKET_STATUSES } from '../events/states.ts';

export { PRINT_JOB_FAILURE_REASONS };

// --------------------------------------------------------------------- down

/** The collections a till pulls; each maps to one server table's change feed. */
export const PULL_COLLECTIONS = [
  'products',
  'variants',
  'categories',
  'stores',
  'stock_levels',
  'customers',
  'employees',
  'printers',
  'print_jobs',
  'orders',
  'shifts',
  // The front desk's (hospitality app): the property, its room types, rooms, rates and stays.
  'property',
  'room_types',
  'rooms',
  'room_rates',
  'reservations',
  'desk_conflicts',
  // The door's (events app): events on sale or on today, their tiers, tickets, admissions and double admissions.
  'ticketed_events',
  'event_tiers',
  'tickets',
  'checkins',
  'double_admissions',
] as const;
export type PullCollection = (typeof PULL_COLLECTIONS)[number];

/** Where a pull left off: the change sequence and id of the last document it returned. */
export const checkpointSchema = z.object({ seq: z.number().int().min(0), id: z.string().max(255) });
export type Checkpoint = z.infer<typeof checkpointSchema>;

export const PULL_PAGE_MAX = 1000;

export const pullInput = z.object({
  collection: z.enum(PULL_COLLECTIONS),
  checkpoint: checkpointSchema.nullable(),
  limit: z.number().int().min(1).max(PULL_PAGE_MAX),
});
export type PullInput = z.infer<typeof pullInput>;

/** Every pulled document carries its id and RxDB's deletion flag; the rest is per collection. */
const doc = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ id: z.string(), _deleted: z.boolean(), ...shape });

export const productDoc = doc({
  name: z.string(),
  sku: z.string().nullable(),
  barcodes: z.array(z.string()),
  price: z.number().int(),
  currency: z.string(),
  tax_rate: z.enum(['standard', 'zero_rated', 'exempt']),
  category: z.string().nullable(),
  unit: z.enum(['piece', 'kg', 'litre', 'metre']),
  track_stock: z.boolean(),
  active: z.boolean(),
  /** The item code on the store's scale labels; absent from documents pulled before it existed. */
  plu: z.string().nullable().optional(),
  /** Its place on the Favourites tiles, 1 first (null: not there); absent from documents pulled before it existed. */
  favourite_position: z.number().int().nullable().optional(),
});
export const variantDoc = doc({
  product: z.string(),
  name: z.string(),
  sku: z.string().nullable(),
  barcodes: z.array(z.string()),
  price: z.number().int(),
  active: z.boolean(),
});
export const categoryDoc = doc({ name: z.string() });
export const storeDoc = doc({
  name: z.string(),
  address_lines: z.array(z.string()),
  phone: z.string().nullable(),
  tin: z.string().nullable(),
  vrn: z.string().nullable(),
  vat_region: z.enum(VAT_REGIONS),
  currency: z.string(),
  receipt_header: z.array(z.string()),
  receipt_footer: z.array(z.string()),
  receipt_language: z.enum(RECEIPT_LANGUAGES),
  /** How the store's scale labels read; absent from documents pulled before it existed (then the default). */
  scale_barcodes: scaleBarcodeFormatSchema.optional(),
});
export const stockLevelDoc = doc({
  store: z.string(),
  product: z.string(),
  variant: z.string().nullable(),
  on_hand_milli: z.number().int(),
  reorder_level_milli: z.number().int().nullable(),
});
export const customerDoc = doc({
  name: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
});

/** The server's hash of a PIN (`hashPin` in `@tz/core`); never sent to a till. */
export const pinHashSchema = z.object({
  algorithm: z.literal('pbkdf2-sha256'),
  iterations: z.number().int().min(1),
  /** base64 */
  salt: z.string(),
  /** base64 */
  hash: z.string(),
});
export type PinHash = z.infer<typeof pinHashSchema>;

/**
 * What a till checks a PIN against offline (`matchTillPin` in `@tz/core`):
 * the server's hash of the PIN (`inner`'s salt and iterations) derived again
 * under this till's own salt.
 */
export const tillPinSchema = z.object({
  algorithm: z.literal('pbkdf2-sha256-till'),
  inner: z.object({ iterations: z.number().int().min(1), salt: z.string() }),
  iterations: z.number().int().min(1),
  /** base64: the till's salt */
  salt: z.string(),
  /** base64 */
  hash: z.string(),
});
export type TillPin = z.infer<typeof tillPinSchema>;

/** An active employee of the till's store, as that till holds it; one deactivated or moved away is deleted. */
export const employeeDoc = doc({
  name: z.string(),
  role: z.enum(['cashier', 'manager']),
  pin: tillPinSchema.nullable(),
});
export const printerDoc = doc({
  till: z.string(),
  name: z.string(),
  connection: z.string(),
  paper_width: z.union([z.literal(58), z.literal(80)]),
  command_set: z.enum(['epson', 'star']),
  code_page: z.string().nullable(),
});
export const printJobDoc = doc({
  printer: z.string(),
  status: z.enum(PRINT_JOB_STATUSES),
  /** A receipt document (`ReceiptDocument`) or plain text to print. */
  receipt: z.unknown().nullable(),
  text: z.string().nullable(),
  failure_reason: z.enum(PRINT_JOB_FAILURE_REASONS).nullable(),
  created: z.number().int(),
});
/** The server's view of a sale this till made: the outcome of its command. */
export const orderDoc = doc({
  client_order_id: z.string().nullable(),
  receipt_number: z.string(),
  status: z.string(),
  total: z.number().int(),
  refunded_amount: z.number().int(),
  currency: z.string(),
  /** What the server noticed about an offline sale (price changed, stock ran out…); the sale stands. */
  flags: z.array(z.enum(ORDER_FLAGS)),
  created: z.number().int(),
});
export const shiftDoc = doc({
  till: z.string(),
  cashier: z.string(),
  status: z.enum(['open', 'closed']),
  opening_float: z.number().int(),
  expected_cash: z.number().int().nullable(),
  counted_cash: z.number().int().nullable(),
  opened_at: z.number().int(),
  closed_at: z.number().int().nullable(),
});

/** The hotel, one document (id `property`): what a quote and the desk's day need. */
export const propertyDoc = doc({
  name: z.string(),
  address_lines: z.array(z.string()),
  phone: z.string().nullable(),
  time_zone: z.string(),
  check_in_time: z.string(),
  check_out_time: z.string(),
  star_rating: z.number().int().nullable(),
  region: z.enum(VAT_REGIONS),
  usd_rate: z.number().int().nullable(),
  hotel_levy_bps: z.number().int().nullable(),
  tourism_levy_bps: z.number().int().nullable(),
  infrastructure_tax_usd: z.number().int().nullable(),
  vat_bps: z.number().int().nullable(),
  booking_mode: z.enum(BOOKING_MODES),
  confirmation: z.enum(CONFIRMATION_MODES),
});
/** A room type; an archived one is deleted. */
export const roomTypeDoc = doc({
  name: z.string(),
  max_adults: z.number().int(),
  max_children: z.number().int(),
  base_rate: z.number().int(),
  day_use_rate: z.number().int().nullable(),
  day_use_block_minutes: z.number().int(),
  booking_mode: z.enum(BOOKING_MODES).nullable(),
  confirmation: z.enum(CONFIRMATION_MODES).nullable(),
});
/** A room; an archived one is deleted. */
export const roomDoc = doc({
  room_type: z.string(),
  number: z.string(),
  floor: z.string().nullable(),
  housekeeping: z.enum(HOUSEKEEPING_STATUSES),
});
/** A rate by date range (and days of the week, 0 = Sunday) for a room type; a removed one is deleted. */
export const roomRateDoc = doc({
  room_type: z.string(),
  starts_on: z.string(),
  ends_on: z.string(),
  days_of_week: z.array(z.number().int()).nullable(),
  rate: z.number().int(),
});
/**
 * A stay, with its folio's balance and the nights posted to it as the server
 * holds them (the desk adds the nights due since and the payments it took).
 */
export const reservationDoc = doc({
  room_type: z.string(),
  room: z.string().nullable(),
  status: z.enum(RESERVATION_STATUSES),
  mode: z.enum(BOOKING_MODES),
  arrival: z.string().nullable(),
  departure: z.string().nullable(),
  /** Unix seconds. */
  starts_at: z.number().int(),
  ends_at: z.number().int(),
  adults: z.number().int(),
  children: z.number().int(),
  guest_name: z.string(),
  guest_phone: z.string().nullable(),
  source: z.enum(RESERVATION_SOURCES),
  quote: z.unknown(),
  total: z.number().int(),
  folio_balance: z.number().int(),
  folio_nights_posted: z.number().int(),
  /** How many guests are in the register. */
  registered_guests: z.number().int(),
  checked_in_at: z.number().int().nullable(),
  checked_out_at: z.number().int().nullable(),
});

/**
 * A desk's step the server refused because the room was taken first (by
 * another desk or the API), for every desk to see until one resolves it
 * (`desk_conflict.resolve`; a resolved one arrives deleted). `command` is the
 * refused command's id, `till_name` the desk that sent it; `holder_*` the stay
 * that holds the room.
 */
export const deskConflictDoc = doc({
  command: z.string(),
  command_type: z.string(),
  till: z.string(),
  till_name: z.string(),
  reservation: z.string().nullable(),
  guest_name: z.string().nullable(),
  room: z.string().nullable(),
  room_number: z.string().nullable(),
  holder_reservation: z.string().nullable(),
  holder_guest_name: z.string().nullable(),
  code: z.string(),
  message: z.string(),
  /** Unix seconds. */
  created_at: z.number().int(),
});

/**
 * A ticketed event a door may admit to: published (or canceled, so its doors
 * say so) and not ended more than a day ago. `door_key` is its public key
 * (raw Ed25519, base64url) for `doorVerdict`; `doors_open_at` is the moment
 * check-in opens (the event's own, or six hours before the start).
 */
export const ticketedEventDoc = doc({
  name: z.string(),
  venue: z.string(),
  status: z.enum(EVENT_STATUSES),
  /** Unix seconds. */
  starts_at: z.number().int(),
  ends_at: z.number().int(),
  doors_open_at: z.number().int(),
  time_zone: z.string(),
  capacity: z.number().int(),
  door_key: z.string(),
});

export const eventTierDoc = doc({
  event: z.string(),
  name: z.string(),
  price: z.number().int(),
  /** Tickets of the tier not held or sold, as the server counted when the tier was pulled (the box office sells within it). */
  left: z.number().int().optional(),
});

/**
 * A ticket of such an event, issued or not: `code` is the one code that
 * admits it now (null until paid). A code the door reads that is not this
 * one was revoked by a change to the ticket (the revocation list is the
 * tickets whose status is `void`, or whose code changed).
 */
export const ticketDoc = doc({
  event: z.string(),
  tier: z.string(),
  order: z.string(),
  status: z.enum(TICKET_STATUSES),
  holder_name: z.string(),
  code: z.string().nullable(),
});

/** An admission: the one per ticket the server holds (`UNIQUE (ticket_id)`). */
export const checkinDoc = doc({
  event: z.string(),
  ticket: z.string(),
  door: z.string(),
  /** Unix seconds: when the door admitted. */
  at: z.number().int(),
  /** The door's scan id, when a door made it (null from the REST API). */
  scan: z.string().nullable(),
});

/** A ticket admitted again by a door that could not know of the first admission (offline). */
export const doubleAdmissionDoc = doc({
  event: z.string(),
  ticket: z.string(),
  holder_name: z.string(),
  /** The admission that stands (`checkins`). */
  first: z.strictObject({ checkin: z.string(), door: z.string(), at: z.number().int() }),
  /** The later door's. */
  door: z.string(),
  at: z.number().int(),
  scan: z.string(),
  /** Unix seconds: when the server learnt of it (the report's push). */
  detected_at: z.number().int(),
});

export const PULL_DOCUMENTS = {
  products: productDoc,
  variants: variantDoc,
  categories: categoryDoc,
  stores: storeDoc,
  stock_levels: stockLevelDoc,
  customers: customerDoc,
  employees: employeeDoc,
  printers: printerDoc,
  print_jobs: printJobDoc,
  orders: orderDoc,
  shifts: shiftDoc,
  property: propertyDoc,
  room_types: roomTypeDoc,
  rooms: roomDoc,
  room_rates: roomRateDoc,
  reservations: reservationDoc,
  desk_conflicts: deskConflictDoc,
  ticketed_events: ticketedEventDoc,
  event_tiers: eventTierDoc,
  tickets: ticketDoc,
  checkins: checkinDoc,
  double_admissions: doubleAdmissionDoc,
} as const satisfies Record<PullCollection, z.ZodType>;
export type PullDocument<C extends PullCollection> = z.infer<(typeof PULL_DOCUMENTS)[C]>;

export interface PullResult<C extends PullCollection = PullCollection> {
  documents: Array<PullDocument<C>>;
  /** Null only when nothing was ever returned; pass it back unchanged on the next pull. */
  checkpoint: Checkpoint | null;
}

/**
 * The live stream's events, each `tracked()` by the server's change sequence so a
 * reconnecting till resumes after the last one it saw: the collections that
 * changed, which the till then pulls.
 */
export interface ChangeHint {
  collections: PullCollection[];
  /** Mobile money payments this till started whose status changed. */
  payments?: string[];
}

// ----------------------------------------------------------------------- up

/** Command ids are made by the till: a ULID with the `cmd_` prefix, unique forever. */
export const commandIdSchema = z.string().regex(COMMAND_ID_PATTERN, { error: 'must be cmd_ and a ULID' });

const orderRef = {
  order: referenceSchema.optional().describe('The order’s id (ord_…)'),
  client_order_id: referenceSchema.optional().describe('The till’s id for the sale, when it sold offline'),
};
const oneOrderRef = (
  value: { order?: string | undefined; client_order_id?: string | undefined },
  ctx: z.RefinementCtx,
) => {
  if ((value.order === undefined) === (value.client_order_id === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['order'], message: 'give order or client_order_id (one of them)' });
  }
};

const unixSeconds = z.number().int().min(0).max(MAX_UNIX_SECONDS);
const cash = z.number().int().min(0).max(999_999_999_999);

/**
 * A till's sale: the REST order body, with who sold it both by id (kept on the
 * order, counted per cashier in the shift's Z report) and by name (printed on
 * the receipt, so the server's copy of the receipt reads as the paper did), and
 * its receipt page's token (tills before it send none).
 */
const tillOrderFields = createOrderCommand.omit({ till: true, cashier: true }).safeExtend({
  till_id: referenceSchema.optional().describe('The till (till_…) that rang the sale up'),
  till_name: textSchema(100).min(1).optional().describe('The till’s name, as its receipt printed it'),
  cashier_id: referenceSchema.optional().describe('The employee (emp_…) who sold'),
  cashier_name: textSchema(100).min(1).optional().describe('The cashier’s name, as the receipt printed it'),
  receipt_token: receiptTokenSchema.optional(),
});
export type TillOrderWire = z.input<typeof tillOrderFields>;
export type TillOrderPayload = z.output<typeof tillOrderFields>;

/**
 * Tills before the names sent the ids as `till` and `cashier` (a till updated
 * with commands still queued pushes them so): read as `till_id` and `cashier_id`.
 */
function idsFromOldShape(payload: unknown): unknown {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload;
  const { till, cashier, ...rest } = payload as Record<string, unknown>;
  if ((till === undefined && cashier === undefined) || 'till_id' in rest || 'cashier_id' in rest)
    return payload;
  return {
    ...rest,
    ...(till === undefined ? {} : { till_id: till }),
    ...(cashier === undefined ? {} : { cashier_id: cashier }),
  };
}

/** Each command type and its payload; the server applies it through the same service a REST call uses. */
export const commandPayloads = {
  'order.create': z.preprocess(idsFromOldShape, tillOrderFields),
  'order.refund': refundOrderCommand.safeExtend(orderRef).superRefine(oneOrderRef),
  'order.void': voidOrderCommand.safeExtend(orderRef).superRefine(oneOrderRef),
  'shift.open': z.strictObject({
    shift: shiftIdSchema.describe("The till’s id for the shift, made with newId('shift')"),
    cashier: referenceSchema.describe('The employee (emp_…) opening it'),
    opening_float: cash,
    opened_at: unixSeconds,
  }),
  'shift.cash_movement': z.strictObject({
    shift: shiftIdSchema,
    kind: z.enum(['pay_in', 'pay_out']),
    amount: cash.min(1),
    reason: z.string().trim().min(1).max(200),
    at: unixSeconds,
  }),
  /** The drawer opened with no sale: money does not move, the shift records who, why and when. */
  'shift.no_sale': z.strictObject({
    shift: shiftIdSchema,
    cashier: referenceSchema.describe('The employee (emp_…) who opened the drawer'),
    reason: z.string().trim().min(1).max(200),
    approved_by: referenceSchema.optional().describe('The manager (emp_…) whose PIN approved it, when asked'),
    at: unixSeconds,
  }),
  'shift.close': z.strictObject({
    shift: shiftIdSchema,
    counted: z
      .array(z.strictObject({ method: z.enum(['cash', 'mobile_money', 'card']), amount: cash }))
      .max(3),
    closed_at: unixSeconds,
  }),
  'print_job.result': z
    .strictObject({
      print_job: referenceSchema,
      status: z.enum(['printed', 'failed']),
      failure_reason: z.enum(PRINT_JOB_FAILURE_REASONS).optional(),
      message: z.string().max(500).optional(),
    })
    .superRefine((value, ctx) => {
      if ((value.status === 'failed') !== (value.failure_reason !== undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['failure_reason'],
          message: value.status === 'failed' ? 'is required when the job failed' : 'is only for failed jobs',
        });
      }
    }),
  'customer.create': createCustomerCommand,
  ...frontDeskCommands,
  ...doorCommands,
  ...boxOfficeCommands,
} as const;
export type CommandType = keyof typeof commandPayloads;
export const COMMAND_TYPES = Object.keys(commandPayloads) as CommandType[];

/** The envelope: a payload is checked against its type's schema when applied, so one bad command never blocks the rest. */
export const commandSchema = z.object({
  id: commandIdSchema,
  type: z.enum(COMMAND_TYPES as [CommandType, ...CommandType[]]),
  /** Unix milliseconds on the till when the command was made. */
  created_at: z.number().int().min(0),
  payload: z.unknown(),
});
export type Command = z.infer<typeof commandSchema>;

export const PUSH_BATCH_MAX = 100;
/**
 * The most a push's body may weigh: the till sends fewer commands rather than
 * more bytes (one command, at its schema's limits, weighs well under this).
 */
export const PUSH_BODY_MAX_BYTES = 2_000_000;

/**
 * The first commands, in order, that one push may carry: at most
 * PUSH_BATCH_MAX, and no more than fit a body of `maxBytes` (always the first,
 * which fits by its schema's limits). The rest go in the next push.
 */
export function pushBatch<T>(commands: readonly T[], maxBytes = PUSH_BODY_MAX_BYTES): T[] {
  const encoder = new TextEncoder();
  let bytes = '{"commands":[]}'.length;
  let count = 0;
  for (const command of commands.slice(0, PUSH_BATCH_MAX)) {
    bytes += encoder.encode(JSON.stringify(command)).length + (count > 0 ? 1 : 0);
    if (bytes > maxBytes && count > 0) break;
    count += 1;
  }
  return commands.slice(0, Math.max(1, count));
}
export const pushInput = z.object({ commands: z.array(commandSchema).min(1).max(PUSH_BATCH_MAX) });

/**
 * A command's outcome. `applied`: done, now or before (a repeat answers the
 * stored outcome); `refused`: it can never apply (malformed, or the till is
 * revoked), and the till keeps it on screen with the reason, never drops it.
 * A command that could not be tried (server busy, database down) gets no
 * result: the till sends it again.
 */
export type CommandResult =
  | { id: string; status: 'applied'; result: Record<string, unknown> }
  | {
      id: string;
      status: 'refused';
      error: { code: ErrorCode; message: string; details?: ErrorDetails };
    };

export interface PushResult {
  results: CommandResult[];
}

/**
 * Where a live stream resumes: the id of the last hint the till saw (a change
 * sequence, so at most JavaScript's and PostgreSQL's exact integers).
 */
export const changesInput = z.object({
  lastEventId: z
    .string()
    .regex(/^\d{1,16}$/)
    .refine((id) => Number(id) <= Number.MAX_SAFE_INTEGER, { error: 'is not a change sequence' })
    .nullish(),
});

/** What a till reports each time it syncs, shown on `GET /v1/tills/{id}`. */
export const reportInput = z.object({
  app_version: z.string().max(40),
  backlog: z.number().int().min(0).max(1_000_000),
  /** Each of the till's printers as it last answered (its status shows on `GET /v1/printers`). */
  printers: z
    .array(z.object({ printer: referenceSchema, status: z.enum(PRINTER_STATUSES) }))
    .max(20)
    .optional(),
});
export type ReportInput = z.infer<typeof reportInput>;

export const pairInput = z.object({ code: z.string().trim().min(4).max(32) });

/**
 * A mobile money tender, online only: the till asks for a USSD push (the same
 * payment service `POST /v1/payments` uses; `id` is the idempotency key), then
 * waits for `paid` (a `payments` hint on the live stream, or `sync.getPayment`).
 */
export const startPaymentInput = z.object({
  id: commandIdSchema,
  amount: z.number().int().min(1).max(999_999_999_999),
  currency: currencySchema,
  phone: z.string().min(9).max(20),
});
export const getPaymentInput = z.object({ payment: z.string().min(1).max(255) });
export interface TillPayment {
  id: string;
  status: 'pending' | 'paid' | 'failed' | 'refunded';
  amount: number;
  currency: string;
  phone: string;
  failure_code: string | null;
  /**
   * The provider's reference (the one in the payer's SMS), for the receipt;
   * null until the provider gave one, absent from a server that predates it.
   */
  reference?: string | null;
}

/** What a pairing answers: the credential is shown to this device once. */
export interface PairResult {
  credential: string;
  till: { id: string; name: string; store: string; receipt_prefix: string };
  merchant: { id: string; business_name: string };
  livemode: boolean;
  /** The server's public address (`PUBLIC_URL`), which links the till hands out start with. */
  public_url?: string;
}

/**
 * The tRPC procedures at `/trpc` (all under `sync.`): `pair` (mutation, no
 * credential), `pull` (query), `push`, `report`, `startPayment` (mutations),
 * `getPayment` (query), `doorCheckin` (mutation, `doorCheckinInput` in
 * `events/door.ts`, answered with the check-in's verdict object as
 * `POST /v1/events/checkin` answers), `changes` (SSE subscription, input
 * `{ lastEventId?: string | null }`, events `tracked(seq, ChangeHint)`).
 * Every call but `pair` sends `Authorization: Bearer <credential>` (the
 * subscription sends it as `connectionParams.credential`). A revoked till is
 * answered UNAUTHORIZED with `data.code = 'till_revoked'`.
 */
export const SYNC_PROCEDURES = [
  'pair',
  'pull',
  'push',
  'report',
  'startPayment',
  'getPayment',
  'doorCheckin',
  'changes',
] as const;
