/**
 * The front desk's commands from a till (docs/HOSPITALITY.md, "Front desk on
 * the till"): each runs the service its REST route runs, in the command's
 * transaction, and answers the stay's id, state and room. A rule's refusal
 * (the room taken meanwhile, the folio unsettled) is the command's refusal.
 */
import type { z } from 'zod';
import type { AppSlug, Command, FrontDeskCommandType, commandPayloads } from '@tz/core';
import type { TillActor } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { FolioService } from '../hospitality/folio.ts';
import type { ReservationService } from '../hospitality/reservations.ts';
import type { RoomService } from '../hospitality/rooms.ts';
import { assertManager } from '../tills/employees.ts';
import { lockTillShift } from '../tills/shifts.ts';
import type { DeskConflicts } from '../hospitality/desk-conflicts.ts';

export interface FrontDeskServices {
  reservations: ReservationService;
  folio: FolioService;
  rooms: RoomService;
  deskConflicts: DeskConflicts;
}

type Payload<T extends FrontDeskCommandType> = z.output<(typeof commandPayloads)[T]>;
type AfterCommit = (task: () => Promise<void>) => void;

/** All the desk's commands are the hospitality app's: refused while it is removed. */
export const FRONT_DESK_APP = {
  'reservation.create': 'hospitality',
  'reservation.check_in': 'hospitality',
  'reservation.move': 'hospitality',
  'folio.payment': 'hospitality',
  'reservation.check_out': 'hospitality',
  'room.housekeeping': 'hospitality',
  'desk_conflict.resolve': 'hospitality',
} as const satisfies Record<FrontDeskCommandType, AppSlug>;

/** What the desk is told of a stay a command changed. */
const stay = (reservation: { id: string; status: string; room: string | null }) => ({
  reservation: reservation.id,
  status: reservation.status,
  room: reservation.room,
});

export const FRONT_DESK_APPLY: {
  [T in FrontDeskCommandType]: (
    services: FrontDeskServices,
    db: Queryable,
    till: TillActor,
    payload: Payload<T>,
    command: Command,
    afterCommit: AfterCommit,
  ) => Promise<Record<string, unknown>>;
} = {
  // Under the id the till made, so its next steps offline name the same stay.
  'reservation.create': async ({ reservations }, db, till, payload) => {
    const { reservation, at: _at, ...input } = payload;
    return stay(await reservations.create(db, till, input, 'front_desk', reservation));
  },
  'reservation.check_in': async ({ reservations }, db, till, { reservation, room, guests }) =>
    stay(await reservations.checkIn(db, till, reservation, { room, guests })),
  'reservation.move': async ({ reservations }, db, till, { reservation, room }) =>
    stay(await reservations.assignRoom(db, till, reservation, room)),
  // Cash into a shift's drawer is the till's own shift's, counted in its Z report.
  'folio.payment': async ({ folio }, db, till, payload, _command, afterCommit) => {
    const { reservation, at: _at, shift, cashier, ...payment } = payload;
    if (shift !== undefined) await lockTillShift(db, till, shift);
    const drawer = shift === undefined ? undefined : { shiftId: shift, cashierId: cashier ?? null };
    const object = await folio.pay(db, till, reservation, payment, afterCommit, drawer);
    return { reservation, balance: object.balance };
  },
  // An override is the approving manager's: recorded as the till and that manager.
  'reservation.check_out': async ({ reservations }, db, till, { reservation, override }) => {
    if (override === undefined) return stay(await reservations.checkOut(db, till, reservation));
    await assertManager(db, till, override.approved_by, 'override.approved_by');
    const manager: TillActor = { ...till, employeeId: override.approved_by };
    return stay(await reservations.checkOut(db, manager, reservation, { reason: override.reason }));
  },
  'room.housekeeping': async ({ rooms }, db, till, { room, housekeeping }) => {
    const updated = await rooms.updateRoom(db, till, room, { housekeeping });
    return { room: updated.id, housekeeping: updated.housekeeping };
  },
  'desk_conflict.resolve': ({ deskConflicts }, db, till, { conflict }) =>
    deskConflicts.resolve(db, till, conflict),
};
