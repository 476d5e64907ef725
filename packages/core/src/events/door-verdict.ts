/**
 * The door's verdict on a scanned code, from what the door holds: the event
 * and its key, its tickets by id, its tiers' names and the admissions it
 * knows (check-ins pulled from the server, its own reports not yet synced).
 * The same verdicts, in the same order, as the server's check-in
 * (`apps/server/src/events/checkin.ts`), less the admission itself: the
 * door records it (a `ticket.checkin` report) when the verdict is `ok`.
 *
 * A door cannot check another event's signature (it holds only its own
 * event's key), so any well-formed code of another event is `wrong_event`.
 * The lookups are by id in maps the caller builds once per change
 * (`doorBook`), so a verdict with 50,000 tickets costs one signature check.
 */
import {
  DEFAULT_DOORS_OPEN_SECONDS,
  type CheckinVerdict,
  type EventStatus,
  type TicketStatus,
} from './states.ts';
import { doorVerdict } from './ticket-code.ts';

/** The event as the door holds it (`ticketed_events`). */
export interface DoorEvent {
  id: string;
  status: EventStatus;
  /** Unix seconds. */
  starts_at: number;
  doors_open_at: number | null;
}

/** A ticket as the door holds it (`tickets`): `code` is the one code that admits it now. */
export interface DoorTicket {
  id: string;
  tier: string;
  status: TicketStatus;
  holder_name: string;
  code: string | null;
}

/** An admission the door knows of: when (unix seconds) and at which door. */
export interface DoorAdmission {
  at: number;
  door: string;
}

/** What the door judges with. */
export interface DoorBook {
  event: DoorEvent;
  key: CryptoKey;
  tickets: ReadonlyMap<string, DoorTicket>;
  /** Tier names by id. */
  tiers: ReadonlyMap<string, string>;
  /** The first admission of a ticket, by ticket id. */
  admissions: Pick<ReadonlyMap<string, DoorAdmission>, 'get'>;
}

/** The verdict with what the door shows beside it, in the server's answer's shape. */
export interface DoorJudgement {
  verdict: CheckinVerdict;
  ticket: string | null;
  tier: { id: string; name: string | null } | null;
  holder: string | null;
  /** For `already_redeemed`: the admission that stands. */
  checked_in: DoorAdmission | null;
}

/** Documents by id: the index a door builds once per change of its tickets or tiers. */
export function byId<T extends { id: string }>(docs: Iterable<T>): Map<string, T> {
  const index = new Map<string, T>();
  for (const doc of docs) index.set(doc.id, doc);
  return index;
}

/** When the event's doors open (unix seconds): its own time, or six hours before the start. */
export const doorsOpenAt = (event: Pick<DoorEvent, 'starts_at' | 'doors_open_at'>): number =>
  event.doors_open_at ?? event.starts_at - DEFAULT_DOORS_OPEN_SECONDS;

/** The door's verdict on `code` at `nowSeconds`. */
export async function judgeAtDoor(code: string, book: DoorBook, nowSeconds: number): Promise<DoorJudgement> {
  const answer = (
    verdict: CheckinVerdict,
    ticket: DoorTicket | null = null,
    checkedIn: DoorAdmission | null = null,
  ): DoorJudgement => ({
    verdict,
    ticket: ticket?.id ?? null,
    tier: ticket ? { id: ticket.tier, name: book.tiers.get(ticket.tier) ?? null } : null,
    holder: ticket?.holder_name ?? null,
    checked_in: checkedIn,
  });
  const scanned = code.trim();
  const signed = await doorVerdict(scanned, { event: book.event.id, key: book.key });
  if (signed.verdict !== 'ok') return answer(signed.verdict);
  const claim = signed.claim!;
  const ticket = book.tickets.get(claim.ticket);
  // A code whose tier or text is no longer the ticket's was revoked by a change to it;
  // a box office's unsigned code stands only where the list holds exactly it.
  if (
    !ticket ||
    ticket.tier !== claim.tier ||
    (ticket.code !== null && ticket.code !== scanned) ||
    (signed.listed && ticket.code !== scanned)
  )
    return answer('invalid');
  if (ticket.status === 'held') return answer('unpaid', ticket);
  if (ticket.status !== 'valid' || book.event.status === 'canceled') return answer('canceled', ticket);
  if (book.event.status === 'draft' || nowSeconds < doorsOpenAt(book.event))
    return answer('not_yet_valid', ticket);
  const first = book.admissions.get(ticket.id);
  if (first) return answer('already_redeemed', ticket, { at: first.at, door: first.door });
  return answer('ok', ticket);
}
