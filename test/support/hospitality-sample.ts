/** A small property for the office's screenshots: two room types, their rooms over two floors, a rate, stays and closed nights. */
import { addDays } from '@tz/core/hospitality/stay';
import { eastAfricaDate } from '@tz/core/time';
import { book, makeRoomType } from '../hospitality/support.ts';
import type { Api } from './retail.ts';

export async function hospitalitySample(api: Api): Promise<void> {
  const today = eastAfricaDate(new Date());
  await api.patch('/v1/hospitality/property', {
    name: 'Kilimanjaro View Lodge',
    address_lines: ['Plot 12, Lema Road', 'Arusha'],
    phone: '+255 754 000 111',
    star_rating: 3,
  });
  const double = await makeRoomType(api, { name: 'Double', base_rate: 120_000, rooms: 3, first: 101 });
  const suite = await makeRoomType(api, {
    name: 'Suite',
    base_rate: 250_000,
    rooms: 2,
    first: 201,
    max_adults: 4,
  });
  await api.post('/v1/hospitality/rates', {
    room_type: double.roomType.id,
    starts_on: today,
    ends_on: addDays(today, 30),
    days_of_week: [5, 6],
    rate: 150_000,
  });
  const guests = ['Amina Juma', 'John Mushi', 'Neema Kweka', 'Baraka Mollel'];
  for (const [index, name] of guests.entries())
    await book(api, {
      room_type: index % 2 ? suite.roomType.id : double.roomType.id,
      room: (index % 2 ? suite.rooms : double.rooms)[Math.floor(index / 2)],
      arrival: addDays(today, index * 2),
      departure: addDays(today, index * 2 + 3),
      guest: { name, phone: '255712345678' },
    });
  await api.post('/v1/hospitality/blackouts', {
    room: double.rooms[2],
    starts_on: addDays(today, 4),
    ends_on: addDays(today, 6),
    reason: 'Painting',
  });
}
