/**
 * The till's front desk: the commands a desk queues offline (each pushed once,
 * keyed by its command id, applied by the same services as the REST routes),
 * and the rules the desk reads its board and a stay's balance by. The server
 * checks every command again: a room two tills gave away offline is refused
 * at sync by the database's constraint and shown on the desk as a conflict.
 */
import { z } from 'zod';
import { idPattern } from '../ids.ts';
import { MAX_UNIX_SECONDS, referenceSchema, textSchema } from '../retail/commands.ts';
import { shiftIdSchema } from '../retail/shift-status.ts';
import { reservationCreateBody } from './commands.ts';
import { foreignTenderSchema, nightCharges } from './folio.ts';
import { guestRegistrationSchema } from './registration.ts';
import {
  HOUSEKEEPING_STATUSES,
  holdsRoom,
  RESERVATION_STATUSES,
  type HousekeepingStatus,
  type ReservationStatus,
} from './states.ts';
import type { StayQuote } from './quote.ts';

const at = z.number().int().min(0).max(MAX_UNIX_SECONDS).describe('Unix seconds on the till');

/** A reservation's id made at the till (`newId('reservation')`), so the desk's next steps can name it offline. */
export const tillReservationIdSchema = z
  .string()
  .regex(idPattern('reservation'), { error: "must be resv_ and a lowercase ULID (newId('reservation'))" });

const reservation = referenceSchema.describe('The reservation (resv_…)');
const manager = referenceSchema.describe('The manager (emp_…) whose PIN approved it');

/** Each front desk command and its payload (`commandPayloads` in `sync/protocol.ts` holds them with the rest). */
export const frontDeskCommands = {
  /** A walk-in (or a phone booking) made at the desk, priced by the desk's quote and priced again by the server. */
  'reservation.create': reservationCreateBody.safeExtend({
    reservation: tillReservationIdSchema,
    at,
  }),
  /** The guest arrives: the room (given now or before) and the register's entries. */
  'reservation.check_in': z.strictObject({
    reservation,
    room: referenceSchema.optional().describe('The room given at check-in (room_…)'),
    guests: z.array(guestRegistrationSchema).max(20),
    at,
  }),
  /** The stay moves to another room of its type. */
  'reservation.move': z.strictObject({ reservation, room: referenceSchema, at }),
  /** Cash or a deposit taken at the desk, in shillings or another currency at the rate given. */
  'folio.payment': z
    .strictObject({
      reservation,
      method: z.enum(['cash', 'deposit']),
      amount: z.number().int().min(1).max(999_999_999_999).optional(),
      foreign: foreignTenderSchema.optional(),
      shift: shiftIdSchema.optional().describe('The till’s open shift: the drawer the cash went into'),
      cashier: referenceSchema.optional().describe('The employee (emp_…) who took it'),
      at,
    })
    .superRefine((value, ctx) => {
      if (value.amount === undefined && value.foreign === undefined)
        ctx.addIssue({ code: 'custom', path: ['amount'], message: 'give amount, or foreign' });
    }),
  /** The guest leaves; at a balance other than zero only with a manager's override and its reason. */
  'reservation.check_out': z.strictObject({
    reservation,
    override: z
      .strictObject({ reason: textSchema(500).min(1, { error: 'is required' }), approved_by: manager })
      .optional(),
    at,
  }),
  /** Housekeeping marks a room. */
  'room.housekeeping': z.strictObject({
    room: referenceSchema.describe('The room (room_…)'),
    housekeeping: z.enum(HOUSEKEEPING_STATUSES),
    at,
  }),
  /** A clash between desks (`desk_conflicts`) dealt with, from either desk: gone from every desk. */
  'desk_conflict.resolve': z.strictObject({
    conflict: referenceSchema.describe('The conflict (dcon_…)'),
    at,
  }),
} as const;
export type FrontDeskCommandType = keyof typeof frontDeskCommands;
export type FrontDeskPayload<T extends FrontDeskCommandType> = z.input<(typeof frontDeskCommands)[T]>;

// ------------------------------------------------------------------ the board

