/** The property's rooms (their type, number and housekeeping) and blackouts that close rooms for nights. */
import type { z } from 'zod';
import {
  AppError,
  assertTransition,
  HOUSEKEEPING_STATES,
  newId,
  notFound,
  type blackoutCreateBody,
  type roomCreateBody,
  type roomPatchBody,
} from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import { findOwned } from '../infra/owned.ts';
import type { ListSource } from '../db/list-page.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { blackoutObject, roomObject, type BlackoutRow, type RoomRow } from './objects.ts';
import { loadProperty, lockRoomType } from './property.ts';
import {
  HOLDING,
  holdingReservations,
  lockAllRoomTypes,
  lockRoomTypes,
  nightsStay,
  reservationsInTheWay,
  stayRange,
} from './stays.ts';

type RoomInput = z.output<typeof roomCreateBody>;
type RoomPatch = z.output<typeof roomPatchBody>;
type BlackoutInput = z.output<typeof blackoutCreateBody>;

const numberTaken = (number: string) =>
  new AppError('parameter_invalid', `The property already has a room ${number}`, {
    details: { number: 'is taken by another room' },
  });

export const findRoom = (db: Queryable, tenant: Tenant, id: string, lock = false) =>
  findOwned<RoomRow>(db, 'hospitality_rooms', 'room', tenant, id, { lock });

/** Reservations that hold the room from now on. */
async function roomBookedAhead(db: Queryable, roomId: string): Promise<string[]> {
  const found = await db.query<{ id: string }>(
    `SELECT id FROM hospitality_reservations WHERE room_id = $1 AND ${HOLDING} AND upper(stay) > now()
      ORDER BY lower(stay), id LIMIT 51`,
    [roomId],
  );
  return found.rows.map((row) => row.id);
}

