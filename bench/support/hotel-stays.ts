import type pg from 'pg';

/**
 * Copies one booking made through the API into `perRoom` stays for every room, back to back over
 * 2027 (one in ten canceled), so a bench reads a year of a busy hotel without booking it by API.
 */
export async function copyStaysOver2027(pool: pg.Pool, templateId: string, perRoom: number): Promise<void> {
  await pool.query(
    `INSERT INTO hospitality_reservations (id, merchant_id, livemode, room_type_id, room_id, status, mode, arrival,
       departure, starts_at, ends_at, adults, children, guest_name, source, quote, total)
     SELECT t.id || '_' || r.number || '_' || k, t.merchant_id, t.livemode, r.room_type_id, r.id,
       CASE WHEN k % 10 = 0 THEN 'canceled' ELSE 'confirmed' END, 'nightly',
       DATE '2027-01-01' + (k * 7 + (r.seq % 3)::int), DATE '2027-01-01' + (k * 7 + (r.seq % 3)::int + 2 + k % 4),
       (DATE '2027-01-01' + (k * 7 + (r.seq % 3)::int) + TIME '14:00') AT TIME ZONE 'Africa/Dar_es_Salaam',
       (DATE '2027-01-01' + (k * 7 + (r.seq % 3)::int + 2 + k % 4) + TIME '10:00') AT TIME ZONE 'Africa/Dar_es_Salaam',
       2, 0, 'Guest ' || k, 'api', t.quote, t.total
     FROM hospitality_reservations t, hospitality_rooms r, generate_series(0, $1 - 1) AS k
     WHERE t.id = $2`,
    [perRoom, templateId],
  );
}
