/**
 * Check-in: a door's scanned code judged and, when good, admitted once. The
 * code's signature is checked with core's `verifyTicketCode` (the same check a
 * door runs offline), then the ticket's state; admission is an insert that
 * `UNIQUE (ticket_id)` lets happen once across doors and processes, so a
 * second scan anywhere answers `already_redeemed` with the first's time and door.
 *
 * A door's scan id (`scan`), when it sends one, is kept on the admission
 * (`UNIQUE (scan_id)`): the same scan asked again is the same admission, and
 * the door's later report of it (`report`) a repeat. A report is an admission
 * the door already made on its own verdict: recorded whatever the server would
 * have said (the holder is in), or, when another scan admitted the ticket, a
 * double admission.
 */
import {
  AppError,
  DEFAULT_DOORS_OPEN_SECONDS,
  importDoorKey,
  newId,
  readTicketCode,
  verifyTicketCode,
  type CheckinInput,
  type CheckinVerdict,
  type doorCommands,
} from '@tz/core';
import type { z } from 'zod';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { Clock } from '../infra/clock.ts';
import { recordEvent } from '../infra/events.ts';
import { findOwned } from '../infra/owned.ts';
import { unixSeconds } from '../infra/time.ts';
import { doubleAdmissionOfScan, recordDoubleAdmission, type DoubleAdmissionRow } from './admissions.ts';
import { findEvent } from './events.ts';
import { ticketObject, type CheckinRow, type EventRow, type TicketRow } from './objects.ts';

type TicketFound = TicketRow & { tier_name: string };
type DoorReport = z.output<(typeof doorCommands)['ticket.checkin']>;

/** What the server makes of a code at a moment, before admitting anyone. */
interface Judgement {
  verdict: Exclude<CheckinVerdict, 'already_redeemed'>;
  ticket?: TicketFound;
}

/** What a door's report is told: the admission that stands, the double admission if it was one, and the server's verdict. */
const reportResult = (
  scan: string,
  ticket: string,
  checkin: CheckinRow,
  double: DoubleAdmissionRow | undefined,
) => ({
  scan,
  ticket,
  checkin: checkin.id,
  double_admission: double?.id ?? null,
  verdict: double ? ('already_redeemed' as const) : checkin.verdict,
});

const refuseCode = (message: string, field = 'code') =>
  new AppError('parameter_invalid', message, { details: { [field]: message } });

/** Door keys kept imported: a door's scans of one event verify against one key. */
const KEPT_DOOR_KEYS = 256;

export class CheckinService {
  private readonly doorKeys = new Map<string, Promise<CryptoKey | null>>();

  constructor(private readonly clock: Clock) {}

  /** The event's public key, imported once per process (a key is never changed, only its event's). */
  private doorKey(publicKey: string): Promise<CryptoKey | null> {
    let key = this.doorKeys.get(publicKey);
    if (!key) {
      if (this.doorKeys.size >= KEPT_DOOR_KEYS) this.doorKeys.clear();
      key = importDoorKey(publicKey);
      this.doorKeys.set(publicKey, key);
    }
    return key;
  }

  /** A ticket with its admission, if it has one. */
  async ticket(db: Queryable, tenant: Tenant, id: string) {
    const row = await findOwned<TicketRow>(db, 'event_tickets', 'ticket', tenant, id);
    return ticketObject(row, (await admissionOf(db, id)) ?? null);
  }

  /** `scan`: the door's scan id, kept on the admission; the same scan again is the same admission. */
  async checkin(db: Queryable, tenant: Tenant, input: CheckinInput & { scan?: string }) {
    const at = this.clock.now();
    const door = input.door ?? 'api';
    const event = await findEvent(db, tenant, input.event);
    const answer = (verdict: CheckinVerdict, found: { ticket?: TicketFound; checkin?: CheckinRow }) => ({
      object: 'checkin' as const,
      verdict,
      event: event.id,
      door,
      ticket: found.ticket?.id ?? null,
      order: found.ticket?.order_id ?? null,
      tier: found.ticket ? { id: found.ticket.tier_id, name: found.ticket.tier_name } : null,
      holder: found.ticket?.holder_name ?? null,
      checked_in: found.checkin
        ? { at: unixSeconds(found.checkin.checked_in_at), door: found.checkin.door }
        : null,
      livemode: event.livemode,
    });

    const judged = await this.judge(db, tenant, event, input.code, at);
    if (judged.verdict !== 'ok' || !judged.ticket) return answer(judged.verdict, judged);
    const ticket = judged.ticket;
    const checkin = await admit(db, tenant, ticket, { door, at, scan: input.scan ?? null, verdict: 'ok' });
    if (checkin !== undefined) return answer('ok', { ...judged, checkin });
    const first = await this.standing(db, ticket, input.scan);
    return answer(input.scan !== undefined && first.scan_id === input.scan ? 'ok' : 'already_redeemed', {
      ...judged,
      checkin: first,
    });
  }

