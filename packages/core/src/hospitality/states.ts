/**
 * The states of a reservation and of a room's housekeeping. Every change goes
 * through `assertTransition` with these machines, on the server and the till.
 */
import { stateMachine, type TransitionTable } from '../state-machine.ts';

export type ReservationStatus =
  'pending' | 'confirmed' | 'checked_in' | 'checked_out' | 'canceled' | 'no_show';

export const RESERVATION_STATUSES = [
  'pending',
  'confirmed',
  'checked_in',
  'checked_out',
  'canceled',
  'no_show',
] as const satisfies readonly ReservationStatus[];

/**
 * `pending` is a booking made `on_request`, waiting for the property to accept
 * it (confirm) or decline it (cancel). A guest who never came is a `no_show`;
 * one who came and left is `checked_out`.
 */
export const RESERVATION_TRANSITIONS: TransitionTable<ReservationStatus> = {
  pending: ['confirmed', 'canceled'],
  confirmed: ['checked_in', 'canceled', 'no_show'],
  checked_in: ['checked_out'],
  checked_out: [],
  canceled: [],
  no_show: [],
};

export const RESERVATION_STATES = stateMachine('reservation', RESERVATION_TRANSITIONS);

/**
 * The states in which a reservation holds its room for its dates: the database's
 * exclusion constraint and the room type's capacity count exactly these.
 * A pending booking holds too, so accepting it can never fail for want of a room.
 */
export const ROOM_HOLDING_STATUSES = [
  'pending',
  'confirmed',
  'checked_in',
] as const satisfies readonly ReservationStatus[];

export const holdsRoom = (status: ReservationStatus): boolean =>
  (ROOM_HOLDING_STATUSES as readonly ReservationStatus[]).includes(status);

export type HousekeepingStatus = 'clean' | 'dirty' | 'inspected' | 'out_of_order';

export const HOUSEKEEPING_STATUSES = [
  'clean',
  'dirty',
  'inspected',
  'out_of_order',
] as const satisfies readonly HousekeepingStatus[];

/**
 * Housekeeping moves freely between the states a room can be found in, except
 * that a room out of order comes back only as dirty (it must be cleaned and
 * checked before a guest is given it).
 */
export const HOUSEKEEPING_TRANSITIONS: TransitionTable<HousekeepingStatus> = {
  clean: ['dirty', 'inspected', 'out_of_order'],
  dirty: ['clean', 'inspected', 'out_of_order'],
  inspected: ['dirty', 'clean', 'out_of_order'],
  out_of_order: ['dirty'],
};

export const HOUSEKEEPING_STATES = stateMachine('room', HOUSEKEEPING_TRANSITIONS);
