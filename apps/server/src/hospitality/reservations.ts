/**
 * Reservations: booking, and each step of a stay through core's state table
 * (availability and prices are in `availability.ts` and `pricing.ts`). Every step that can take a room takes the room
 * type's lock first (`stays.ts`); the exclusion constraint on (room, stay) is
 * the last word on two stays of one room.
 */
import type { z } from 'zod';
import {
  AppError,
  invalidField,
  newId,
  eastAfricaDate,
  RESERVATION_STATES,
  type BookingMode,
  type GuestRegistration,
  type Party,
  type ReservationStatus,
  type StayQuote,
  type reservationCreateBody,
} from '@tz/core';
import type { Actor, Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { ListSource } from '../db/list-page.ts';
import { isExclusionViolation, isUniqueViolation } from '../db/errors.ts';
import type { Clock } from '../infra/clock.ts';
import { recordEvent } from '../infra/events.ts';
import type { EventType } from '../infra/event-types.ts';
import { storedStates, transition, type TransitionWrite } from '../infra/transitions.ts';
import { propertyObject, reservationObject, type ReservationRow, type RoomTypeRow } from './objects.ts';
import { findRoomType, loadProperty, lockRoomType, ratesOfType } from './property.ts';
import { priceStay, stayOf, stayRequestOf } from './pricing.ts';
import { findRoom } from './rooms.ts';
import { assertCustomersExist } from '../customers/service.ts';
import type { GuestRegister } from './guests.ts';
import { actorName, folioBalance, type FolioService } from './folio.ts';
import { findReservation, freeRooms, lockRoomTypes, stayRange, type Stay } from './stays.ts';

type ReservationInput = z.output<typeof reservationCreateBody>;
export type ReservationSource = ReservationRow['source'];

const RESERVATIONS = storedStates(RESERVATION_STATES, 'hospitality_reservations');
const NO_DOUBLE_BOOKING = 'hospitality_reservations_no_double_booking';

const idTaken = (id: string) =>
  new AppError('parameter_invalid', `A reservation ${id} exists already: make a new id`, {
    details: { reservation: 'is the id of another reservation' },
  });
const roomTaken = (what: string) =>
  new AppError('room_unavailable', `${what} is not free for the whole stay`, {
    details: { room: 'is taken for those dates' },
  });

export class ReservationService {
  constructor(
    private readonly clock: Clock,
    private readonly guests: GuestRegister,
    private readonly folio: FolioService,
  ) {}

  /**
   * Books a room of the type, and the room itself when one is named. Confirmed
   * at once, or pending when the type (or the property) confirms on request.
   * `id`: the one a till made for it offline, refused when it is taken.
   */
  async create(
    db: Queryable,
    tenant: Tenant,
    input: ReservationInput,
    source: ReservationSource,
    id?: string,
  ) {
    const property = await loadProperty(db, tenant);
    const request = stayRequestOf(input);
    const stay = stayOf(property, request);
    const fullyBooked = (name: string) =>
      new AppError('room_unavailable', `No ${name} room is free for the whole stay`, {
        details: { room_type: 'is fully booked for those dates' },
      });
    // A type already full is refused before queueing on its lock: a rush on the last room is
    // answered at once. Only the check under the lock can say yes.
    if ((await freeRooms(db, tenant, input.room_type, stay)) < 1)
      throw fullyBooked((await findRoomType(db, tenant, input.room_type)).name);
    const roomType = await lockRoomType(db, tenant, input.room_type);
    const party = { adults: input.adults ?? 1, children: input.children ?? 0 };
    const { quote, mode } = priceStay(property, roomType, await ratesOfType(db, roomType.id), request, party);
    if (input.room !== undefined) await this.assertRoomFree(db, tenant, input.room, roomType, stay);
    if ((await freeRooms(db, tenant, roomType.id, stay)) < 1) throw fullyBooked(roomType.name);
    if (input.customer !== undefined)
      await assertCustomersExist(db, [{ ...tenant, customerId: input.customer }]);
    const confirmation = roomType.confirmation ?? property.confirmation;
    const status: ReservationStatus = confirmation === 'instant' ? 'confirmed' : 'pending';
    const row = await this.insert(db, tenant, {
      id: id ?? newId('reservation'),
      roomType,
      room: input.room ?? null,
      status,
      mode,
      stay,
      quote,
      party,
      input,
      source,
    });
    const object = reservationObject(row);
    await recordEvent(db, { ...tenant, type: 'reservation.created', object });
    return object;
  }

  private async insert(
    db: Queryable,
    tenant: Tenant,
    values: {
      id: string;
      roomType: RoomTypeRow;
      room: string | null;
      status: ReservationStatus;
      mode: BookingMode;
      stay: Stay;
      quote: StayQuote;
      party: Party;
      input: ReservationInput;
      source: ReservationSource;
    },
  ): Promise<ReservationRow> {
    const { input } = values;
    try {
      const inserted = await db.query<ReservationRow>(
        `INSERT INTO hospitality_reservations (id, merchant_id, livemode, room_type_id, room_id, status, mode, arrival,
           departure, starts_at, ends_at, adults, children, guest_name, guest_phone, guest_email, customer_id, notes, source,
           quote, total, metadata, confirmed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $22, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
           $21, CASE WHEN $6 = 'confirmed' THEN now() END)
         RETURNING *`,
        [
          values.id,
          tenant.merchantId,
          tenant.livemode,
          values.roomType.id,
          values.room,
          values.status,
          values.mode,
          input.arrival ?? null,
          input.departure ?? null,
          values.stay.starts_at,
          values.party.adults,
          values.party.children,
          input.guest.name,
          input.guest.phone ?? null,
          input.guest.email ?? null,
          input.customer ?? null,
          input.notes ?? null,
          values.source,
          JSON.stringify(values.quote),
          values.quote.total,
          JSON.stringify(input.metadata ?? {}),
          values.stay.ends_at,
        ],
      );
      return inserted.rows[0]!;
    } catch (error) {
      if (isExclusionViolation(error, NO_DOUBLE_BOOKING)) throw roomTaken('The room');
      if (isUniqueViolation(error, 'hospitality_reservations_pkey')) throw idTaken(values.id);
      throw error;
    }
  }

  /** The room is the type's, in use, open and not held by another stay over `stay`. */
  private async assertRoomFree(
    db: Queryable,
    tenant: Tenant,
    roomId: string,
    roomType: RoomTypeRow,
    stay: Stay,
    except: string | null = null,
  ) {
    const room = await findRoom(db, tenant, roomId);
    if (room.archived_at) throw invalidField('parameter_invalid', 'room', `room ${room.number} is archived`);
    if (room.room_type_id !== roomType.id)
      throw invalidField('parameter_invalid', 'room', `room ${room.number} is not a ${roomType.name} room`);
    const held = await db.query<{ id: string }>(
      `SELECT id FROM hospitality_reservations WHERE room_id = $1 AND status IN ('pending', 'confirmed', 'checked_in')
         AND stay && $2::tstzrange AND id IS DISTINCT FROM $3
       UNION ALL
       SELECT id FROM hospitality_blackouts WHERE room_id = $1 AND deleted_at IS NULL AND stay && $2::tstzrange
       LIMIT 1`,
      [room.id, stayRange(stay), except],
    );
    if (held.rows.length > 0) throw roomTaken(`Room ${room.number}`);
    return room;
  }

  async retrieve(db: Queryable, tenant: Tenant, id: string) {
    return reservationObject(await this.find(db, tenant, id));
  }

  private find(db: Queryable, tenant: Tenant, id: string, lock = false): Promise<ReservationRow> {
    return findReservation(db, tenant, id, lock);
  }

  /** The reservation locked after its type: the order every write that moves rooms takes its locks in. */
  private async lockForChange(db: Queryable, tenant: Tenant, id: string) {
    const before = await this.find(db, tenant, id);
    await lockRoomTypes(db, tenant, [before.room_type_id]);
    return this.find(db, tenant, id, true);
  }

  private async move(
    db: Queryable,
    tenant: Tenant,
    row: ReservationRow,
    to: ReservationStatus,
    write: TransitionWrite,
  ) {
    const moved = await transition(db, RESERVATIONS, row, to, write);
    const fresh = await this.find(db, tenant, moved.id);
    const object = reservationObject(fresh);
    await recordEvent(db, { ...tenant, type: `reservation.${to}` as EventType, object });
    return object;
  }

  async confirm(db: Queryable, tenant: Tenant, id: string) {
    const row = await this.lockForChange(db, tenant, id);
    return this.move(db, tenant, row, 'confirmed', { set: 'confirmed_at = now(), updated_at = now()' });
  }

  /** Cancels a booking or declines a request; its room is free at once. */
  async cancel(db: Queryable, tenant: Tenant, id: string) {
    const row = await this.lockForChange(db, tenant, id);
    return this.move(db, tenant, row, 'canceled', { set: 'canceled_at = now(), updated_at = now()' });
  }

  /** Only once the stay should have begun: before that the guest may still come. */
  async markNoShow(db: Queryable, tenant: Tenant, id: string) {
    const row = await this.lockForChange(db, tenant, id);
    if (this.clock.now() < row.starts_at)
      throw new AppError(
        'state_transition_invalid',
        'A guest is a no-show only once the stay should have begun',
        {
          details: { status: `the stay begins at ${row.starts_at.toISOString()}` },
        },
      );
    return this.move(db, tenant, row, 'no_show', { set: 'updated_at = now()' });
  }

  /** Gives the stay a room, or moves it to another of its type (a move to another type is a new booking). */
  async assignRoom(db: Queryable, tenant: Tenant, id: string, roomId: string) {
    const row = await this.lockForChange(db, tenant, id);
    if (!['pending', 'confirmed', 'checked_in'].includes(row.status))
      throw new AppError('state_transition_invalid', `A ${row.status} reservation holds no room to move`, {
        details: { status: `is '${row.status}'` },
      });
    const roomType = await lockRoomType(db, tenant, row.room_type_id);
    await this.assertRoomFree(
      db,
      tenant,
      roomId,
      roomType,
      { starts_at: row.starts_at, ends_at: row.ends_at },
      row.id,
    );
    try {
      await db.query(`UPDATE hospitality_reservations SET room_id = $2, updated_at = now() WHERE id = $1`, [
        row.id,
        roomId,
      ]);
    } catch (error) {
      if (isExclusionViolation(error, NO_DOUBLE_BOOKING)) throw roomTaken('The room');
      throw error;
    }
    return reservationObject(await this.find(db, tenant, id));
  }

  /**
   * The guest arrives: the stay needs a room (given here or before) that is
   * not out of order, and at least one guest in the register (given here or
   * before), as the guest register requires.
   */
  async checkIn(
    db: Queryable,
    tenant: Tenant,
    id: string,
    arrival: { room?: string | undefined; guests?: readonly GuestRegistration[] | undefined } = {},
  ) {
    if (arrival.room !== undefined) await this.assignRoom(db, tenant, id, arrival.room);
    const row = await this.lockForChange(db, tenant, id);
    if (row.room_id === null)
      throw invalidField('parameter_missing', 'room', 'give the room the guest is checking into');
    const room = await findRoom(db, tenant, row.room_id, true);
    if (room.housekeeping === 'out_of_order')
      throw invalidField(
        'parameter_invalid',
        'room',
        `room ${room.number} is out of order: move the stay to another room`,
      );
    if (arrival.guests?.length) await this.guests.register(db, tenant, id, arrival.guests);
    if ((await this.guests.count(db, id)) === 0)
      throw invalidField(
        'parameter_missing',
        'guests',
        'register at least one guest (name, nationality, ID) to check in',
      );
    return this.move(db, tenant, row, 'checked_in', { set: 'checked_in_at = now(), updated_at = now()' });
  }

  /**
   * The guest leaves: the nights due are posted, then the folio closes at a
   * zero balance, or at another with a manager's override (who and why are
   * kept), and `folio.closed` is recorded. The room is free from now (an early
   * departure frees its nights) and needs cleaning.
   */
  async checkOut(db: Queryable, actor: Actor, id: string, override?: { reason: string }) {
    const row = await this.lockForChange(db, actor, id);
    await this.folio.postDueNights(db, row);
    const balance = await folioBalance(db, row.id);
    if (balance !== 0 && override === undefined && row.status === 'checked_in')
      throw new AppError(
        'folio_unsettled',
        `The folio's balance is ${balance} TZS ${balance > 0 ? 'owed by the guest' : 'owed to the guest'}: settle it, or check out with an override and its reason`,
        { details: { balance: String(balance) } },
      );
    const object = await this.move(db, actor, row, 'checked_out', {
      set: `checked_out_at = now(), updated_at = now(), folio_closed_at = now(), folio_closing_balance = $1,
        folio_override_reason = $2, folio_override_by = $3`,
      params: [balance, override?.reason ?? null, override ? actorName(actor) : null],
    });
    await db.query(`UPDATE hospitality_rooms SET housekeeping = 'dirty', updated_at = now() WHERE id = $1`, [
      row.room_id,
    ]);
    const closed = await this.find(db, actor, id);
    await recordEvent(db, { ...actor, type: 'folio.closed', object: await this.folio.toObject(db, closed) });
    return object;
  }

  /** `GET /hospitality`: the property and its day at a glance (today in East Africa Time). */
  async summary(db: Queryable, tenant: Tenant) {
    const property = await loadProperty(db, tenant);
    const today = eastAfricaDate(this.clock.now());
    const counts = await db.query<Record<string, number>>(
      `SELECT
         (SELECT count(*) FROM hospitality_room_types WHERE merchant_id = $1 AND livemode = $2 AND archived_at IS NULL) AS room_types,
         (SELECT count(*) FROM hospitality_rooms WHERE merchant_id = $1 AND livemode = $2 AND archived_at IS NULL) AS rooms,
         (SELECT count(*) FROM hospitality_rooms WHERE merchant_id = $1 AND livemode = $2 AND archived_at IS NULL
            AND housekeeping = 'out_of_order') AS out_of_order,
         (SELECT count(*) FROM hospitality_reservations WHERE merchant_id = $1 AND livemode = $2
            AND status IN ('pending', 'confirmed') AND coalesce(arrival, (lower(stay) AT TIME ZONE 'Africa/Dar_es_Salaam')::date) = $3::date) AS arrivals,
         (SELECT count(*) FROM hospitality_reservations WHERE merchant_id = $1 AND livemode = $2
            AND status = 'checked_in' AND coalesce(departure, (upper(stay) AT TIME ZONE 'Africa/Dar_es_Salaam')::date) <= $3::date) AS departures,
         (SELECT count(*) FROM hospitality_reservations WHERE merchant_id = $1 AND livemode = $2
            AND status = 'checked_in') AS in_house,
         (SELECT count(*) FROM hospitality_reservations WHERE merchant_id = $1 AND livemode = $2
            AND status = 'pending') AS pending`,
      [tenant.merchantId, tenant.livemode, today],
    );
    const row = counts.rows[0]!;
    const count = (name: string) => Number(row[name]);
    return {
      object: 'hospitality' as const,
      property: propertyObject(property),
      date: today,
      room_types: count('room_types'),
      rooms: count('rooms'),
      rooms_out_of_order: count('out_of_order'),
      arrivals: count('arrivals'),
      departures: count('departures'),
      in_house: count('in_house'),
      pending: count('pending'),
    };
  }

  reservationsSource(
    tenant: Tenant,
    filters: {
      status?: ReservationStatus | undefined;
      room_type?: string | undefined;
      room?: string | undefined;
      arrival_gte?: string | undefined;
      arrival_lte?: string | undefined;
    },
  ): ListSource {
    const params: unknown[] = [tenant.merchantId, tenant.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (filters.status) where += ` AND status = $${params.push(filters.status)}`;
    if (filters.room_type) where += ` AND room_type_id = $${params.push(filters.room_type)}`;
    if (filters.room) where += ` AND room_id = $${params.push(filters.room)}`;
    if (filters.arrival_gte)
      where += ` AND coalesce(arrival, lower(stay)::date) >= $${params.push(filters.arrival_gte)}::date`;
    if (filters.arrival_lte)
      where += ` AND coalesce(arrival, lower(stay)::date) <= $${params.push(filters.arrival_lte)}::date`;
    return { table: 'hospitality_reservations', where, params };
  }
}
