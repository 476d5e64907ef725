/**
 * A small guest house pulled onto a test till, for the front desk's data-layer
 * tests: the property, a Double type with a weekend rate, rooms, stays made to
 * order, a guest's register entry, and the desk as the store shows it.
 */
import { firstValueFrom, filter } from 'rxjs';
import { quoteNights, type Command, type PullDocument } from '@tz/core';
import type { DeskView } from '../api.ts';
import { levySettingsOf, pricedRoomType } from './desk-state.ts';
import {
  makeEmployee,
  makePrinter,
  openTestTill,
  pulled,
  type TestTill,
} from '../../../../test/till-data.ts';

// The test clock: 2026-11-26 09:00 UTC, 12:00 at the property.
export const TODAY = '2026-11-26';

export const property: PullDocument<'property'> = {
  id: 'property',
  _deleted: false,
  name: 'Mwambao Guest House',
  address_lines: ['Tanga'],
  phone: null,
  time_zone: 'Africa/Dar_es_Salaam',
  check_in_time: '14:00',
  check_out_time: '10:00',
  star_rating: null,
  region: 'mainland',
  usd_rate: null,
  hotel_levy_bps: null,
  tourism_levy_bps: null,
  infrastructure_tax_usd: null,
  vat_bps: null,
  booking_mode: 'nightly',
  confirmation: 'instant',
};
export const double: PullDocument<'room_types'> = {
  id: 'rt_double',
  _deleted: false,
  name: 'Double',
  max_adults: 2,
  max_children: 1,
  base_rate: 70_000,
  day_use_rate: null,
  day_use_block_minutes: 60,
  booking_mode: null,
  confirmation: null,
};
export const room = (number: string, housekeeping: PullDocument<'rooms'>['housekeeping'] = 'clean') => ({
  id: `room_${number}`,
  _deleted: false,
  room_type: 'rt_double',
  number,
  floor: number.slice(0, 1),
  housekeeping,
});
export const weekend: PullDocument<'room_rates'> = {
  id: 'rate_1',
  _deleted: false,
  room_type: 'rt_double',
  starts_on: '2026-11-01',
  ends_on: '2026-12-31',
  days_of_week: [5, 6],
  rate: 90_000,
};
export const quoteOf = (arrival: string, departure: string) =>
  quoteNights(pricedRoomType(double, [weekend]), levySettingsOf(property), {
    arrival,
    departure,
    adults: 2,
    children: 0,
  });
export function stay(
  id: string,
  overrides: Partial<PullDocument<'reservations'>> & { arrival: string; departure: string },
): PullDocument<'reservations'> {
  const quote = quoteOf(overrides.arrival, overrides.departure);
  return {
    id,
    _deleted: false,
    room_type: 'rt_double',
    room: null,
    status: 'confirmed',
    mode: 'nightly',
    starts_at: 0,
    ends_at: 0,
    adults: 2,
    children: 0,
    guest_name: 'Amina Juma',
    guest_phone: null,
    source: 'front_desk',
    quote,
    total: quote.total,
    folio_balance: 0,
    folio_nights_posted: 0,
    registered_guests: 0,
    checked_in_at: null,
    checked_out_at: null,
    ...overrides,
  };
}

export const GUEST = {
  name: 'Amina Juma',
  nationality: 'tz',
  id_type: 'national_id' as const,
  id_number: '19900101-12345-00001-23',
  id_country: 'TZ',
  arriving_from: 'Arusha',
  going_to: 'Dar es Salaam',
};

/** A desk with the server's answers held back: every step stays pending until `release`. */
export async function openDesk(
  reservations: Array<PullDocument<'reservations'>>,
  rooms: Array<PullDocument<'rooms'>> = [room('101'), room('102'), room('201')],
  conflicts: Array<PullDocument<'desk_conflicts'>> = [],
  propertyDoc: PullDocument<'property'> = property,
  roomTypes: Array<PullDocument<'room_types'>> = [double],
): Promise<TestTill> {
  const employees = [
    await makeEmployee(),
    await makeEmployee({ id: 'emp_boss', name: 'Juma', role: 'manager', pinCode: '9876' }),
  ];
  const t = await openTestTill({
    employees,
    printers: [makePrinter()],
    property: [propertyDoc],
    room_types: roomTypes,
    rooms,
    room_rates: [weekend],
    reservations,
    desk_conflicts: conflicts,
  });
  for (const collection of [
    'employees',
    'printers',
    'property',
    'rooms',
    'reservations',
    'desk_conflicts',
  ] as const)
    await pulled(t, collection);
  await t.store.signIn('1234');
  // Offline as far as pushes go: the server never answers, so every step waits.
  t.transport.answer = () => Promise.reject(new Error('The server does not answer'));
  return t;
}

export const desk = (t: TestTill, ready: (view: DeskView) => boolean = () => true) =>
  firstValueFrom(t.store.desk$.pipe(filter((view): view is DeskView => view !== null && ready(view))));
export const boardRoom = (view: DeskView, number: string) =>
  view.floors.flatMap((floor) => floor.rooms).find((one) => one.number === number)!;
/** Each command the till pushed, once (a push the server did not answer is sent again). */
export const pushed = (t: TestTill): Command[] => [
  ...new Map(t.transport.pushes.flat().map((command) => [command.id, command])).values(),
];
