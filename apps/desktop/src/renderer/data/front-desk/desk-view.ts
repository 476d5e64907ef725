/**
 * The desk's screen from the state `desk-state.ts` lays over the pulled
 * documents: today's arrivals and departures, the guests in house, the board
 * by floor with each room's state (core's `roomBoardState`), what each stay
 * owes, the conflicts to resolve, and the free rooms a stay can be given.
 */
import {
  addDays,
  deskBalance,
  nightsOf,
  roomBoardState,
  type HousekeepingStatus,
  type RoomBoardState,
  type StayQuote,
} from '@tz/core';
import {
  deskToday,
  nightsDue,
  overlay,
  stayDates,
  stayInstants,
  type DeskCommand,
  type DeskCommandType,
  type DeskData,
  type Overlaid,
  type PropertyDoc,
  type ReservationDoc,
  type RoomDoc,
  type RoomTypeDoc,
  HOLDING,
} from './desk-state.ts';

export interface BoardRoom {
  id: string;
  number: string;
  floor: string;
  roomType: string;
  typeName: string;
  housekeeping: HousekeepingStatus;
  state: RoomBoardState;
  /** The stay in the room or arriving to it today. */
  stay: string | null;
}

export interface DeskStay {
  id: string;
  guestName: string;
  guestPhone: string | null;
  roomType: string;
  typeName: string;
  room: string | null;
  roomNumber: string | null;
  status: ReservationDoc['status'];
  arrival: string;
  departure: string;
  nights: number;
  adults: number;
  children: number;
  total: number;
  /** What the guest owes now (`deskBalance`); negative: the desk owes the guest. */
  balance: number;
  /** A step of this stay waits to sync. */
  waiting: boolean;
  /** Due on an earlier day and not come yet (the stay still runs): listed with today's arrivals. */
  overdue: boolean;
  /** A day-use stay's hours (unix seconds); null for nights. */
  hours: { startsAt: number; endsAt: number } | null;
}

/**
 * A clash to resolve: this desk's refused step (`mine`), or another desk's
 * refused over a room this desk's step (or the API) took. `id` is the server's
 * record of it once pulled (resolving it clears it on every desk).
 */
export interface DeskConflict {
  id: string | null;
  command: string;
  mine: boolean;
  /** The desk whose step was refused, when the server named it. */
  tillName: string | null;
  /** The guest holding the room, when known. */
  holderName: string | null;
  type: DeskCommandType;
  code: string;
  message: string;
  reservation: string | null;
  guestName: string | null;
  room: string | null;
  roomNumber: string | null;
}

export interface DeskView {
  property: PropertyDoc;
  today: string;
  roomTypes: RoomTypeDoc[];
  floors: Array<{ floor: string; rooms: BoardRoom[] }>;
  arrivals: DeskStay[];
  departures: DeskStay[];
  inHouse: DeskStay[];
  conflicts: DeskConflict[];
}

const byNumber = (a: { number: string }, b: { number: string }) =>
  a.number.localeCompare(b.number, undefined, { numeric: true });

/** What a stay owes now: the server's balance, the nights due since, less the payments not yet applied. */
export function stayBalance(
  stay: ReservationDoc,
  property: PropertyDoc,
  overlaid: Overlaid,
  nowMs: number,
): number {
  const unsynced = overlaid.unsyncedPayments.get(stay.id) ?? 0;
  const quote = stay.quote as StayQuote | null;
  if (!quote || !Array.isArray(quote.night_lines)) return stay.folio_balance - unsynced;
  return deskBalance({
    quote,
    folioBalance: stay.folio_balance,
    nightsPosted: stay.folio_nights_posted,
    nightsDue: nightsDue(stay, property, nowMs),
    unsyncedPayments: unsynced,
    dayUseDate: stay.mode === 'day_use' ? stayDates(stay).arrival : null,
  });
}

