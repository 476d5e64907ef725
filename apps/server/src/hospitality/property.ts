/**
 * A property's setup: the property itself (its times, region and levies), how
 * it is booked, its room types and their rates. Rooms and blackouts are in
 * `rooms.ts`, reservations in `reservations.ts`.
 */
import type { z } from 'zod';
import {
  AppError,
  newId,
  notFound,
  type bookingModeBody,
  type propertyPatchBody,
  type rateCreateBody,
  type roomTypeCreateBody,
  type roomTypePatchBody,
} from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import { findOwned } from '../infra/owned.ts';
import type { ListSource } from '../db/list-page.ts';
import {
  propertyObject,
  rateObject,
  roomTypeObject,
  type PropertyRow,
  type RateRow,
  type RoomTypeRow,
} from './objects.ts';
import { HOLDING, lockRoomTypes, reservationsInTheWay } from './stays.ts';

type PropertyPatch = z.output<typeof propertyPatchBody>;
type BookingModeInput = z.output<typeof bookingModeBody>;
type RoomTypeInput = z.output<typeof roomTypeCreateBody>;
type RoomTypePatch = z.output<typeof roomTypePatchBody>;
type RateInput = z.output<typeof rateCreateBody>;

/** The property's own columns: what a change writes, and what the tills' feed sends. */
export const PROPERTY_COLUMNS = [
  'name',
  'address_lines',
  'phone',
  'time_zone',
  'check_in_time',
  'check_out_time',
  'star_rating',
  'region',
  'usd_rate',
  'hotel_levy_bps',
  'tourism_levy_bps',
  'infrastructure_tax_usd',
  'vat_bps',
  'booking_mode',
  'confirmation',
] as const;

/** The property as kept, or as it starts before its first change: named after the business. */
export async function loadProperty(db: Queryable, tenant: Tenant): Promise<PropertyRow> {
  const found = await db.query<PropertyRow>(
    `SELECT * FROM hospitality_properties WHERE merchant_id = $1 AND livemode = $2`,
    [tenant.merchantId, tenant.livemode],
  );
  if (found.rows[0]) return found.rows[0];
  const merchant = await db.query<{ business_name: string; created_at: Date }>(
    `SELECT business_name, created_at FROM merchants WHERE id = $1`,
    [tenant.merchantId],
  );
  const { business_name, created_at } = merchant.rows[0]!;
  return {
    merchant_id: tenant.merchantId,
    livemode: tenant.livemode,
    name: business_name,
    address_lines: [],
    phone: null,
    time_zone: 'Africa/Dar_es_Salaam',
    check_in_time: '14:00',
    check_out_time: '10:00',
    star_rating: null,
    region: 'mainland',
    usd_rate: null,
    hotel_levy_bps: null,
    tourism_levy_bps: null,
    infrastructure_tax_usd: null,
    vat_bps: null,
    booking_mode: 'nightly',
    confirmation: 'instant',
    created_at,
    updated_at: created_at,
  };
}

/** Writes the whole property row (made on its first change), locked for the rest of the transaction. */
async function saveProperty(db: Queryable, row: PropertyRow): Promise<PropertyRow> {
  const values = PROPERTY_COLUMNS.map((column) =>
    column === 'address_lines' ? JSON.stringify(row.address_lines) : row[column],
  );
  const saved = await db.query<PropertyRow>(
    `INSERT INTO hospitality_properties (merchant_id, livemode, ${PROPERTY_COLUMNS.join(', ')})
     VALUES ($1, $2, ${PROPERTY_COLUMNS.map((_, index) => `$${index + 3}`).join(', ')})
     ON CONFLICT (merchant_id, livemode) DO UPDATE SET
       ${PROPERTY_COLUMNS.map((column) => `${column} = EXCLUDED.${column}`).join(', ')}, updated_at = now()
     RETURNING *`,
    [row.merchant_id, row.livemode, ...values],
  );
  return saved.rows[0]!;
}

/** Each type's rates, in the order they were made (the later of two alike wins); a deleted one is gone. */
export async function ratesOf(
  db: Queryable,
  roomTypeIds: readonly string[],
): Promise<Map<string, RateRow[]>> {
  const found = await db.query<RateRow>(
    `SELECT * FROM hospitality_rates WHERE room_type_id = ANY($1::text[]) AND deleted_at IS NULL ORDER BY seq`,
    [roomTypeIds],
  );
  const byType = new Map<string, RateRow[]>(roomTypeIds.map((id) => [id, []]));
  for (const rate of found.rows) byType.get(rate.room_type_id)!.push(rate);
  return byType;
}

