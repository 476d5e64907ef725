import { expect } from 'vitest';
import type { Api } from '../support/retail.ts';

/** A room type with `rooms` rooms numbered from `first`. */
export async function makeRoomType(
  api: Api,
  options: {
    name?: string;
    base_rate?: number;
    rooms?: number;
    first?: number;
    [field: string]: unknown;
  } = {},
) {
  const { rooms = 1, first = 101, ...fields } = options;
  const created = await api.post('/v1/hospitality/room-types', {
    name: 'Double',
    base_rate: 100_000,
    ...fields,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const roomIds: string[] = [];
  for (let index = 0; index < rooms; index++) {
    const room = await api.post('/v1/hospitality/rooms', {
      room_type: created.body.id,
      number: `${fields.name ?? 'D'}-${first + index}`,
      floor: String(Math.floor((first + index) / 100)),
    });
    expect(room.status, JSON.stringify(room.body)).toBe(201);
    roomIds.push(room.body.id);
  }
  return { roomType: created.body as { id: string; name: string }, rooms: roomIds };
}

export const guest = (name = 'Amina Juma') => ({ name, phone: '255712345678' });

export const book = (api: Api, fields: Record<string, unknown>) =>
  api.post('/v1/hospitality/reservations', { guest: guest(), adults: 2, ...fields });

/** A check-in body registering one guest, as the register asks. */
export const arrivingGuest = () => ({
  guests: [
    {
      name: 'Amina Juma',
      nationality: 'TZ',
      id_type: 'passport',
      id_number: 'P1234567',
      id_country: 'TZ',
      arriving_from: 'Dar es Salaam',
      going_to: 'Arusha',
    },
  ],
});
