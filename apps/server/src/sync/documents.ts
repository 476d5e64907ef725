/**
 * Feed rows as the documents a till stores (`PULL_DOCUMENTS` in the sync
 * protocol): each collection's row, renamed to the protocol's fields.
 */
import { DEFAULT_DOORS_OPEN_SECONDS, DEFAULT_SCALE_BARCODE_FORMAT, scaleBarcodeFormatSchema } from '@tz/core';
import type { PullCollection, PullDocument } from '@tz/core';
import { tillEmployeeDocument } from '../tills/till-employees.ts';
import { printerDocument, type PrinterRow } from '../tills/printers.ts';
import { printJobDocument, type PrintJobRow } from '../tills/print-jobs.ts';
import { shiftDocument, type ShiftRow } from '../tills/shifts.ts';
import { unixSeconds } from '../infra/time.ts';
import type { ChangeRow } from './changes.ts';

type Row = ChangeRow & Record<string, unknown>;
/** A stored format as the protocol has it; one the store never set reads as the default. */
const scaleBarcodes = (value: unknown) => {
  const parsed = scaleBarcodeFormatSchema.safeParse(value);
  return parsed.success ? parsed.data : DEFAULT_SCALE_BARCODE_FORMAT;
};
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const texts = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
const integer = (value: unknown): number | null => (value === null ? null : Number(value));
const seconds = (value: unknown): number | null => (value instanceof Date ? unixSeconds(value) : null);
type Doc<C extends PullCollection> = PullDocument<C>;

