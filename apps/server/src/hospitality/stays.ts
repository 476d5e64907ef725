/**
 * Where a stay sits in time, and who holds rooms there. A nightly stay runs
 * from its arrival's check-in time to its departure's check-out time; a
 * blackout closes its nights the same way. The property's zones all keep East
 * Africa Time (UTC+03:00, no daylight saving), so a date and a time of day make
 * one instant with no zone database.
 */
import { addDays, AppError, ROOM_HOLDING_STATUSES } from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import { findOwned } from '../infra/owned.ts';
import type { PropertyRow, ReservationRow, RoomTypeRow } from './objects.ts';

export interface Stay {
  starts_at: Date;
  ends_at: Date;
}

const instant = (date: string, time: string): Date => new Date(`${date}T${time}:00+03:00`);

/** A nightly stay's instants under the property's check-in and check-out times. */
export const nightlyStay = (
  property: Pick<PropertyRow, 'check_in_time' | 'check_out_time'>,
  arrival: string,
  departure: string,
): Stay => ({
  starts_at: instant(arrival, property.check_in_time),
  ends_at: instant(departure, property.check_out_time),
});

/** The nights from `first` to `last` (both included). */
export const nightsStay = (
  property: Pick<PropertyRow, 'check_in_time' | 'check_out_time'>,
  first: string,
  last: string,
): Stay => nightlyStay(property, first, addDays(last, 1));

/** A stay as a range parameter: `$n::tstzrange`. */
export const stayRange = (stay: Stay): string =>
  `[${stay.starts_at.toISOString()},${stay.ends_at.toISOString()})`;

export const HOLDING = `status IN (${ROOM_HOLDING_STATUSES.map((status) => `'${status}'`).join(', ')})`;

/**
 * Takes the room types' row locks, in id order. Every write that can take or
 * free a room of a type (a booking, a move, a blackout, a room changing type
 * or leaving) takes its type's lock first, so the capacity check after it sees
 * every booking of the type that committed, in any process.
 */
export async function lockRoomTypes(
  db: Queryable,
  tenant: Tenant,
  ids: readonly string[],
): Promise<RoomTypeRow[]> {
  const found = await db.query<RoomTypeRow>(
    `SELECT * FROM hospitality_room_types WHERE merchant_id = $1 AND livemode = $2 AND id = ANY($3::text[])
     ORDER BY id FOR UPDATE`,
    [tenant.merchantId, tenant.livemode, [...new Set(ids)]],
  );
  return found.rows;
}

/** Every room type of the property, locked (a blackout of the whole property). */
export async function lockAllRoomTypes(db: Queryable, tenant: Tenant): Promise<RoomTypeRow[]> {
  const found = await db.query<RoomTypeRow>(
    `SELECT * FROM hospitality_room_types WHERE merchant_id = $1 AND livemode = $2 AND archived_at IS NULL
     ORDER BY id FOR UPDATE`,
    [tenant.merchantId, tenant.livemode],
  );
  return found.rows;
}

/**
 * How many of each type's rooms are free for the whole of `stay`: its rooms,
 * less the most that are held at any one moment of the stay by reservations
 * (with or without a room) and blackouts of single rooms; none when the type or
 * the property is blacked out. The most held at once is found by a sweep over
 * the holds' starts and ends in time order (an end before a start at the same
 * instant: stays are half-open). `except` leaves a reservation out.
 */
