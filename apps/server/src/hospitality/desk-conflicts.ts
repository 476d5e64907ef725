/**
 * Conflicts between front desks: a desk's step refused because the room (or
 * the last room of a type) was taken first, by another desk offline or by the
 * API. The refusal itself goes back to the desk that sent the step; the
 * conflict is recorded beside it and pulled by every desk (`desk_conflicts`),
 * so the desk whose step stood sees the clash too, naming both guests. Either
 * desk resolves it, once, for all.
 */
import { AppError, newId, type FrontDeskCommandType } from '@tz/core';
import type { TillActor } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { Clock } from '../infra/clock.ts';
import { HOLDING } from './stays.ts';

/** The desk's steps that take a room, and so can clash with another desk's. */
const ROOM_STEPS: ReadonlySet<FrontDeskCommandType> = new Set([
  'reservation.create',
  'reservation.check_in',
  'reservation.move',
]);

/** Whether a refusal of this command is a clash over a room, to be shown on every desk. */
export const isDeskConflict = (type: string, error: unknown): error is AppError =>
  ROOM_STEPS.has(type as FrontDeskCommandType) &&
  error instanceof AppError &&
  error.code === 'room_unavailable';

interface RefusedStep {
  id: string;
  type: string;
  payload: { reservation?: string; room?: string; guest?: { name?: string } };
}

export class DeskConflicts {
  constructor(private readonly clock: Clock) {}

  /**
   * Records the clash, once per command: the refused stay and guest (a walk-in
   * refused whole has only the name it was booked under), the room, and the
   * stay holding it now or next.
   */
  async record(db: Queryable, till: TillActor, step: RefusedStep, error: AppError): Promise<void> {
    const scope = [till.merchantId, till.livemode];
    const stay = step.payload.reservation
      ? (
          await db.query<{ guest_name: string; room_id: string | null; stay: string }>(
            `SELECT guest_name, room_id, stay::text FROM hospitality_reservations
              WHERE merchant_id = $1 AND livemode = $2 AND id = $3`,
            [...scope, step.payload.reservation],
          )
        ).rows[0]
      : undefined;
    const roomId = step.payload.room ?? stay?.room_id ?? null;
    const room = roomId
      ? (
          await db.query<{ number: string }>(
            `SELECT number FROM hospitality_rooms WHERE merchant_id = $1 AND livemode = $2 AND id = $3`,
            [...scope, roomId],
          )
        ).rows[0]
      : undefined;
    // The stay that stood: over the refused stay's nights when it has them, else in the room now or next.
    const holder = room
      ? (
          await db.query<{ id: string; guest_name: string }>(
            `SELECT id, guest_name FROM hospitality_reservations
              WHERE merchant_id = $1 AND livemode = $2 AND room_id = $3 AND ${HOLDING}
                AND id IS DISTINCT FROM $4
                AND ($5::tstzrange IS NULL AND upper(stay) > $6 OR stay && $5::tstzrange)
              ORDER BY (status = 'checked_in') DESC, lower(stay), id LIMIT 1`,
            [...scope, roomId, step.payload.reservation ?? null, stay?.stay ?? null, this.clock.now()],
          )
        ).rows[0]
      : undefined;
    await db.query(
      `INSERT INTO hospitality_desk_conflicts
         (id, merchant_id, livemode, command_id, command_type, till_id, till_name, reservation_id,
          guest_name, room_id, room_number, holder_reservation_id, holder_guest_name, code, message, created_at)
       SELECT $3, $1, $2, $4, $5, t.id, t.name, $6, $7, $8, $9, $10, $11, $12, $13, $14
         FROM tills t WHERE t.id = $15
       ON CONFLICT (merchant_id, livemode, command_id) DO NOTHING`,
      [
        ...scope,
        newId('deskConflict'),
        step.id,
        step.type,
        stay ? step.payload.reservation : null,
        stay?.guest_name ?? step.payload.guest?.name ?? null,
        room ? roomId : null,
        room?.number ?? null,
        holder?.id ?? null,
        holder?.guest_name ?? null,
        error.code,
        error.message,
        this.clock.now(),
        till.tillId,
      ],
    );
  }

  /** Marks a conflict dealt with, by the till and the person signed in; again is a no-op. */
  async resolve(db: Queryable, till: TillActor, conflictId: string): Promise<{ conflict: string }> {
    const found = await db.query<{ id: string }>(
      `UPDATE hospitality_desk_conflicts
          SET resolved_at = COALESCE(resolved_at, $4), resolved_by_till = COALESCE(resolved_by_till, $5),
              resolved_by_employee = COALESCE(resolved_by_employee, $6)
        WHERE merchant_id = $1 AND livemode = $2 AND id = $3 RETURNING id`,
      [till.merchantId, till.livemode, conflictId, this.clock.now(), till.tillId, till.employeeId ?? null],
    );
    if (found.rows.length === 0)
      throw new AppError('resource_missing', `No desk conflict '${conflictId}'`, {
        details: { conflict: 'is not a conflict of this account' },
      });
    return { conflict: conflictId };
  }
}
