/**
 * Check-in: a door's scanned code judged and, when good, admitted once. The
 * code's signature is checked with core's `verifyTicketCode` (the same check a
 * door runs offline), then the ticket's state; admission is an insert that
 * `UNIQUE (ticket_id)` lets happen once across doors and processes, so a
 * second scan anywhere answers `already_redeemed` with the first's time and door.
 */
import {
  DEFAULT_DOORS_OPEN_SECONDS,
  importDoorKey,
  newId,
  readTicketCode,
  verifyTicketCode,
  type CheckinInput,
  type CheckinVerdict,
} from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { Clock } from '../infra/clock.ts';
import { recordEvent } from '../infra/events.ts';
import { findOwned } from '../infra/owned.ts';
import { unixSeconds } from '../infra/time.ts';
import { findEvent } from './events.ts';
import { ticketObject, type CheckinRow, type EventRow, type TicketRow } from './objects.ts';

export class CheckinService {
  constructor(private readonly clock: Clock) {}

  /** A ticket with its admission, if it has one. */
  async ticket(db: Queryable, tenant: Tenant, id: string) {
    const row = await findOwned<TicketRow>(db, 'event_tickets', 'ticket', tenant, id);
    const checkin = await db.query<CheckinRow>(`SELECT * FROM event_checkins WHERE ticket_id = $1`, [id]);
    return ticketObject(row, checkin.rows[0] ?? null);
  }

  async checkin(db: Queryable, tenant: Tenant, input: CheckinInput) {
    const at = this.clock.now();
    const door = input.door ?? 'api';
    const event = await findEvent(db, tenant, input.event);
    const answer = (
      verdict: CheckinVerdict,
      found: { ticket?: TicketRow; tierName?: string; checkin?: CheckinRow } = {},
    ) => ({
      object: 'checkin' as const,
      verdict,
      event: event.id,
      door,
      ticket: found.ticket?.id ?? null,
      order: found.ticket?.order_id ?? null,
      tier: found.ticket ? { id: found.ticket.tier_id, name: found.tierName ?? null } : null,
      holder: found.ticket?.holder_name ?? null,
      checked_in: found.checkin
        ? { at: unixSeconds(found.checkin.checked_in_at), door: found.checkin.door }
        : null,
      livemode: event.livemode,
    });

    const code = input.code.trim();
    const read = readTicketCode(code);
    if (read === null) return answer('invalid');
    const signer =
      read.claim.event === event.id
        ? event
        : (
            await db.query<EventRow>(
              `SELECT * FROM ticketed_events WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
              [read.claim.event, tenant.merchantId, tenant.livemode],
            )
          ).rows[0];
    const key = signer && (await importDoorKey(signer.door_public_key));
    const claim = key ? await verifyTicketCode(code, key) : null;
    if (claim === null) return answer('invalid');
    if (claim.event !== event.id) return answer('wrong_event');

    const found = await db.query<TicketRow & { tier_name: string }>(
      `SELECT k.*, t.name AS tier_name FROM event_tickets k JOIN event_tiers t ON t.id = k.tier_id
        WHERE k.id = $1 AND k.event_id = $2`,
      [claim.ticket, event.id],
    );
    const ticket = found.rows[0];
    // A code whose tier or text is no longer the ticket's was revoked by a change to it.
    if (!ticket || ticket.tier_id !== claim.tier || (ticket.code !== null && ticket.code !== code))
      return answer('invalid');
    const known = { ticket, tierName: ticket.tier_name };
    if (ticket.status === 'held') return answer('unpaid', known);
    if (ticket.status !== 'valid' || event.status === 'canceled') return answer('canceled', known);
    const opens =
      event.doors_open_at ?? new Date(event.starts_at.getTime() - DEFAULT_DOORS_OPEN_SECONDS * 1000);
    if (event.status === 'draft' || at < opens) return answer('not_yet_valid', known);

    const admitted = await db.query<CheckinRow>(
      `INSERT INTO event_checkins (id, merchant_id, livemode, event_id, ticket_id, door, checked_in_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (ticket_id) DO NOTHING RETURNING *`,
      [newId('checkin'), tenant.merchantId, tenant.livemode, event.id, ticket.id, door, at],
    );
    if (admitted.rows[0] === undefined) {
      const first = await db.query<CheckinRow>(`SELECT * FROM event_checkins WHERE ticket_id = $1`, [
        ticket.id,
      ]);
      return answer('already_redeemed', { ...known, checkin: first.rows[0]! });
    }
    const checkin = admitted.rows[0];
    await recordEvent(db, { ...tenant, type: 'ticket.checked_in', object: ticketObject(ticket, checkin) });
    return answer('ok', { ...known, checkin });
  }
}
