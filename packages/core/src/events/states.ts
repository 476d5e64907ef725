/**
 * The states of a ticketed event, an order of its tickets and a ticket. Every
 * change goes through `assertTransition` with these machines.
 */
import { stateMachine, type TransitionTable } from '../state-machine.ts';

export const EVENT_STATUSES = ['draft', 'published', 'canceled', 'ended'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** A draft is set up unseen; a published event sells; it ends, or is canceled instead. */
export const EVENT_TRANSITIONS: TransitionTable<EventStatus> = {
  draft: ['published'],
  published: ['canceled', 'ended'],
  canceled: [],
  ended: [],
};
export const EVENT_STATES = stateMachine('event', EVENT_TRANSITIONS);

export const EVENT_ORDER_STATUSES = ['pending', 'paid', 'expired', 'refunded'] as const;
export type EventOrderStatus = (typeof EVENT_ORDER_STATUSES)[number];

/**
 * `pending` holds its tickets until paid or until its hold runs out
 * (`expired`, the tickets released). An expired order whose payment arrives
 * late is paid if its tickets can be taken again. A payment that lands on an
 * order of an event canceled meanwhile is refunded, the order `refunded`
 * with no ticket issued.
 */
export const EVENT_ORDER_TRANSITIONS: TransitionTable<EventOrderStatus> = {
  pending: ['paid', 'expired', 'refunded'],
  expired: ['paid', 'refunded'],
  paid: ['refunded'],
  refunded: [],
};
export const EVENT_ORDER_STATES = stateMachine('event order', EVENT_ORDER_TRANSITIONS);

export const TICKET_STATUSES = ['held', 'valid', 'released', 'void'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** `held` while its order waits for payment, `valid` once paid, `released` when the hold ran out, `void` once refunded. */
export const TICKET_TRANSITIONS: TransitionTable<TicketStatus> = {
  held: ['valid', 'released'],
  released: ['valid'],
  valid: ['void'],
  void: [],
};
export const TICKET_STATES = stateMachine('ticket', TICKET_TRANSITIONS);

/** What a door is told of a scanned code. */
export const CHECKIN_VERDICTS = [
  'ok',
  'already_redeemed',
  'invalid',
  'unpaid',
  'canceled',
  'wrong_event',
  'not_yet_valid',
] as const;
export type CheckinVerdict = (typeof CHECKIN_VERDICTS)[number];

/** Doors open this long before the start unless the event says when (`doors_open_at`). */
export const DEFAULT_DOORS_OPEN_SECONDS = 6 * 3600;