/** The desk's screen: today's arrivals and departures, the guests in house, the board by floor, the conflicts. */
export function deskView(
  data: DeskData,
  commands: readonly DeskCommand[],
  dismissed: ReadonlySet<string>,
  nowMs: number,
): DeskView | null {
  const property = data.property;
  if (!property) return null;
  const today = deskToday(nowMs);
  const overlaid = overlay(data, commands, nowMs);
  const types = new Map(data.roomTypes.map((type) => [type.id, type]));
  const roomsById = new Map(overlaid.rooms.map((room) => [room.id, room]));
  // Today's stays: the guests in house and those arriving today. The board, the lists and the
  // balances read only these; a hotel holds thousands of stays to come.
  const todays = overlaid.reservations.filter(
    (stay) => stay.status === 'checked_in' || (HOLDING.has(stay.status) && stayDates(stay).arrival === today),
  );
  const boardStays = todays.map((stay) => ({ ...stay, ...stayDates(stay) }));
  const staysByRoom = new Map<string, typeof boardStays>();
  for (const stay of boardStays) {
    if (stay.room === null) continue;
    const mine = staysByRoom.get(stay.room);
    if (mine) mine.push(stay);
    else staysByRoom.set(stay.room, [stay]);
  }
  const view = (stay: ReservationDoc): DeskStay => {
    const dates = stayDates(stay);
    return {
      id: stay.id,
      guestName: stay.guest_name,
      guestPhone: stay.guest_phone,
      roomType: stay.room_type,
      typeName: types.get(stay.room_type)?.name ?? '',
      room: stay.room,
      roomNumber: stay.room ? (roomsById.get(stay.room)?.number ?? null) : null,
      status: stay.status,
      ...dates,
      nights: stay.mode === 'day_use' ? 0 : Math.max(0, nightsOf(dates.arrival, dates.departure).length),
      adults: stay.adults,
      children: stay.children,
      total: stay.total,
      balance: stayBalance(stay, property, overlaid, nowMs),
      waiting: overlaid.waiting.has(stay.id),
      overdue: stay.status !== 'checked_in' && dates.arrival < today,
      hours: stay.mode === 'day_use' ? { startsAt: stay.starts_at, endsAt: stay.ends_at } : null,
    };
  };
  // Guests due on an earlier day who have not come, while their stay still runs: the desk may yet check them in.
  const overdue = overlaid.reservations
    .filter((stay) => {
      if (stay.status !== 'pending' && stay.status !== 'confirmed') return false;
      const dates = stayDates(stay);
      return dates.arrival < today && dates.departure > today;
    })
    .map(view)
    .sort((a, b) => a.arrival.localeCompare(b.arrival) || a.guestName.localeCompare(b.guestName));
  const rooms = [...overlaid.rooms].sort(byNumber).map((room): BoardRoom => {
    const mine = staysByRoom.get(room.id) ?? [];
    const state = roomBoardState(room, mine, today);
    const stay =
      mine.find((candidate) => candidate.status === 'checked_in') ??
      mine.find((candidate) => HOLDING.has(candidate.status) && candidate.arrival === today);
    return {
      id: room.id,
      number: room.number,
      floor: room.floor ?? '',
      roomType: room.room_type,
      typeName: types.get(room.room_type)?.name ?? '',
      housekeeping: room.housekeeping,
      state,
      stay: stay?.id ?? null,
    };
  });
  const floors = [...new Set(rooms.map((room) => room.floor))]
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
    .map((floor) => ({ floor, rooms: rooms.filter((room) => room.floor === floor) }));
  const stays = todays.map(view).sort((a, b) => a.guestName.localeCompare(b.guestName));
  const stayById = new Map(overlaid.reservations.map((stay) => [stay.id, stay]));
  const conflicts = deskConflicts(data, commands, dismissed, stayById, roomsById);
  return {
    property,
    today,
    roomTypes: [...data.roomTypes].sort((a, b) => a.name.localeCompare(b.name)),
    floors,
    arrivals: [
      ...overdue,
      ...stays.filter(
        (stay) => HOLDING.has(stay.status) && stay.status !== 'checked_in' && stay.arrival === today,
      ),
    ],
    departures: stays.filter((stay) => stay.status === 'checked_in' && stay.departure <= today),
    inHouse: stays.filter((stay) => stay.status === 'checked_in'),
    conflicts,
  };
}

/**
 * This desk's refused steps and the clashes the server recorded, once each (a
 * refused step of this desk is also recorded: the record adds the holder), and
 * none this desk dealt with.
 */
