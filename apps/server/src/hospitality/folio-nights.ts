/**
 * Posting a stay's nights to its folio: each night whose time has come, its
 * part of the quote (core's `nightCharges`), inserted under UNIQUE
 * (reservation_id, kind, night), so the night audit in any process and a
 * check-out may all try and a night is charged once.
 */
import { newId, nightCharges } from '@tz/core';
import type { Queryable } from '../db/database.ts';
import type { ReservationRow } from './objects.ts';

/**
 * A stay's nights as (reservation `r`, night, due_at): a nightly stay's night
 * is due at the stay's check-in time on its date (the guest holds the room
 * from then), a day-use stay's one "night" at its start. Read with `r` in scope.
 */
export const STAY_NIGHTS = `LATERAL (
    SELECT (nl->>'date')::date AS night,
           r.starts_at + ((nl->>'date')::date - r.arrival) * interval '1 day' AS due_at
      FROM jsonb_array_elements(r.quote->'night_lines') nl WHERE r.mode = 'nightly'
    UNION ALL
    SELECT (r.starts_at AT TIME ZONE 'Africa/Dar_es_Salaam')::date, r.starts_at WHERE r.mode = 'day_use'
  ) n`;

/** A night of `r` not yet charged, due by the time in parameter `$at`. */
export const dueUnpostedNight = (at: string) => `n.due_at <= ${at} AND NOT EXISTS (
    SELECT 1 FROM hospitality_folio_lines f WHERE f.reservation_id = r.id AND f.kind = 'room' AND f.night = n.night)`;

export interface PostedNights {
  /** Per reservation, the nights posted by this call. */
  nights: Map<string, number>;
  amount: number;
}

/**
 * Charges every due night of the given reservations (locked by the caller) by
 * the time `at`, each night's lines in one statement for all of them; a night
 * another process posted first is left alone by the unique key.
 */
export async function postDueNights(
  db: Queryable,
  reservations: readonly ReservationRow[],
  at: Date,
  post: { auditId: string | null; by: string | null },
): Promise<PostedNights> {
  const posted: PostedNights = { nights: new Map(), amount: 0 };
  if (reservations.length === 0) return posted;
  const due = await db.query<{ id: string; night: string }>(
    `SELECT r.id, n.night::text AS night FROM hospitality_reservations r CROSS JOIN ${STAY_NIGHTS}
     WHERE r.id = ANY($1::text[]) AND ${dueUnpostedNight('$2')}`,
    [reservations.map((row) => row.id), at],
  );
  const dueByStay = new Map<string, Set<string>>();
  for (const { id, night } of due.rows) {
    if (!dueByStay.has(id)) dueByStay.set(id, new Set());
    dueByStay.get(id)!.add(night);
  }
  const lines = reservations.flatMap((row) => {
    const nights = dueByStay.get(row.id);
    if (!nights) return [];
    const dayUse = row.mode === 'day_use' ? [...nights][0]! : null;
    return nightCharges(row.quote, dayUse)
      .filter((charge) => nights.has(charge.night))
      .map((charge) => ({ ...charge, row }));
  });
  if (lines.length === 0) return posted;
  const inserted = await db.query<{ reservation_id: string; kind: string; amount: number }>(
    `INSERT INTO hospitality_folio_lines (id, merchant_id, livemode, reservation_id, kind, night, amount, audit_id, created_by)
     SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::text[], $6::date[], $7::bigint[],
       $8::text[], $9::text[])
     ON CONFLICT (reservation_id, kind, night) DO NOTHING
     RETURNING reservation_id, kind, amount`,
    [
      lines.map(() => newId('folioLine')),
      lines.map((line) => line.row.merchant_id),
      lines.map((line) => line.row.livemode),
      lines.map((line) => line.row.id),
      lines.map((line) => line.kind),
      lines.map((line) => line.night),
      lines.map((line) => line.amount),
      lines.map(() => post.auditId),
      lines.map(() => post.by),
    ],
  );
  for (const line of inserted.rows) {
    posted.amount += line.amount;
    if (line.kind === 'room')
      posted.nights.set(line.reservation_id, (posted.nights.get(line.reservation_id) ?? 0) + 1);
  }
  return posted;
}