export async function freeRoomsByType(
  db: Queryable,
  tenant: Tenant,
  roomTypeIds: readonly string[],
  stay: Stay,
  except: string | null = null,
): Promise<Map<string, { rooms: number; free: number }>> {
  const result = await db.query<{ id: string; rooms: number; held: number; closed: boolean }>(
    // Each type by its position in the list: the sweep sorts and partitions by that integer. By the
    // type's text id, the sort of 1,600 moves took 4.7 ms of the statement's 7.5; by the integer, 0.5.
    `WITH types AS (SELECT id, n FROM unnest($3::text[]) WITH ORDINALITY AS t(id, n)),
     holds AS (
       SELECT t.n AS type_n, h.stay FROM hospitality_reservations h JOIN types t ON t.id = h.room_type_id
        WHERE h.room_type_id = ANY($3::text[]) AND h.${HOLDING} AND h.stay && $4::tstzrange
          AND h.id IS DISTINCT FROM $5
       UNION ALL
       SELECT t.n, b.stay FROM hospitality_blackouts b JOIN hospitality_rooms r ON r.id = b.room_id
         JOIN types t ON t.id = r.room_type_id
        WHERE r.archived_at IS NULL AND b.deleted_at IS NULL AND b.stay && $4::tstzrange
     ), moves AS (
       SELECT h.type_n, m.at, m.delta FROM holds h,
         LATERAL (VALUES (greatest(lower(h.stay), lower($4::tstzrange)), 1), (upper(h.stay), -1)) AS m(at, delta)
        WHERE m.at < upper($4::tstzrange)
     ), peaks AS (
       SELECT type_n, max(running) AS held FROM (
         SELECT type_n, sum(delta) OVER (PARTITION BY type_n ORDER BY at, delta ROWS UNBOUNDED PRECEDING) AS running
         FROM moves) sweep
       GROUP BY type_n
     ), rooms AS (
       SELECT room_type_id AS type_id, count(*) AS rooms FROM hospitality_rooms
        WHERE room_type_id = ANY($3::text[]) AND archived_at IS NULL GROUP BY room_type_id
     ), closed AS (
       SELECT DISTINCT room_type_id AS type_id FROM hospitality_blackouts
        WHERE merchant_id = $1 AND livemode = $2 AND deleted_at IS NULL AND room_id IS NULL AND stay && $4::tstzrange
     )
     SELECT t.id, coalesce(r.rooms, 0) AS rooms, coalesce(p.held, 0) AS held,
       EXISTS (SELECT 1 FROM closed c WHERE c.type_id = t.id OR c.type_id IS NULL) AS closed
     FROM types t LEFT JOIN rooms r ON r.type_id = t.id LEFT JOIN peaks p ON p.type_n = t.n`,
    [tenant.merchantId, tenant.livemode, [...roomTypeIds], stayRange(stay), except],
  );
  return new Map(
    result.rows.map(({ id, rooms, held, closed }) => [
      id,
      { rooms: Number(rooms), free: closed ? 0 : Math.max(0, Number(rooms) - Number(held)) },
    ]),
  );
}

/** `freeRoomsByType` for one type. */
export async function freeRooms(
  db: Queryable,
  tenant: Tenant,
  roomTypeId: string,
  stay: Stay,
  except: string | null = null,
): Promise<number> {
  return (await freeRoomsByType(db, tenant, [roomTypeId], stay, except)).get(roomTypeId)?.free ?? 0;
}

/** Reservations holding a room within `stay`, for a refusal that names them. */
export async function holdingReservations(
  db: Queryable,
  tenant: Tenant,
  stay: Stay,
  scope: { roomTypeId?: string; roomId?: string },
): Promise<string[]> {
  const params: unknown[] = [tenant.merchantId, tenant.livemode, stayRange(stay)];
  let where = `merchant_id = $1 AND livemode = $2 AND ${HOLDING} AND stay && $3::tstzrange`;
  if (scope.roomTypeId) where += ` AND room_type_id = $${params.push(scope.roomTypeId)}`;
  if (scope.roomId) where += ` AND room_id = $${params.push(scope.roomId)}`;
  const found = await db.query<{ id: string }>(
    `SELECT id FROM hospitality_reservations WHERE ${where} ORDER BY lower(stay), id LIMIT 51`,
    params,
  );
  return found.rows.map((row) => row.id);
}

/** 409 naming the reservations in the way (the first 50). */
export function reservationsInTheWay(what: string, ids: string[]): AppError {
  const shown = ids.slice(0, 50);
  return new AppError(
    'reservations_in_the_way',
    `${what}: ${ids.length > 50 ? 'more than 50' : ids.length} reservation${ids.length === 1 ? '' : 's'} hold rooms there (${shown.join(', ')}${ids.length > 50 ? ', …' : ''})`,
    { details: { reservations: shown.join(', ') } },
  );
}

/** A reservation of the account, locked for the rest of the transaction when `lock` is set. */
export const findReservation = (db: Queryable, tenant: Tenant, id: string, lock = false) =>
  findOwned<ReservationRow>(db, 'hospitality_reservations', 'reservation', tenant, id, { lock });