export const ratesOfType = async (db: Queryable, roomTypeId: string): Promise<RateRow[]> =>
  (await ratesOf(db, [roomTypeId])).get(roomTypeId)!;

/** Room types as the API shows them, with their rates and how many rooms each has. */
export async function roomTypeObjects(db: Queryable, rows: readonly RoomTypeRow[]) {
  const ids = rows.map((row) => row.id);
  const [rates, counts] = await Promise.all([
    ratesOf(db, ids),
    db.query<{ room_type_id: string; rooms: number }>(
      `SELECT room_type_id, count(*) AS rooms FROM hospitality_rooms
        WHERE room_type_id = ANY($1::text[]) AND archived_at IS NULL GROUP BY room_type_id`,
      [ids],
    ),
  ]);
  const roomCounts = new Map(counts.rows.map((row) => [row.room_type_id, Number(row.rooms)]));
  return rows.map((row) => roomTypeObject(row, rates.get(row.id)!, roomCounts.get(row.id) ?? 0));
}

export const findRoomType = (db: Queryable, tenant: Tenant, id: string) =>
  findOwned<RoomTypeRow>(db, 'hospitality_room_types', 'room type', tenant, id);

/** The type, locked (see `lockRoomTypes`); an archived one is refused for new use. */
export async function lockRoomType(db: Queryable, tenant: Tenant, id: string, field = 'room_type') {
  const [row] = await lockRoomTypes(db, tenant, [id]);
  if (!row) throw notFound('room type', id);
  if (row.archived_at)
    throw new AppError('parameter_invalid', `The room type ${id} is archived`, {
      details: { [field]: 'is archived' },
    });
  return row;
}

export class PropertyService {
  async property(db: Queryable, tenant: Tenant) {
    return propertyObject(await loadProperty(db, tenant));
  }

  /** Fields left out keep their value; `null` puts a setting back to its default. */
  async updateProperty(db: Queryable, tenant: Tenant, patch: PropertyPatch) {
    const current = await loadProperty(db, tenant);
    const next: PropertyRow = { ...current };
    for (const column of PROPERTY_COLUMNS) {
      const value = (patch as Record<string, unknown>)[column];
      if (value !== undefined) (next as unknown as Record<string, unknown>)[column] = value;
    }
    return propertyObject(await saveProperty(db, next));
  }

  /** `POST /hospitality/availability`: how the property, or one room type, is booked. */
  async setBookingMode(db: Queryable, tenant: Tenant, input: BookingModeInput) {
    if (input.room_type !== undefined) {
      const row = await lockRoomType(db, tenant, input.room_type);
      const updated = await db.query<RoomTypeRow>(
        `UPDATE hospitality_room_types SET booking_mode = coalesce($2, booking_mode),
           confirmation = coalesce($3, confirmation), updated_at = now() WHERE id = $1 RETURNING *`,
        [row.id, input.mode ?? null, input.confirmation ?? null],
      );
      const [object] = await roomTypeObjects(db, updated.rows);
      return {
        object: 'booking_mode' as const,
        property: await this.property(db, tenant),
        room_type: object!,
      };
    }
    const property = await this.updateProperty(db, tenant, {
      ...(input.mode ? { booking_mode: input.mode } : {}),
      ...(input.confirmation ? { confirmation: input.confirmation } : {}),
    } as PropertyPatch);
    return { object: 'booking_mode' as const, property, room_type: null };
  }