export class RoomService {
  async createRoom(db: Queryable, tenant: Tenant, input: RoomInput) {
    const roomType = await lockRoomType(db, tenant, input.room_type);
    try {
      const inserted = await db.query<RoomRow>(
        `INSERT INTO hospitality_rooms (id, merchant_id, livemode, room_type_id, number, floor, housekeeping)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [
          newId('room'),
          tenant.merchantId,
          tenant.livemode,
          roomType.id,
          input.number,
          input.floor ?? null,
          input.housekeeping ?? 'clean',
        ],
      );
      return roomObject(inserted.rows[0]!);
    } catch (error) {
      if (isUniqueViolation(error, 'hospitality_rooms_number')) throw numberTaken(input.number);
      throw error;
    }
  }

  /**
   * Housekeeping moves through core's table; a room changes type only while no
   * stay ahead holds it (its bookings are of its type).
   */
  async updateRoom(db: Queryable, tenant: Tenant, id: string, patch: RoomPatch) {
    let room = await findRoom(db, tenant, id);
    if (room.archived_at)
      throw new AppError('parameter_invalid', `The room ${id} is archived`, {
        details: { id: 'is archived' },
      });
    if (patch.room_type !== undefined && patch.room_type !== room.room_type_id) {
      await lockRoomTypes(db, tenant, [room.room_type_id, patch.room_type]);
      await lockRoomType(db, tenant, patch.room_type);
      const ahead = await roomBookedAhead(db, id);
      if (ahead.length > 0) throw reservationsInTheWay(`The room ${room.number} has guests booked`, ahead);
    }
    room = await findRoom(db, tenant, id, true);
    if (patch.housekeeping !== undefined && patch.housekeeping !== room.housekeeping)
      assertTransition(HOUSEKEEPING_STATES, room.housekeeping, patch.housekeeping);
    try {
      const updated = await db.query<RoomRow>(
        `UPDATE hospitality_rooms SET room_type_id = $2, number = $3, floor = $4, housekeeping = $5, updated_at = now()
         WHERE id = $1 RETURNING *`,
        [
          id,
          patch.room_type ?? room.room_type_id,
          patch.number ?? room.number,
          patch.floor === undefined ? room.floor : patch.floor,
          patch.housekeeping ?? room.housekeeping,
        ],
      );
      return roomObject(updated.rows[0]!);
    } catch (error) {
      if (isUniqueViolation(error, 'hospitality_rooms_number'))
        throw numberTaken(patch.number ?? room.number);
      throw error;
    }
  }

  /** Refused while a stay ahead holds the room, naming it. */
  async archiveRoom(db: Queryable, tenant: Tenant, id: string) {
    const room = await findRoom(db, tenant, id);
    await lockRoomTypes(db, tenant, [room.room_type_id]);
    if (room.archived_at) return roomObject(room);
    const ahead = await roomBookedAhead(db, id);
    if (ahead.length > 0) throw reservationsInTheWay(`The room ${room.number} has guests booked`, ahead);
    const updated = await db.query<RoomRow>(
      `UPDATE hospitality_rooms SET archived_at = now(), updated_at = now() WHERE id = $1 RETURNING *`,
      [id],
    );
    return roomObject(updated.rows[0]!);
  }

  async retrieveRoom(db: Queryable, tenant: Tenant, id: string) {
    return roomObject(await findRoom(db, tenant, id));
  }

  roomsSource(
    tenant: Tenant,
    filters: {
      room_type?: string | undefined;
      housekeeping?: string | undefined;
      include_archived?: boolean | undefined;
    },
  ): ListSource {
    const params: unknown[] = [tenant.merchantId, tenant.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (!filters.include_archived) where += ' AND archived_at IS NULL';
    if (filters.room_type) where += ` AND room_type_id = $${params.push(filters.room_type)}`;
    if (filters.housekeeping) where += ` AND housekeeping = $${params.push(filters.housekeeping)}`;
    return { table: 'hospitality_rooms', where, params };
  }

  /**
   * Closes a room, a room type or the whole property for nights. Refused with
   * 409 when a reservation holds a room it would close, naming them: a person
   * moves or cancels those first, nothing is displaced silently.
   */
  async createBlackout(db: Queryable, tenant: Tenant, input: BlackoutInput) {
    const property = await loadProperty(db, tenant);
    const stay = nightsStay(property, input.starts_on, input.ends_on);
    let inTheWay: string[];
    let roomId: string | null = null;
    let roomTypeId: string | null = null;
    if (input.room !== undefined) {
      const room = await findRoom(db, tenant, input.room);
      await lockRoomTypes(db, tenant, [room.room_type_id]);
      roomId = room.id;
      inTheWay = await holdingReservations(db, tenant, stay, { roomId });
    } else if (input.room_type !== undefined) {
      roomTypeId = (await lockRoomType(db, tenant, input.room_type)).id;
      inTheWay = await holdingReservations(db, tenant, stay, { roomTypeId });
    } else {
      await lockAllRoomTypes(db, tenant);
      inTheWay = await holdingReservations(db, tenant, stay, {});
    }
    if (inTheWay.length > 0)
      throw reservationsInTheWay(
        `The blackout from ${input.starts_on} to ${input.ends_on} would close rooms`,
        inTheWay,
      );
    const inserted = await db.query<BlackoutRow>(
      `INSERT INTO hospitality_blackouts (id, merchant_id, livemode, room_type_id, room_id, starts_on, ends_on, stay, reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::tstzrange, $9) RETURNING *`,
      [
        newId('blackout'),
        tenant.merchantId,
        tenant.livemode,
        roomTypeId,
        roomId,
        input.starts_on,
        input.ends_on,
        stayRange(stay),
        input.reason ?? null,
      ],
    );
    return blackoutObject(inserted.rows[0]!);
  }

  async deleteBlackout(db: Queryable, tenant: Tenant, id: string) {
    const updated = await db.query<BlackoutRow>(
      `UPDATE hospitality_blackouts SET deleted_at = coalesce(deleted_at, now())
        WHERE id = $1 AND merchant_id = $2 AND livemode = $3 RETURNING *`,
      [id, tenant.merchantId, tenant.livemode],
    );
    if (!updated.rows[0]) throw notFound('blackout', id);
    return blackoutObject(updated.rows[0]);
  }

  blackoutsSource(tenant: Tenant, filters: { include_deleted?: boolean | undefined }): ListSource {
    let where = 'merchant_id = $1 AND livemode = $2';
    if (!filters.include_deleted) where += ' AND deleted_at IS NULL';
    return { table: 'hospitality_blackouts', where, params: [tenant.merchantId, tenant.livemode] };
  }
}
