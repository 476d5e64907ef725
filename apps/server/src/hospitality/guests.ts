/**
 * The guest register: who stays, as registered at check-in (name,
 * nationality, identity document, from where and going where), and the card
 * each guest signs. Personal data: the routes are for secret keys (and the
 * front desk's till), never publishable keys.
 */
import { newId, buildRegistrationCard, type GuestRegistration, type ReceiptLanguage } from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import { unixSeconds } from '../infra/time.ts';
import { loadProperty } from './property.ts';
import { findReservation } from './stays.ts';

interface RegistrationRow extends Omit<GuestRegistration, 'phone'> {
  id: string;
  reservation_id: string;
  livemode: boolean;
  phone: string | null;
  created_at: Date;
}

export const registrationObject = (row: RegistrationRow) => ({
  id: row.id,
  object: 'guest_registration' as const,
  reservation: row.reservation_id,
  name: row.name,
  nationality: row.nationality,
  id_type: row.id_type,
  id_number: row.id_number,
  id_country: row.id_country,
  arriving_from: row.arriving_from,
  going_to: row.going_to,
  phone: row.phone,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
});

export class GuestRegister {
  /** Adds guests to a stay's register, in the order given. */
  async register(db: Queryable, tenant: Tenant, reservationId: string, guests: readonly GuestRegistration[]) {
    if (guests.length === 0) return this.list(db, tenant, reservationId);
    await findReservation(db, tenant, reservationId);
    const params: unknown[] = [tenant.merchantId, tenant.livemode, reservationId];
    const rows = guests.map((guest) => {
      const values = [
        newId('guestRegistration'),
        guest.name,
        guest.nationality,
        guest.id_type,
        guest.id_number,
        guest.id_country,
        guest.arriving_from,
        guest.going_to,
        guest.phone ?? null,
      ].map((value) => `$${params.push(value)}`);
      return `(${values[0]}, $1, $2, $3, ${values.slice(1).join(', ')})`;
    });
    await db.query(
      `INSERT INTO hospitality_guest_registrations (id, merchant_id, livemode, reservation_id, name, nationality,
         id_type, id_number, id_country, arriving_from, going_to, phone)
       VALUES ${rows.join(', ')}`,
      params,
    );
    return this.list(db, tenant, reservationId);
  }

  /** The stay's register, in the order guests were added; another merchant's stay is a 404. */
  async list(db: Queryable, tenant: Tenant, reservationId: string) {
    await findReservation(db, tenant, reservationId);
    const found = await db.query<RegistrationRow>(
      `SELECT * FROM hospitality_guest_registrations
        WHERE reservation_id = $1 AND merchant_id = $2 AND livemode = $3 ORDER BY seq`,
      [reservationId, tenant.merchantId, tenant.livemode],
    );
    return found.rows.map(registrationObject);
  }

  async count(db: Queryable, reservationId: string): Promise<number> {
    const found = await db.query<{ n: number }>(
      `SELECT count(*) AS n FROM hospitality_guest_registrations WHERE reservation_id = $1`,
      [reservationId],
    );
    return Number(found.rows[0]!.n);
  }

  /** The card the guests sign, for the receipt printer, in the language asked for. */
  async card(db: Queryable, tenant: Tenant, reservationId: string, language: ReceiptLanguage) {
    const [reservation, property, guests] = await Promise.all([
      findReservation(db, tenant, reservationId),
      loadProperty(db, tenant),
      this.list(db, tenant, reservationId),
    ]);
    const room = reservation.room_id
      ? (
          await db.query<{ number: string }>(`SELECT number FROM hospitality_rooms WHERE id = $1`, [
            reservation.room_id,
          ])
        ).rows[0]!.number
      : null;
    return buildRegistrationCard({
      language,
      property: { name: property.name, addressLines: property.address_lines },
      reservation: {
        id: reservation.id,
        room,
        arrival: reservation.arrival,
        departure: reservation.departure,
        nights: reservation.quote.nights,
      },
      guests: guests.map(({ phone, ...guest }) => (phone ? { ...guest, phone } : guest)),
    });
  }
}