function deskConflicts(
  data: DeskData,
  commands: readonly DeskCommand[],
  dismissed: ReadonlySet<string>,
  stayById: ReadonlyMap<string, ReservationDoc>,
  roomsById: ReadonlyMap<string, RoomDoc>,
): DeskConflict[] {
  const recorded = new Map(data.conflicts.map((conflict) => [conflict.command, conflict]));
  const refused = commands.filter((command) => command.status === 'refused');
  const mine = refused.map((command): DeskConflict => {
    const p = command.payload as { reservation?: string; room?: string };
    const stay = p.reservation ? stayById.get(p.reservation) : undefined;
    const room = p.room ?? stay?.room ?? null;
    const guest = (command.payload.guest as { name?: string } | undefined)?.name;
    const record = recorded.get(command.id);
    return {
      id: record?.id ?? null,
      command: command.id,
      mine: true,
      tillName: record?.till_name ?? null,
      holderName: record?.holder_guest_name ?? null,
      type: command.type,
      code: command.error?.code ?? 'unknown',
      message: command.error?.message ?? '',
      reservation: p.reservation ?? null,
      guestName: stay?.guest_name ?? guest ?? null,
      room,
      roomNumber: room ? (roomsById.get(room)?.number ?? null) : null,
    };
  });
  const ours = new Set(refused.map((command) => command.id));
  const theirs = data.conflicts
    .filter((conflict) => !ours.has(conflict.command))
    .map((conflict): DeskConflict => ({
      id: conflict.id,
      command: conflict.command,
      mine: false,
      tillName: conflict.till_name,
      holderName: conflict.holder_guest_name,
      type: conflict.command_type as DeskCommandType,
      code: conflict.code,
      message: conflict.message,
      reservation: conflict.reservation,
      guestName: conflict.guest_name,
      room: conflict.room,
      roomNumber:
        conflict.room_number ?? (conflict.room ? (roomsById.get(conflict.room)?.number ?? null) : null),
    }));
  return [...mine, ...theirs].filter((conflict) => !dismissed.has(conflict.command));
}

// ------------------------------------------------------------- free rooms

/**
 * The rooms of a type free for the whole stay on this till's knowledge: not
 * out of order, no stay holding them on a night of it; clean ones first.
 */
export function freeRooms(
  overlaid: Pick<Overlaid, 'rooms' | 'reservations'>,
  roomType: string,
  arrival: string,
  departure: string,
  except: string | null = null,
): RoomDoc[] {
  return freeOf(overlaid, roomType, except, (stay) => {
    const dates = stayDates(stay);
    // A day-use stay holds its day; nights are from arrival up to the night before departure.
    const last = dates.departure > dates.arrival ? dates.departure : addDays(dates.arrival, 1);
    return dates.arrival < departure && arrival < last;
  });
}

/** The rooms of a type free for some hours (a day-use stay, unix seconds): no stay holding them then. */
export function freeRoomsAt(
  overlaid: Pick<Overlaid, 'rooms' | 'reservations'>,
  property: PropertyDoc,
  roomType: string,
  startsAt: number,
  endsAt: number,
): RoomDoc[] {
  return freeOf(overlaid, roomType, null, (stay) => {
    const held = stayInstants(stay, property);
    return held.startsAt < endsAt && startsAt < held.endsAt;
  });
}

function freeOf(
  overlaid: Pick<Overlaid, 'rooms' | 'reservations'>,
  roomType: string,
  except: string | null,
  overlaps: (stay: ReservationDoc) => boolean,
): RoomDoc[] {
  const held = new Set(
    overlaid.reservations
      .filter((stay) => stay.id !== except && stay.room !== null && HOLDING.has(stay.status))
      .filter(overlaps)
      .map((stay) => stay.room),
  );
  // Rooms ready now first, then ones to clean, then ones a guest leaves today.
  const inHouse = new Set(
    overlaid.reservations.filter((stay) => stay.status === 'checked_in').map((stay) => stay.room),
  );
  const rank = (room: RoomDoc) => (inHouse.has(room.id) ? 2 : room.housekeeping === 'dirty' ? 1 : 0);
  return overlaid.rooms
    .filter(
      (room) => room.room_type === roomType && room.housekeeping !== 'out_of_order' && !held.has(room.id),
    )
    .sort((a, b) => rank(a) - rank(b) || byNumber(a, b));
}