/** How a room reads on the desk's board today. */
export const ROOM_BOARD_STATES = [
  'vacant_clean',
  'vacant_dirty',
  'occupied',
  'arriving',
  'departing',
  'out_of_order',
] as const;
export type RoomBoardState = (typeof ROOM_BOARD_STATES)[number];

/** What the board needs of a stay: its room, state and dates (a day-use stay's dates are its day). */
export interface BoardStay {
  room: string | null;
  status: string;
  arrival: string | null;
  departure: string | null;
}

/**
 * A room's state on `today` (a calendar date at the property): out of order
 * first, then a guest in house (departing when today is the departure), then a
 * stay arriving today, then vacant by its housekeeping.
 */
export function roomBoardState(
  room: { id: string; housekeeping: HousekeepingStatus },
  stays: readonly BoardStay[],
  today: string,
): RoomBoardState {
  if (room.housekeeping === 'out_of_order') return 'out_of_order';
  const mine = stays.filter((stay) => stay.room === room.id);
  const inHouse = mine.find((stay) => stay.status === 'checked_in');
  if (inHouse) return inHouse.departure !== null && inHouse.departure <= today ? 'departing' : 'occupied';
  const arriving = mine.some(
    (stay) => (stay.status === 'confirmed' || stay.status === 'pending') && stay.arrival === today,
  );
  if (arriving) return 'arriving';
  return room.housekeeping === 'dirty' ? 'vacant_dirty' : 'vacant_clean';
}

// ---------------------------------------------------------------- the balance

/**
 * What a stay owes at check-out, as the desk can know it offline: the folio's
 * balance as last pulled, the nights not yet posted that are due by `now`
 * (a night is due at the stay's check-in time on its date; every night is due
 * once the departure has come), and the payments the desk took since that have
 * not come back in a pull. Positive: the guest owes.
 */
export function deskBalance(input: {
  quote: StayQuote;
  /** The folio's balance and its posted nights as the server last sent them. */
  folioBalance: number;
  nightsPosted: number;
  /** The nights due by now, counted from the first: the server posts them in order. */
  nightsDue: number;
  /** Shillings taken at this desk not yet in `folioBalance`. */
  unsyncedPayments: number;
  dayUseDate?: string | null;
}): number {
  const charges = nightCharges(input.quote, input.dayUseDate ?? null);
  const nights = [...new Set(charges.map((charge) => charge.night))];
  const unposted = new Set(nights.slice(input.nightsPosted, Math.max(input.nightsPosted, input.nightsDue)));
  const due = charges.filter((charge) => unposted.has(charge.night)).reduce((sum, c) => sum + c.amount, 0);
  return input.folioBalance + due - input.unsyncedPayments;
}

// ------------------------------------------------------------- room charges

/**
 * Why a sale tendered to a room is refused: the stay is not checked in (or its
 * folio is closed). The server says it under `tenders.N.reservation`; the till
 * reads the stay's state back from it (`roomChargeRefusedStatus`) to tell the
 * cashier in words which guest and why.
 */
export function roomChargeRefusal(status: ReservationStatus): string {
  return `is ${status.replace('_', ' ')}: only a guest checked in can charge to the room`;
}

/** The stay's state a room charge's refusal names, or null for another refusal. */
export function roomChargeRefusedStatus(message: string): ReservationStatus | null {
  return RESERVATION_STATUSES.find((status) => message === roomChargeRefusal(status)) ?? null;
}

// ------------------------------------------------------------ the window

/** Days a stay that no longer holds a room stays on the desk after it ended (the change feed's window). */
export const DESK_STAY_WINDOW_DAYS = 7;

/**
 * Whether a stay has left the desk's window by `nowMs`: it holds no room and
 * ended more than `DESK_STAY_WINDOW_DAYS` ago. The feed sends such a stay no
 * more, and it never comes back into the window, so a till may drop it.
 */
export function leftDeskWindow(stay: { status: ReservationStatus; ends_at: number }, nowMs: number): boolean {
  return !holdsRoom(stay.status) && stay.ends_at * 1000 <= nowMs - DESK_STAY_WINDOW_DAYS * 86_400_000;
}