  /**
   * A door's report of a holder it let in on its own verdict. Refused when the
   * code is not the ticket's (forged, another event's, revoked); otherwise
   * recorded once per scan, as the admission or as a double admission.
   */
  async report(db: Queryable, tenant: Tenant, input: DoorReport) {
    const event = await findEvent(db, tenant, input.event);
    const [admitted, double] = await Promise.all([
      db.query<CheckinRow>(`SELECT * FROM event_checkins WHERE scan_id = $1`, [input.scan]),
      doubleAdmissionOfScan(db, input.scan),
    ]);
    const repeat = admitted.rows[0] ?? double;
    if (repeat !== undefined) {
      if (repeat.ticket_id !== input.ticket || repeat.event_id !== event.id)
        throw refuseCode('The scan was reported for another ticket', 'scan');
      const checkin = double ? (await admissionOf(db, double.ticket_id))! : admitted.rows[0]!;
      return reportResult(input.scan, input.ticket, checkin, double);
    }

    const at = new Date(input.at * 1000);
    const judged = await this.judge(db, tenant, event, input.code, at);
    if (judged.verdict === 'invalid' || judged.verdict === 'wrong_event' || !judged.ticket)
      throw refuseCode(
        judged.verdict === 'wrong_event'
          ? 'The code is a ticket of another event'
          : 'The code is not signed by the event’s key, or no longer its ticket’s',
      );
    const ticket = judged.ticket;
    if (ticket.id !== input.ticket) throw refuseCode('The code names another ticket', 'ticket');
    const checkin = await admit(db, tenant, ticket, {
      door: input.door,
      at,
      scan: input.scan,
      verdict: judged.verdict,
    });
    if (checkin !== undefined) return reportResult(input.scan, ticket.id, checkin, undefined);
    const standing = await this.standing(db, ticket, input.scan);
    if (standing.scan_id === input.scan) return reportResult(input.scan, ticket.id, standing, undefined);
    const recorded = await recordDoubleAdmission(db, tenant, ticket, standing, {
      scan: input.scan,
      door: input.door,
      at,
      detectedAt: this.clock.now(),
    });
    return reportResult(input.scan, ticket.id, standing, recorded);
  }

  /** The ticket's admission after an insert found one; a scan id another ticket's admission holds is refused. */
  private async standing(db: Queryable, ticket: TicketRow, scan: string | undefined): Promise<CheckinRow> {
    const first = await admissionOf(db, ticket.id);
    if (first === undefined) throw refuseCode('The scan id is another ticket’s admission', 'scan');
    if (scan !== undefined && first.scan_id !== scan) {
      const elsewhere = await db.query(`SELECT 1 FROM event_checkins WHERE scan_id = $1`, [scan]);
      if (elsewhere.rows.length > 0) throw refuseCode('The scan id is another ticket’s admission', 'scan');
    }
    return first;
  }

  /** The code's verdict for `event` at `at`, from its signature and its ticket's state. */
  private async judge(
    db: Queryable,
    tenant: Tenant,
    event: EventRow,
    scanned: string,
    at: Date,
  ): Promise<Judgement> {
    const code = scanned.trim();
    const read = readTicketCode(code);
    if (read === null) return { verdict: 'invalid' };
    const signer =
      read.claim.event === event.id
        ? event
        : (
            await db.query<EventRow>(
              `SELECT * FROM ticketed_events WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
              [read.claim.event, tenant.merchantId, tenant.livemode],
            )
          ).rows[0];
    // A box office's code is unsigned: only its ticket, holding exactly it, vouches for it (below).
    const listed = read.signature === null;
    const key = signer && !listed && (await this.doorKey(signer.door_public_key));
    const claim = listed ? (signer ? read.claim : null) : key ? await verifyTicketCode(code, key) : null;
    if (claim === null) return { verdict: 'invalid' };
    if (claim.event !== event.id) return { verdict: 'wrong_event' };

    const found = await db.query<TicketFound>(
      `SELECT k.*, t.name AS tier_name FROM event_tickets k JOIN event_tiers t ON t.id = k.tier_id
        WHERE k.id = $1 AND k.event_id = $2`,
      [claim.ticket, event.id],
    );
    const ticket = found.rows[0];
    // A code whose tier or text is no longer the ticket's was revoked by a change to it.
    if (
      !ticket ||
      ticket.tier_id !== claim.tier ||
      (ticket.code !== null && ticket.code !== code) ||
      (listed && ticket.code !== code)
    )
      return { verdict: 'invalid' };
    if (ticket.status === 'held') return { verdict: 'unpaid', ticket };
    if (ticket.status !== 'valid' || event.status === 'canceled') return { verdict: 'canceled', ticket };
    const opens =
      event.doors_open_at ?? new Date(event.starts_at.getTime() - DEFAULT_DOORS_OPEN_SECONDS * 1000);
    if (event.status === 'draft' || at < opens) return { verdict: 'not_yet_valid', ticket };
    return { verdict: 'ok', ticket };
  }
}

async function admissionOf(db: Queryable, ticketId: string): Promise<CheckinRow | undefined> {
  const found = await db.query<CheckinRow>(`SELECT * FROM event_checkins WHERE ticket_id = $1`, [ticketId]);
  return found.rows[0];
}

/**
 * The ticket's one admission, with `ticket.checked_in`; undefined when the
 * ticket (or the scan) already has one: `UNIQUE (ticket_id)` and `UNIQUE
 * (scan_id)` decide, across doors and processes.
 */
async function admit(
  db: Queryable,
  tenant: Tenant,
  ticket: TicketRow,
  admission: { door: string; at: Date; scan: string | null; verdict: CheckinRow['verdict'] },
): Promise<CheckinRow | undefined> {
  const admitted = await db.query<CheckinRow>(
    `INSERT INTO event_checkins (id, merchant_id, livemode, event_id, ticket_id, door, checked_in_at, scan_id, verdict)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING *`,
    [
      newId('checkin'),
      tenant.merchantId,
      tenant.livemode,
      ticket.event_id,
      ticket.id,
      admission.door,
      admission.at,
      admission.scan,
      admission.verdict,
    ],
  );
  const checkin = admitted.rows[0];
  if (checkin !== undefined)
    await recordEvent(db, { ...tenant, type: 'ticket.checked_in', object: ticketObject(ticket, checkin) });
  return checkin;
}
