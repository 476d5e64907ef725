/** Which rooms are free for a stay, and what it costs, for every room type at once. */
import { AppError, notFound, type StayQuote } from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import { roomTypeObject, type RoomTypeRow } from './objects.ts';
import { priceStay, stayOf, stayRequestOf, type AvailabilityQuery } from './pricing.ts';
import { loadProperty, ratesOf } from './property.ts';
import { freeRoomsByType } from './stays.ts';

export class AvailabilityService {
  /**
   * Each room type's free rooms for the stay, and its price for the party (or
   * why it cannot be sold): four reads whatever the number of types.
   */
  async availability(db: Queryable, tenant: Tenant, query: AvailabilityQuery) {
    const request = stayRequestOf(query);
    const [property, types] = await Promise.all([
      loadProperty(db, tenant),
      db.query<RoomTypeRow>(
        `SELECT * FROM hospitality_room_types WHERE merchant_id = $1 AND livemode = $2 AND archived_at IS NULL
           AND ($3::text IS NULL OR id = $3) ORDER BY base_rate, id`,
        [tenant.merchantId, tenant.livemode, query.room_type ?? null],
      ),
    ]);
    if (query.room_type !== undefined && types.rows.length === 0)
      throw notFound('room type', query.room_type);
    const ids = types.rows.map((row) => row.id);
    const [rates, free] = await Promise.all([
      ratesOf(db, ids),
      freeRoomsByType(db, tenant, ids, stayOf(property, request)),
    ]);
    const data = types.rows.map((roomType) => {
      const typeRates = rates.get(roomType.id)!;
      const { rooms, free: freeNow } = free.get(roomType.id) ?? { rooms: 0, free: 0 };
      let quote: StayQuote | null = null;
      let reason: string | null = null;
      try {
        quote = priceStay(property, roomType, typeRates, request, query).quote;
      } catch (error) {
        if (!(error instanceof AppError) || error.code === 'parameter_missing') throw error;
        reason = error.message;
      }
      return {
        room_type: roomTypeObject(roomType, typeRates, rooms),
        free_rooms: quote ? freeNow : 0,
        quote,
        unavailable_reason: reason,
      };
    });
    return {
      object: 'availability' as const,
      ...('arrival' in request ? request : { arrival: null, departure: null }),
      data,
    };
  }
}
