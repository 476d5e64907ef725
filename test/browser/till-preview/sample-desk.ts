/**
 * The front desk of the preview's sample store: a small guest house's pulled
 * documents, read by the till's own `deskView` with the steps taken in the
 * preview laid over them, so the screens look as they do on a till.
 */
import { BehaviorSubject, combineLatest, map } from 'rxjs';
import { addDays, quoteNights, shillingsOf, type StayQuote } from '@tz/core';
import type { TillStore } from '../../../apps/desktop/src/renderer/data/api.ts';
import {
  deskToday,
  levySettingsOf,
  overlay,
  pricedRoomType,
  stayDates,
  type DeskCommand,
  type DeskData,
  type ReservationDoc,
  type RoomTypeDoc,
} from '../../../apps/desktop/src/renderer/data/front-desk/desk-state.ts';
import {
  deskView,
  freeRooms,
  stayBalance,
} from '../../../apps/desktop/src/renderer/data/front-desk/desk-view.ts';
import { walkInQuote } from '../../../apps/desktop/src/renderer/data/front-desk/walk-in.ts';

interface DeskControls {
  refuseNext: () => void;
  clashElsewhere: () => void;
  /** The desk's steps queued, in order. */
  deskSteps: () => Array<{ type: string; payload: Record<string, unknown> }>;
}

type DeskPart = Pick<
  TillStore,
  | 'hasDesk$'
  | 'desk$'
  | 'quoteWalkIn'
  | 'walkIn'
  | 'roomsFor'
  | 'checkIn'
  | 'moveStay'
  | 'setHousekeeping'
  | 'balanceOf'
  | 'checkOut'
  | 'dismissConflict'
>;