  async createRoomType(db: Queryable, tenant: Tenant, input: RoomTypeInput) {
    const inserted = await db.query<RoomTypeRow>(
      `INSERT INTO hospitality_room_types (id, merchant_id, livemode, name, description, max_adults, max_children,
         base_rate, day_use_rate, day_use_block_minutes, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
      [
        newId('roomType'),
        tenant.merchantId,
        tenant.livemode,
        input.name,
        input.description ?? null,
        input.max_adults ?? 2,
        input.max_children ?? 0,
        input.base_rate,
        input.day_use_rate ?? null,
        input.day_use_block_minutes ?? 60,
        JSON.stringify(input.metadata ?? {}),
      ],
    );
    return (await roomTypeObjects(db, inserted.rows))[0]!;
  }

  /** A changed price applies to stays booked from now; booked stays keep the quote they were sold at. */
  async updateRoomType(db: Queryable, tenant: Tenant, id: string, patch: RoomTypePatch) {
    const row = await lockRoomType(db, tenant, id, 'id');
    const updated = await db.query<RoomTypeRow>(
      `UPDATE hospitality_room_types SET name = $2, description = $3, max_adults = $4, max_children = $5,
         base_rate = $6, day_use_rate = $7, day_use_block_minutes = $8, metadata = $9, updated_at = now()
       WHERE id = $1 RETURNING *`,
      [
        id,
        patch.name ?? row.name,
        patch.description ?? row.description,
        patch.max_adults ?? row.max_adults,
        patch.max_children ?? row.max_children,
        patch.base_rate ?? row.base_rate,
        patch.day_use_rate === undefined ? row.day_use_rate : patch.day_use_rate,
        patch.day_use_block_minutes ?? row.day_use_block_minutes,
        JSON.stringify(patch.metadata ?? row.metadata),
      ],
    );
    return (await roomTypeObjects(db, updated.rows))[0]!;
  }

  /** Refused while a reservation of the type holds a room from now on, naming them; its rooms leave with it. */
  async archiveRoomType(db: Queryable, tenant: Tenant, id: string) {
    const [row] = await lockRoomTypes(db, tenant, [id]);
    if (!row) throw notFound('room type', id);
    if (row.archived_at) return (await roomTypeObjects(db, [row]))[0]!;
    const ahead = await db.query<{ id: string }>(
      `SELECT id FROM hospitality_reservations WHERE room_type_id = $1 AND ${HOLDING} AND upper(stay) > now()
        ORDER BY lower(stay), id LIMIT 51`,
      [id],
    );
    if (ahead.rows.length > 0)
      throw reservationsInTheWay(
        `The room type ${id} has guests booked`,
        ahead.rows.map((found) => found.id),
      );
    const updated = await db.query<RoomTypeRow>(
      `UPDATE hospitality_room_types SET archived_at = now(), updated_at = now() WHERE id = $1 RETURNING *`,
      [id],
    );
    await db.query(
      `UPDATE hospitality_rooms SET archived_at = now(), updated_at = now() WHERE room_type_id = $1 AND archived_at IS NULL`,
      [id],
    );
    return (await roomTypeObjects(db, updated.rows))[0]!;
  }

  async retrieveRoomType(db: Queryable, tenant: Tenant, id: string) {
    return (await roomTypeObjects(db, [await findRoomType(db, tenant, id)]))[0]!;
  }

  roomTypesSource(tenant: Tenant, filters: { include_archived?: boolean | undefined }): ListSource {
    let where = 'merchant_id = $1 AND livemode = $2';
    if (!filters.include_archived) where += ' AND archived_at IS NULL';
    return { table: 'hospitality_room_types', where, params: [tenant.merchantId, tenant.livemode] };
  }

  /** A new rate prices stays booked from now; booked stays keep their quote. */
  async createRate(db: Queryable, tenant: Tenant, input: RateInput) {
    const roomType = await lockRoomType(db, tenant, input.room_type);
    const inserted = await db.query<RateRow>(
      `INSERT INTO hospitality_rates (id, merchant_id, livemode, room_type_id, starts_on, ends_on, days_of_week, rate)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [
        newId('roomRate'),
        tenant.merchantId,
        tenant.livemode,
        roomType.id,
        input.starts_on,
        input.ends_on,
        input.days_of_week ? [...new Set(input.days_of_week)].sort() : null,
        input.rate,
      ],
    );
    return rateObject(inserted.rows[0]!);
  }

  /** Soft, so the tills' feed sends the deletion; a deleted rate is not found again. */
  async deleteRate(db: Queryable, tenant: Tenant, id: string) {
    const deleted = await db.query<RateRow>(
      `UPDATE hospitality_rates SET deleted_at = now()
        WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND deleted_at IS NULL RETURNING *`,
      [id, tenant.merchantId, tenant.livemode],
    );
    if (!deleted.rows[0]) throw notFound('rate', id);
    return { ...rateObject(deleted.rows[0]), deleted: true as const };
  }
}
