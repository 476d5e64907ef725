/**
 * The door as this till knows it: the pulled events, tiers, tickets,
 * check-ins and double admissions, with the door's own admissions laid over
 * them (its `ticket.checkin` reports not yet pulled back, and the server's
 * `ok` answers to its questions), so a ticket admitted here a moment ago is
 * already redeemed on the next scan, online or not.
 *
 * Pure functions of plain documents: the store (`door.ts`) feeds them, each
 * built once per change of what it reads (50,000 tickets are one map, kept
 * from their stored pages by `door-tickets.ts`).
 */
import { byId, type DoorAdmission, type PullDocument } from '@tz/core';
import type { CommandStatus } from '../store/schema.ts';

export type TicketedEventDoc = PullDocument<'ticketed_events'>;
export type EventTierDoc = PullDocument<'event_tiers'>;
export type TicketDoc = PullDocument<'tickets'>;
export type CheckinDoc = PullDocument<'checkins'>;
export type DoubleAdmissionDoc = PullDocument<'double_admissions'>;

/** An admission with the event and the ticket it was for. */
export interface KnownAdmission extends DoorAdmission {
  event: string;
  ticket: string;
}

/** The tickets as the door looks them up: by id, and how many of each event's are valid. */
export interface TicketIndex {
  byId: ReadonlyMap<string, TicketDoc>;
  validByEvent: ReadonlyMap<string, number>;
}

export function ticketIndex(tickets: readonly TicketDoc[]): TicketIndex {
  const validByEvent = new Map<string, number>();
  for (const ticket of tickets)
    if (ticket.status === 'valid') validByEvent.set(ticket.event, (validByEvent.get(ticket.event) ?? 0) + 1);
  return { byId: byId(tickets), validByEvent };
}

/** A `ticket.checkin` report in the outbox, as the door reads it. */
export interface DoorReport {
  id: string;
  status: CommandStatus;
  payload: { scan: string; event: string; ticket: string; door: string; at: number };
}

/**
 * Every admission the door knows, by ticket: the server's check-in first (it
 * is the one that stands), then the door's own (its reports, its online
 * answers), the earliest of those.
 */
export function knownAdmissions(
  checkins: readonly CheckinDoc[],
  own: Iterable<KnownAdmission>,
): Map<string, KnownAdmission> {
  const known = new Map<string, KnownAdmission>();
  for (const mine of own) {
    const earlier = known.get(mine.ticket);
    if (!earlier || mine.at < earlier.at) known.set(mine.ticket, mine);
  }
  for (const checkin of checkins)
    known.set(checkin.ticket, {
      event: checkin.event,
      ticket: checkin.ticket,
      door: checkin.door,
      at: checkin.at,
    });
  return known;
}

export const reportAdmission = (report: DoorReport): KnownAdmission => ({
  event: report.payload.event,
  ticket: report.payload.ticket,
  door: report.payload.door,
  at: report.payload.at,
});

/** A ticket two doors admitted, as the door shows it. */
export interface DoorDouble {
  id: string;
  ticket: string;
  holder: string;
  first: { door: string; at: number };
  second: { door: string; at: number };
}

export interface DoorEventChoice {
  id: string;
  name: string;
  venue: string;
  /** Unix seconds. */
  startsAt: number;
  status: TicketedEventDoc['status'];
}

export interface DoorView {
  /** This door's name (the till's). */
  door: string;
  /** The events this door may admit to, soonest first. */
  events: DoorEventChoice[];
  /** The event scans are judged for; null until one is chosen where several are on. */
  event: DoorEventChoice | null;
  admittedHere: number;
  admitted: number;
  /** Valid tickets not yet admitted. */
  remaining: number;
  /** Reports of admissions here not yet synced. */
  waiting: number;
  doubles: DoorDouble[];
}

const choice = (event: TicketedEventDoc): DoorEventChoice => ({
  id: event.id,
  name: event.name,
  venue: event.venue,
  startsAt: event.starts_at,
  status: event.status,
});

/** The event the door judges for: the one chosen, or the only one there is. */
export function doorEvent(
  events: readonly TicketedEventDoc[],
  chosen: string | null,
): TicketedEventDoc | null {
  return events.find((event) => event.id === chosen) ?? (events.length === 1 ? events[0]! : null);
}

/** The door's screen: its event, the counts, the double admissions, from what it holds. */
export function doorView(input: {
  door: string;
  events: readonly TicketedEventDoc[];
  chosen: string | null;
  tickets: TicketIndex;
  admissions: ReadonlyMap<string, KnownAdmission>;
  /** Tickets admitted at this door (its own and the pulled check-ins and double admissions naming it). */
  admittedHere: ReadonlySet<string>;
  doubles: readonly DoubleAdmissionDoc[];
  waiting: number;
}): DoorView {
  const event = doorEvent(input.events, input.chosen);
  let admitted = 0;
  let admittedHere = 0;
  if (event) {
    for (const admission of input.admissions.values()) if (admission.event === event.id) admitted++;
    for (const ticket of input.admittedHere)
      if (
        input.tickets.byId.get(ticket)?.event === event.id ||
        input.admissions.get(ticket)?.event === event.id
      )
        admittedHere++;
  }
  const valid = event ? (input.tickets.validByEvent.get(event.id) ?? 0) : 0;
  return {
    door: input.door,
    events: [...input.events].sort((a, b) => a.starts_at - b.starts_at).map(choice),
    event: event ? choice(event) : null,
    admittedHere,
    admitted,
    remaining: Math.max(0, valid - admitted),
    waiting: input.waiting,
    doubles: event
      ? input.doubles
          .filter((double) => double.event === event.id)
          .sort((a, b) => b.detected_at - a.detected_at)
          .map((double) => ({
            id: double.id,
            ticket: double.ticket,
            holder: double.holder_name,
            first: { door: double.first.door, at: double.first.at },
            second: { door: double.door, at: double.at },
          }))
      : [],
  };
}

/** The tickets admitted at `door`, by what was pulled and what the door did itself. */
export function admittedAt(
  door: string,
  checkins: readonly CheckinDoc[],
  doubles: readonly DoubleAdmissionDoc[],
  own: Iterable<KnownAdmission>,
): Set<string> {
  const here = new Set<string>();
  for (const checkin of checkins) if (checkin.door === door) here.add(checkin.ticket);
  for (const double of doubles) if (double.door === door) here.add(double.ticket);
  for (const mine of own) if (mine.door === door) here.add(mine.ticket);
  return here;
}