export function sampleDesk(now: number, enabled$: BehaviorSubject<boolean>): DeskPart & DeskControls {
  const today = deskToday(now);
  const property: DeskData['property'] = {
    id: 'property',
    _deleted: false,
    name: 'Mwambao Guest House',
    address_lines: ['Barabara ya Bahari', 'Tanga'],
    phone: '+255 27 264 0000',
    time_zone: 'Africa/Dar_es_Salaam',
    check_in_time: '14:00',
    check_out_time: '10:00',
    star_rating: null,
    region: 'mainland',
    // Dollars taken at the desk at this rate (on the mainland it sets no tax).
    usd_rate: 2_650,
    hotel_levy_bps: null,
    tourism_levy_bps: null,
    infrastructure_tax_usd: null,
    vat_bps: null,
    booking_mode: 'nightly',
    confirmation: 'instant',
  };
  const type = (id: string, name: string, base_rate: number, max_adults: number): RoomTypeDoc => ({
    id,
    _deleted: false,
    name,
    max_adults,
    max_children: 2,
    base_rate,
    day_use_rate: null,
    day_use_block_minutes: 60,
    booking_mode: null,
    confirmation: null,
  });
  const roomTypes: RoomTypeDoc[] = [
    type('rt_single', 'Single', 45_000, 1),
    type('rt_double', 'Double', 70_000, 2),
    // Sold by the hour for day use: 15,000 a block of an hour.
    { ...type('rt_siesta', 'Siesta room', 0, 2), day_use_rate: 15_000, booking_mode: 'day_use' },
  ];
  const room = (
    number: string,
    floor: string,
    room_type: string,
    housekeeping: 'clean' | 'dirty' | 'out_of_order',
  ) => ({
    id: `room_${number}`,
    _deleted: false,
    room_type,
    number,
    floor,
    housekeeping,
  });
  const rooms = [
    room('101', '1', 'rt_single', 'clean'),
    room('102', '1', 'rt_single', 'dirty'),
    room('103', '1', 'rt_double', 'clean'),
    room('104', '1', 'rt_double', 'out_of_order'),
    room('201', '2', 'rt_double', 'clean'),
    room('202', '2', 'rt_double', 'clean'),
    room('203', '2', 'rt_single', 'clean'),
    room('204', '2', 'rt_siesta', 'clean'),
  ];
  const data0: DeskData = { property, roomTypes, rooms, rates: [], reservations: [], conflicts: [] };
  const stay = (
    id: string,
    guest: string,
    roomType: string,
    roomId: string | null,
    arrival: string,
    departure: string,
    status: ReservationDoc['status'],
    paid: number,
  ): ReservationDoc => {
    const quote: StayQuote = quoteNights(
      pricedRoomType(
        roomTypes.find((t) => t.id === roomType)!,
        [],
      ),
      levySettingsOf(property),
      { arrival, departure, adults: 1, children: 0 },
    );
    const posted =
      status === 'checked_in' ? Math.max(0, quote.night_lines.filter((n) => n.date < today).length) : 0;
    const postedTotal = quote.night_lines.slice(0, posted).reduce((sum, n) => sum + n.rate, 0);
    return {
      id,
      _deleted: false,
      room_type: roomType,
      room: roomId,
      status,
      mode: 'nightly',
      arrival,
      departure,
      starts_at: Date.parse(`${arrival}T14:00:00+03:00`) / 1000,
      ends_at: Date.parse(`${departure}T10:00:00+03:00`) / 1000,
      adults: 1,
      children: 0,
      guest_name: guest,
      guest_phone: null,
      source: 'front_desk',
      quote,
      total: quote.total,
      folio_balance: Math.round((postedTotal * quote.total) / Math.max(quote.room_charge, 1)) - paid,
      folio_nights_posted: posted,
      registered_guests: status === 'checked_in' ? 1 : 0,
      checked_in_at: status === 'checked_in' ? now / 1000 - 86_400 : null,
      checked_out_at: null,
    };
  };
  const data: DeskData = {
    ...data0,
    reservations: [
      stay('resv_arrive1', 'Amina Juma', 'rt_double', 'room_201', today, addDays(today, 2), 'confirmed', 0),
      stay('resv_arrive2', 'Peter Mushi', 'rt_single', null, today, addDays(today, 1), 'confirmed', 0),
      stay(
        'resv_leave1',
        'Grace Mollel',
        'rt_double',
        'room_103',
        addDays(today, -2),
        today,
        'checked_in',
        50_000,
      ),
      stay(
        'resv_stay1',
        'Hassan Ali',
        'rt_single',
        'room_203',
        addDays(today, -1),
        addDays(today, 3),
        'checked_in',
        0,
      ),
    ],
  };
  const commands$ = new BehaviorSubject<DeskCommand[]>([]);
  const dismissed$ = new BehaviorSubject<Set<string>>(new Set());
  const conflicts$ = new BehaviorSubject<DeskData['conflicts']>([]);
  let refuse = false;
  let seq = 0;
  const queue = (type: DeskCommand['type'], payload: Record<string, unknown>) => {
    const id = `cmd_${String(++seq).padStart(4, '0')}`;
    const refused = refuse && type === 'reservation.check_in';
    refuse = false;
    commands$.next([
      ...commands$.value,
      {
        id,
        type,
        status: refused ? 'refused' : 'pending',
        payload,
        error: refused ? { code: 'room_unavailable', message: 'The room is taken for these nights' } : null,
        synced_at: null,
      },
    ]);
  };
  const overlaid = () => overlay(data, commands$.value, now);
  const find = (id: string) => overlaid().reservations.find((one) => one.id === id)!;
  const roomsFor = (id: string) => {
    const one = find(id);
    const dates = stayDates(one);
    return freeRooms(overlaid(), one.room_type, dates.arrival, dates.departure, id).map((r) => r.id);
  };
  const at = Math.floor(now / 1000);
  const desk: DeskPart & DeskControls = {
    deskSteps: () => commands$.value.map(({ type, payload }) => ({ type, payload })),
    refuseNext: () => {
      refuse = true;
    },
    // Another desk's walk-in, refused over room 203 that this desk's guest holds.
    clashElsewhere: () =>
      conflicts$.next([
        {
          id: 'dcon_sample1',
          _deleted: false,
          command: 'cmd_elsewhere1',
          command_type: 'reservation.create',
          till: 'till_reception2',
          till_name: 'Reception 2',
          reservation: null,
          guest_name: 'Baraka Mushi',
          room: 'room_203',
          room_number: '203',
          holder_reservation: 'resv_stay1',
          holder_guest_name: 'Hassan Ali',
          code: 'room_unavailable',
          message: 'Room 203 is not free for the whole stay',
          created_at: Math.floor(now / 1000),
        },
      ]),
    hasDesk$: enabled$.asObservable(),
    desk$: combineLatest([enabled$, commands$, dismissed$, conflicts$]).pipe(
      map(([enabled, commands, dismissed, conflicts]) =>
        enabled ? deskView({ ...data, conflicts }, commands, dismissed, now) : null,
      ),
    ),
    quoteWalkIn: (request) => Promise.resolve(walkInQuote(data, overlaid(), request, now)),
    walkIn: async (request) => {
      const quoted = await desk.quoteWalkIn(request);
      const reservation = `resv_walkin${seq + 1}`;
      const roomId = request.room ?? quoted.room!;
      queue('reservation.create', {
        reservation,
        room_type: request.roomType,
        room: roomId,
        ...(quoted.dayUse
          ? { starts_at: quoted.dayUse.startsAt, ends_at: quoted.dayUse.endsAt }
          : { arrival: quoted.arrival, departure: quoted.departure }),
        adults: request.adults,
        children: request.children,
        guest: { name: request.guestName },
        at,
      });
      return { reservation, room: roomId };
    },
    roomsFor: (id) => Promise.resolve(roomsFor(id)),
    checkIn: (request) => {
      queue('reservation.check_in', {
        reservation: request.reservation,
        ...(request.room ? { room: request.room } : {}),
        guests: request.guests,
        at,
      });
      if (request.deposit)
        queue('folio.payment', {
          reservation: request.reservation,
          method: 'deposit',
          amount: request.deposit,
          at,
        });
      if (request.depositForeign)
        queue('folio.payment', {
          reservation: request.reservation,
          method: 'deposit',
          foreign: { ...request.depositForeign, rate: property.usd_rate },
          at,
        });
      return Promise.resolve('no_printer');
    },
    moveStay: (reservation, roomId) =>
      Promise.resolve(queue('reservation.move', { reservation, room: roomId, at })),
    setHousekeeping: (roomId, status) =>
      Promise.resolve(queue('room.housekeeping', { room: roomId, housekeeping: status, at })),
    balanceOf: (id) => Promise.resolve(stayBalance(find(id), property, overlaid(), now)),
    checkOut: (request) => {
      const owed = stayBalance(find(request.reservation), property, overlaid(), now);
      if (request.cash)
        queue('folio.payment', {
          reservation: request.reservation,
          method: 'cash',
          amount: request.cash,
          at,
        });
      const foreign = request.foreign && {
        currency: 'USD' as const,
        amount: request.foreign.amount,
        rate: property.usd_rate!,
      };
      if (foreign) queue('folio.payment', { reservation: request.reservation, method: 'cash', foreign, at });
      const taken = (request.cash ?? 0) + (foreign ? shillingsOf(foreign) : 0);
      queue('reservation.check_out', { reservation: request.reservation, at });
      return Promise.resolve({ balance: owed - taken, print: 'no_printer' as const });
    },
    dismissConflict: ({ command }) =>
      Promise.resolve(dismissed$.next(new Set([...dismissed$.value, command]))),
  };
  return desk;
}
