/**
 * Admissions as the organiser follows them: the check-in list (each with its
 * door and time, and the double admissions a later door reported of the same
 * ticket) and the double admissions themselves. A double admission is
 * recorded here, in the report's transaction, with `ticket.double_admitted`.
 */
import { newId } from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { ListSource } from '../db/list-page.ts';
import { recordEvent } from '../infra/events.ts';
import { unixSeconds } from '../infra/time.ts';
import type { CheckinRow, TicketRow } from './objects.ts';

export interface DoubleAdmissionRow {
  id: string;
  livemode: boolean;
  event_id: string;
  ticket_id: string;
  checkin_id: string;
  first_door: string;
  first_at: Date;
  holder_name: string;
  door: string;
  admitted_at: Date;
  scan_id: string;
  detected_at: Date;
}

/** Both doors and both times: the admission that stands (`first`) and the later door's. */
export const doubleAdmissionObject = (row: DoubleAdmissionRow) => ({
  id: row.id,
  object: 'double_admission' as const,
  event: row.event_id,
  ticket: row.ticket_id,
  holder: row.holder_name,
  first: { checkin: row.checkin_id, door: row.first_door, at: unixSeconds(row.first_at) },
  door: row.door,
  at: unixSeconds(row.admitted_at),
  scan: row.scan_id,
  detected: unixSeconds(row.detected_at),
  livemode: row.livemode,
});

/**
 * A later door's admission of a ticket `standing` already admitted: recorded
 * once per scan (a report pushed twice finds its own) with its event.
 */
export async function recordDoubleAdmission(
  db: Queryable,
  tenant: Tenant,
  ticket: TicketRow,
  standing: CheckinRow,
  later: { scan: string; door: string; at: Date; detectedAt: Date },
): Promise<DoubleAdmissionRow> {
  const inserted = await db.query<DoubleAdmissionRow>(
    `INSERT INTO event_double_admissions (id, merchant_id, livemode, event_id, ticket_id, checkin_id, first_door,
       first_at, holder_name, door, admitted_at, scan_id, detected_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (scan_id) DO NOTHING RETURNING *`,
    [
      newId('doubleAdmission'),
      tenant.merchantId,
      tenant.livemode,
      ticket.event_id,
      ticket.id,
      standing.id,
      standing.door,
      standing.checked_in_at,
      ticket.holder_name,
      later.door,
      later.at,
      later.scan,
      later.detectedAt,
    ],
  );
  const row = inserted.rows[0];
  if (row === undefined) return (await doubleAdmissionOfScan(db, later.scan))!;
  await recordEvent(db, { ...tenant, type: 'ticket.double_admitted', object: doubleAdmissionObject(row) });
  return row;
}

export async function doubleAdmissionOfScan(db: Queryable, scan: string) {
  const found = await db.query<DoubleAdmissionRow>(
    `SELECT * FROM event_double_admissions WHERE scan_id = $1`,
    [scan],
  );
  return found.rows[0];
}

/** An admission in the check-in list, with the double admissions of its ticket. */
export const checkinListObject = (
  row: CheckinRow & { livemode: boolean },
  doubles: readonly DoubleAdmissionRow[],
) => ({
  id: row.id,
  object: 'checkin_record' as const,
  event: row.event_id,
  ticket: row.ticket_id,
  door: row.door,
  at: unixSeconds(row.checked_in_at),
  scan: row.scan_id,
  verdict: row.verdict,
  double_admissions: doubles
    .filter((double) => double.ticket_id === row.ticket_id)
    .map(doubleAdmissionObject),
  livemode: row.livemode,
});

/** The double admissions of some tickets, oldest first. */
export async function doubleAdmissionsOf(db: Queryable, ticketIds: readonly string[]) {
  const found = await db.query<DoubleAdmissionRow>(
    `SELECT * FROM event_double_admissions WHERE ticket_id = ANY($1::text[]) ORDER BY seq`,
    [ticketIds],
  );
  return found.rows;
}

export async function checkinListObjects(
  db: Queryable,
  rows: ReadonlyArray<CheckinRow & { livemode: boolean }>,
) {
  const doubles = await doubleAdmissionsOf(
    db,
    rows.map((row) => row.ticket_id),
  );
  return rows.map((row) => checkinListObject(row, doubles));
}

/** An event's admissions, newest first; `door` keeps one door's. */
export function checkinsSource(
  tenant: Tenant,
  filters: { event: string; door?: string | undefined },
): ListSource {
  const params: unknown[] = [tenant.merchantId, tenant.livemode, filters.event];
  let where = 'merchant_id = $1 AND livemode = $2 AND event_id = $3';
  if (filters.door !== undefined) where += ` AND door = $${params.push(filters.door)}`;
  return { table: 'event_checkins', where, params };
}

/** An event's double admissions, newest first. */
export function doubleAdmissionsSource(tenant: Tenant, filters: { event: string }): ListSource {
  return {
    table: 'event_double_admissions',
    where: 'merchant_id = $1 AND livemode = $2 AND event_id = $3',
    params: [tenant.merchantId, tenant.livemode, filters.event],
  };
}