const MAPPERS: { [C in PullCollection]: (row: Row) => Omit<PullDocument<C>, 'id' | '_deleted'> } = {
  products: (row) => ({
    name: String(row.name),
    sku: text(row.sku),
    barcodes: texts(row.barcodes),
    price: Number(row.price),
    currency: String(row.currency),
    tax_rate: row.tax_rate as PullDocument<'products'>['tax_rate'],
    category: text(row.category_id),
    unit: row.unit as PullDocument<'products'>['unit'],
    track_stock: Boolean(row.track_stock),
    active: Boolean(row.active),
    plu: text(row.plu),
    favourite_position: typeof row.favourite_position === 'number' ? row.favourite_position : null,
  }),
  variants: (row) => ({
    product: String(row.product_id),
    name: String(row.name),
    sku: text(row.sku),
    barcodes: texts(row.barcodes),
    price: Number(row.price),
    active: Boolean(row.active),
  }),
  categories: (row) => ({ name: String(row.name) }),
  stores: (row) => ({
    name: String(row.name),
    address_lines: texts(row.address_lines),
    phone: text(row.phone),
    tin: text(row.tin),
    vrn: text(row.vrn),
    vat_region: row.vat_region as PullDocument<'stores'>['vat_region'],
    currency: String(row.currency),
    receipt_header: texts(row.receipt_header),
    receipt_footer: texts(row.receipt_footer),
    receipt_language: row.receipt_language as PullDocument<'stores'>['receipt_language'],
    scale_barcodes: scaleBarcodes(row.scale_barcodes),
  }),
  stock_levels: (row) => ({
    store: String(row.store_id),
    product: String(row.product_id),
    variant: text(row.variant_id),
    on_hand_milli: Number(row.on_hand_milli),
    reorder_level_milli: row.reorder_level_milli === null ? null : Number(row.reorder_level_milli),
  }),
  customers: (row) => ({ name: text(row.name), phone: text(row.phone), email: text(row.email) }),
  orders: (row) => ({
    client_order_id: text(row.client_order_id),
    receipt_number: String(row.receipt_number),
    status: String(row.status),
    total: Number(row.total),
    refunded_amount: Number(row.refunded_amount),
    currency: String(row.currency),
    flags: texts(row.flags) as PullDocument<'orders'>['flags'],
    created: unixSeconds(row.created_at as Date),
  }),
  employees: (row) =>
    withoutKeys(tillEmployeeDocument(row as unknown as Parameters<typeof tillEmployeeDocument>[0])),
  printers: (row) => withoutKeys(printerDocument(row as unknown as PrinterRow)),
  print_jobs: (row) => withoutKeys(printJobDocument(row as unknown as PrintJobRow)),
  shifts: (row) => withoutKeys(shiftDocument(row as unknown as ShiftRow)),
  property: (row) => ({
    name: String(row.name),
    address_lines: texts(row.address_lines),
    phone: text(row.phone),
    time_zone: String(row.time_zone),
    check_in_time: String(row.check_in_time),
    check_out_time: String(row.check_out_time),
    star_rating: integer(row.star_rating),
    region: row.region as Doc<'property'>['region'],
    usd_rate: integer(row.usd_rate),
    hotel_levy_bps: integer(row.hotel_levy_bps),
    tourism_levy_bps: integer(row.tourism_levy_bps),
    infrastructure_tax_usd: integer(row.infrastructure_tax_usd),
    vat_bps: integer(row.vat_bps),
    booking_mode: row.booking_mode as Doc<'property'>['booking_mode'],
    confirmation: row.confirmation as Doc<'property'>['confirmation'],
  }),
  room_types: (row) => ({
    name: String(row.name),
    max_adults: Number(row.max_adults),
    max_children: Number(row.max_children),
    base_rate: Number(row.base_rate),
    day_use_rate: integer(row.day_use_rate),
    day_use_block_minutes: Number(row.day_use_block_minutes),
    booking_mode: row.booking_mode as Doc<'room_types'>['booking_mode'],
    confirmation: row.confirmation as Doc<'room_types'>['confirmation'],
  }),
  rooms: (row) => ({
    room_type: String(row.room_type_id),
    number: String(row.number),
    floor: text(row.floor),
    housekeeping: row.housekeeping as Doc<'rooms'>['housekeeping'],
  }),
  room_rates: (row) => ({
    room_type: String(row.room_type_id),
    starts_on: String(row.starts_on),
    ends_on: String(row.ends_on),
    days_of_week: Array.isArray(row.days_of_week) ? row.days_of_week.map(Number) : null,
    rate: Number(row.rate),
  }),
  reservations: (row) => ({
    room_type: String(row.room_type_id),
    room: text(row.room_id),
    status: row.status as Doc<'reservations'>['status'],
    mode: row.mode as Doc<'reservations'>['mode'],
    arrival: text(row.arrival),
    departure: text(row.departure),
    starts_at: unixSeconds(row.starts_at as Date),
    ends_at: unixSeconds(row.ends_at as Date),
    adults: Number(row.adults),
    children: Number(row.children),
    guest_name: String(row.guest_name),
    guest_phone: text(row.guest_phone),
    source: row.source as Doc<'reservations'>['source'],
    quote: row.quote,
    total: Number(row.total),
    folio_balance: Number(row.folio_balance),
    folio_nights_posted: Number(row.folio_nights_posted),
    registered_guests: Number(row.registered_guests),
    checked_in_at: seconds(row.checked_in_at),
    checked_out_at: seconds(row.checked_out_at),
  }),
  desk_conflicts: (row) => ({
    command: String(row.command_id),
    command_type: String(row.command_type),
    till: String(row.till_id),
    till_name: String(row.till_name),
    reservation: text(row.reservation_id),
    guest_name: text(row.guest_name),
    room: text(row.room_id),
    room_number: text(row.room_number),
    holder_reservation: text(row.holder_reservation_id),
    holder_guest_name: text(row.holder_guest_name),
    code: String(row.code),
    message: String(row.message),
    created_at: unixSeconds(row.created_at as Date),
  }),
  ticketed_events: (row) => {
    const startsAt = unixSeconds(row.starts_at as Date);
    return {
      name: String(row.name),
      venue: String(row.venue),
      status: row.status as Doc<'ticketed_events'>['status'],
      starts_at: startsAt,
      ends_at: unixSeconds(row.ends_at as Date),
      doors_open_at: seconds(row.doors_open_at) ?? startsAt - DEFAULT_DOORS_OPEN_SECONDS,
      time_zone: String(row.time_zone),
      capacity: Number(row.capacity),
      door_key: String(row.door_public_key),
    };
  },
  event_tiers: (row) => ({
    event: String(row.event_id),
    name: String(row.name),
    price: Number(row.price),
    left: Math.max(0, Number(row.quantity) - Number(row.taken)),
  }),
  tickets: (row) => ({
    event: String(row.event_id),
    tier: String(row.tier_id),
    order: String(row.order_id),
    status: row.status as Doc<'tickets'>['status'],
    holder_name: String(row.holder_name),
    code: text(row.code),
  }),
  checkins: (row) => ({
    event: String(row.event_id),
    ticket: String(row.ticket_id),
    door: String(row.door),
    at: unixSeconds(row.checked_in_at as Date),
    scan: text(row.scan_id),
  }),
  double_admissions: (row) => ({
    event: String(row.event_id),
    ticket: String(row.ticket_id),
    holder_name: String(row.holder_name),
    first: {
      checkin: String(row.checkin_id),
      door: String(row.first_door),
      at: unixSeconds(row.first_at as Date),
    },
    door: String(row.door),
    at: unixSeconds(row.admitted_at as Date),
    scan: String(row.scan_id),
    detected_at: unixSeconds(row.detected_at as Date),
  }),
};

function withoutKeys<T extends { id: string; _deleted: boolean }>(doc: T): Omit<T, 'id' | '_deleted'> {
  const { id: _id, _deleted, ...rest } = doc;
  return rest;
}

/** The document a till stores for a feed row; a soft-deleted row is a deleted document. */
export function toDocument<C extends PullCollection>(collection: C, row: ChangeRow): PullDocument<C> {
  const fields = MAPPERS[collection](row);
  return { ...fields, id: row.id, _deleted: row.deleted } as PullDocument<C>;
}
