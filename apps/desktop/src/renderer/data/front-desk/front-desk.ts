/**
 * The front desk's steps: each is queued in the outbox as one command, as a
 * sale is, and shows on the board at once (`desk-state.ts` lays the waiting
 * steps over the pulled documents). The till checks what it can offline (the
 * room free on its board, the party fitting the type, the balance settled or
 * overridden by a manager); the server checks everything again at sync.
 */
import { combineLatest, firstValueFrom, map, shareReplay, startWith, timer } from 'rxjs';
import type { Observable } from 'rxjs';
import {
  assertTransition,
  buildFolioDocument,
  buildRegistrationCard,
  guestRegistrationSchema,
  HOUSEKEEPING_STATES,
  nightCharges,
  type FolioSlipCharge,
  type FolioSlipPayment,
  type HousekeepingStatus,
  type NightChargeKind,
  type StayQuote,
} from '@tz/core';
import type { PrintOutcome } from '../../../shared/bridge.ts';
import { TillRefusal } from '../api.ts';
import type { CheckInRequest, CheckOutRequest, DeskPrint, WalkInQuote, WalkInRequest } from '../api.ts';
import { currentStore, withRefusals } from '../store/context.ts';
import type { Context } from '../store/context.ts';
import type { ReceiptPrinting } from '../printing/printing.ts';
import type { CommandDoc } from '../store/schema.ts';
import { approveByManager, requireCashier } from '../session/session.ts';
import { queueCommand, unixSeconds } from '../shifts/shifts.ts';
import { deskCash, takeCash } from './desk-cash.ts';
import {
  DESK_COMMAND_TYPES,
  nightsDue,
  overlay,
  stayDates,
  type DeskCommand,
  type DeskData,
  type ReservationDoc,
} from './desk-state.ts';
import { deskView, freeRooms, stayBalance, type DeskView } from './desk-view.ts';
import { walkInQuote } from './walk-in.ts';

const DISMISSED = 'desk:dismissed';
/** The board is read again each minute: the day turns, and nights fall due at the check-in time. */
const TICK_MS = 60_000;

const isDeskType = (type: string): type is DeskCommand['type'] =>
  (DESK_COMMAND_TYPES as readonly string[]).includes(type);

function deskData(docs: ReadonlyArray<Record<string, unknown>>): DeskData {
  const of = <T>(kind: string) => docs.filter((doc) => doc.kind === kind) as unknown as T[];
  return {
    property: of<DeskData['property'] & object>('property')[0] ?? null,
    roomTypes: of('room_types'),
    rooms: of('rooms'),
    rates: of('room_rates'),
    reservations: of('reservations'),
    conflicts: of('desk_conflicts'),
  };
}

const deskCommand = (doc: CommandDoc): DeskCommand => ({
  id: doc.id,
  type: doc.type as DeskCommand['type'],
  status: doc.status,
  payload: doc.payload,
  error: doc.error,
  synced_at: doc.synced_at,
});

const RECORDS = {
  kind: { $in: ['property', 'room_types', 'rooms', 'room_rates', 'reservations', 'desk_conflicts'] },
};

/**
 * The outbox's commands the desk reads: the waiting and refused ones, and the
 * last applied (laid over only while recent, `APPLIED_OVERLAY_MS`).
 */
const deskQueries = (ctx: Context) => [
  ctx.db.commands.find({ selector: { status: { $in: ['pending', 'refused'] } } }),
  ctx.db.commands.find({
    selector: { type: { $in: [...DESK_COMMAND_TYPES] }, status: 'applied' },
    sort: [{ id: 'desc' }],
    limit: 200,
  }),
];

const deskCommands = (docs: ReadonlyArray<{ toJSON(): unknown }>): DeskCommand[] =>
  docs
    .map((doc) => doc.toJSON() as CommandDoc)
    .filter((doc) => isDeskType(doc.type))
    .map(deskCommand);

/**
 * What the desk pulled, as plain data: made again only when the records change
 * (a hotel's stays are thousands of documents), and shared by the board and
 * the desk's steps for as long as the till runs.
 */
const deskDataOf = new WeakMap<Context, Observable<DeskData>>();
function deskData$(ctx: Context): Observable<DeskData> {
  let data = deskDataOf.get(ctx);
  if (!data) {
    data = ctx.db.records.find({ selector: RECORDS }).$.pipe(
      map((records) => deskData(records.map((doc) => doc.toJSON()))),
      shareReplay(1),
    );
    deskDataOf.set(ctx, data);
  }
  return data;
}

async function readDesk(ctx: Context): Promise<{ data: DeskData; commands: DeskCommand[] }> {
  const [data, ...commands] = await Promise.all([
    firstValueFrom(deskData$(ctx)),
    ...deskQueries(ctx).map((query) => query.exec()),
  ]);
  return { data, commands: deskCommands(commands.flat()) };
}

/** The desk's screen, again at each change to what was pulled or queued; null with no property pulled. */
export function watchDesk(ctx: Context): Observable<DeskView | null> {
  const [waiting$, applied$] = deskQueries(ctx).map((query) => query.$);
  return combineLatest([
    deskData$(ctx),
    waiting$!,
    applied$!,
    ctx.kv.watch<string[]>(DISMISSED),
    timer(TICK_MS, TICK_MS).pipe(startWith(0)),
  ]).pipe(
    map(([data, waiting, applied, dismissed]) =>
      deskView(data, deskCommands([...waiting, ...applied]), new Set(dismissed ?? []), ctx.now()),
    ),
  );
}

/** Whether the front desk is set up here: the property has been pulled. */
export function watchHasDesk(ctx: Context): Observable<boolean> {
  return ctx.db.records.find({ selector: { kind: 'property' } }).$.pipe(map((docs) => docs.length > 0));
}

async function requireDesk(ctx: Context) {
  const { data, commands } = await readDesk(ctx);
  if (!data.property) throw new TillRefusal('not_found', 'This till has no front desk');
  return { data, commands, property: data.property, overlaid: overlay(data, commands, ctx.now()) };
}

function requireStay(stays: readonly ReservationDoc[], id: string): ReservationDoc {
  const stay = stays.find((candidate) => candidate.id === id);
  if (!stay) throw new TillRefusal('not_found', 'No such reservation on this till', { reservation: id });
  return stay;
}

/** A walk-in's price and the room it would get, from what the till holds. */
export async function quoteWalkIn(ctx: Context, request: WalkInRequest): Promise<WalkInQuote> {
  const { data, overlaid } = await requireDesk(ctx);
  return withRefusals(() => walkInQuote(data, overlaid, request, ctx.now()));
}

/** Books a walk-in (or a phone booking) at the desk: `reservation.create` with an id made here. */
export async function walkIn(
  ctx: Context,
  request: WalkInRequest,
): Promise<{ reservation: string; room: string }> {
  const cashier = await requireCashier(ctx);
  const quoted = await quoteWalkIn(ctx, request);
  const room = request.room ?? quoted.room;
  if (!room || !quoted.freeRooms.includes(room))
    throw new TillRefusal('room_unavailable', 'No room of this type is free for the stay');
  const name = request.guestName.trim();
  if (name === '') throw new TillRefusal('invalid', 'The guest’s name is needed', { field: 'guest' });
  const phone = request.guestPhone?.trim();
  const reservation = ctx.ids.reservation();
  await queueCommand(
    ctx,
    'reservation.create',
    {
      reservation,
      room_type: request.roomType,
      room,
      ...(quoted.dayUse
        ? { starts_at: quoted.dayUse.startsAt, ends_at: quoted.dayUse.endsAt }
        : { arrival: quoted.arrival, departure: quoted.departure }),
      adults: request.adults,
      children: request.children,
      guest: { name, ...(phone ? { phone } : {}) },
      at: unixSeconds(ctx.now()),
    },
    { cashier: cashier.id },
  );
  return { reservation, room };
}

/** The rooms a stay may be given or moved to: of its type, free for its nights on this till's board. */
export async function roomsFor(ctx: Context, reservation: string): Promise<string[]> {
  const { overlaid } = await requireDesk(ctx);
  const stay = requireStay(overlaid.reservations, reservation);
  const dates = stayDates(stay);
  return freeRooms(overlaid, stay.room_type, dates.arrival, dates.departure, stay.id).map((room) => room.id);
}

async function printed(outcome: Promise<PrintOutcome | null>): Promise<DeskPrint> {
  const result = await outcome;
  if (result === null) return 'no_printer';
  return result.ok ? 'printed' : 'failed';
}

/** Checks an arrival in: the room, the register, a deposit if taken; prints the registration card. */
export async function checkIn(
  ctx: Context,
  printing: ReceiptPrinting,
  request: CheckInRequest,
): Promise<DeskPrint> {
  const cashier = await requireCashier(ctx);
  const { overlaid, property } = await requireDesk(ctx);
  const stay = requireStay(overlaid.reservations, request.reservation);
  if (stay.status !== 'confirmed')
    throw new TillRefusal('invalid', 'Only a confirmed stay is checked in', { status: stay.status });
  const room = request.room ?? stay.room;
  if (!room) throw new TillRefusal('invalid', 'Give the guest a room', { field: 'room' });
  if (room !== stay.room && !(await roomsFor(ctx, stay.id)).includes(room))
    throw new TillRefusal('room_unavailable', 'That room is not free for this stay');
  if (overlaid.rooms.find((candidate) => candidate.id === room)?.housekeeping === 'out_of_order')
    throw new TillRefusal('room_unavailable', 'That room is out of order');
  if (request.guests.length === 0)
    throw new TillRefusal('invalid', 'Register at least one guest', { field: 'guests' });
  const deposit = deskCash(property, request.deposit, request.depositForeign, 'deposit');
  const guests = request.guests.map((guest, index) => {
    const checked = guestRegistrationSchema.safeParse(guest);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new TillRefusal('invalid', issue?.message ?? 'invalid', {
        field: `guests.${index}.${String(issue?.path[0] ?? '')}`,
      });
    }
    return checked.data;
  });
  const at = unixSeconds(ctx.now());
  await queueCommand(
    ctx,
    'reservation.check_in',
    { reservation: stay.id, ...(room !== stay.room ? { room } : {}), guests, at },
    { cashier: cashier.id },
  );
  await takeCash(ctx, stay.id, 'deposit', deposit, cashier.id, at);
  const store = await currentStore(ctx);
  const dates = stayDates(stay);
  const card = buildRegistrationCard({
    language: store.receipt_language,
    property: { name: property.name, addressLines: property.address_lines },
    reservation: {
      id: stay.id,
      room: overlaid.rooms.find((candidate) => candidate.id === room)?.number ?? null,
      arrival: dates.arrival,
      departure: dates.departure,
      nights: stay.mode === 'day_use' ? 0 : ((stay.quote as StayQuote | null)?.nights ?? 0),
    },
    guests,
  });
  return printed(printing.printRows(card));
}

/** Moves a stay to another free room of its type. */
export async function moveStay(ctx: Context, reservation: string, room: string): Promise<void> {
  const cashier = await requireCashier(ctx);
  const { overlaid } = await requireDesk(ctx);
  if (requireStay(overlaid.reservations, reservation).room === room)
    throw new TillRefusal('invalid', 'The stay is in that room already', { field: 'room' });
  if (!(await roomsFor(ctx, reservation)).includes(room))
    throw new TillRefusal('room_unavailable', 'That room is not free for this stay');
  await queueCommand(
    ctx,
    'reservation.move',
    { reservation, room, at: unixSeconds(ctx.now()) },
    { cashier: cashier.id },
  );
}

/** Marks a room, through the housekeeping machine (a room out of order comes back only as dirty). */
export async function setHousekeeping(ctx: Context, room: string, status: HousekeepingStatus): Promise<void> {
  const cashier = await requireCashier(ctx);
  const { overlaid } = await requireDesk(ctx);
  const current = overlaid.rooms.find((candidate) => candidate.id === room);
  if (!current) throw new TillRefusal('not_found', 'No such room on this till', { room });
  await withRefusals(() => assertTransition(HOUSEKEEPING_STATES, current.housekeeping, status));
  await queueCommand(
    ctx,
    'room.housekeeping',
    { room, housekeeping: status, at: unixSeconds(ctx.now()) },
    { cashier: cashier.id },
  );
}

/** What a stay owes now at this desk (`deskBalance`). */
export async function balanceOf(ctx: Context, reservation: string): Promise<number> {
  const { overlaid, property } = await requireDesk(ctx);
  return stayBalance(requireStay(overlaid.reservations, reservation), property, overlaid, ctx.now());
}

/** The stay's charges so far, by kind: the nights posted or due, as the night audit splits them. */
function chargesSoFar(stay: ReservationDoc, due: number): Array<{ kind: FolioSlipCharge; amount: number }> {
  const quote = stay.quote as StayQuote | null;
  if (!quote || !Array.isArray(quote.night_lines)) return [];
  const charges = nightCharges(quote, stay.mode === 'day_use' ? stayDates(stay).arrival : null);
  const nights = [...new Set(charges.map((charge) => charge.night))].slice(
    0,
    Math.max(due, stay.folio_nights_posted),
  );
  const byKind = new Map<NightChargeKind, number>();
  for (const charge of charges)
    if (nights.includes(charge.night))
      byKind.set(charge.kind, (byKind.get(charge.kind) ?? 0) + charge.amount);
  return [...byKind].map(([kind, amount]) => ({ kind, amount }));
}

/**
 * Checks a guest out: cash taken for the balance (`folio.payment`), then
 * `reservation.check_out`; a balance left other than zero needs a manager's
 * PIN and a reason. Prints the folio slip.
 */
export async function checkOut(
  ctx: Context,
  printing: ReceiptPrinting,
  request: CheckOutRequest,
): Promise<{ balance: number; print: DeskPrint }> {
  const cashier = await requireCashier(ctx);
  const { overlaid, property } = await requireDesk(ctx);
  const stay = requireStay(overlaid.reservations, request.reservation);
  if (stay.status !== 'checked_in')
    throw new TillRefusal('invalid', 'Only a guest in house checks out', { status: stay.status });
  const owed = stayBalance(stay, property, overlaid, ctx.now());
  const taken = deskCash(property, request.cash, request.foreign, 'cash');
  if (taken.worth > Math.max(owed, 0))
    throw new TillRefusal('invalid', 'Take no more cash than the balance', { field: 'cash' });
  const left = owed - taken.worth;
  let override: { reason: string; approved_by: string; name: string } | undefined;
  if (left !== 0) {
    const reason = request.reason?.trim() ?? '';
    if (reason === '')
      throw new TillRefusal('invalid', 'Say why the guest leaves with a balance', { field: 'reason' });
    const manager = cashier.role === 'manager' ? cashier : await approveByManager(ctx, request.managerPin);
    override = { reason, approved_by: manager.id, name: manager.name };
  }
  const at = unixSeconds(ctx.now());
  await takeCash(ctx, stay.id, 'cash', taken, cashier.id, at);
  await queueCommand(
    ctx,
    'reservation.check_out',
    {
      reservation: stay.id,
      ...(override ? { override: { reason: override.reason, approved_by: override.approved_by } } : {}),
      at,
    },
    { cashier: cashier.id },
  );
  const charges = chargesSoFar(stay, nightsDue(stay, property, ctx.now()));
  const charged = charges.reduce((sum, charge) => sum + charge.amount, 0);
  const earlier = charged - owed;
  const payments: Array<{ kind: FolioSlipPayment; amount: number }> = [
    { kind: 'earlier', amount: Math.max(earlier, 0) },
    { kind: 'cash', amount: taken.worth },
  ];
  const store = await currentStore(ctx);
  const dates = stayDates(stay);
  const slip = buildFolioDocument({
    language: store.receipt_language,
    property: { name: property.name, addressLines: property.address_lines },
    reservation: {
      id: stay.id,
      guestName: stay.guest_name,
      room: overlaid.rooms.find((room) => room.id === stay.room)?.number ?? null,
      arrival: dates.arrival,
      departure: dates.departure,
      nights: stay.mode === 'day_use' ? 0 : ((stay.quote as StayQuote | null)?.nights ?? 0),
    },
    // What the folio holds beyond the nights (extras) shows as its own charge.
    charges: earlier < 0 ? [...charges, { kind: 'extra', amount: -earlier }] : charges,
    payments,
    balance: left,
    ...(override ? { override: { reason: override.reason, approvedBy: override.name } } : {}),
    issuedAt: new Date(ctx.now()),
    cashier: cashier.name,
  });
  if (taken.worth > 0) void printing.openDrawer();
  return { balance: left, print: await printed(printing.printRows(slip)) };
}

/**
 * A conflict the desk has dealt with: gone from this desk at once, and from
 * every desk once the server has the resolution (a conflict it recorded). The
 * refused step stays in the outbox and its export.
 */
export async function dismissConflict(
  ctx: Context,
  conflict: { command: string; id: string | null },
): Promise<void> {
  await ctx.kv.update<string[]>(DISMISSED, [], (current) => [...new Set([...current, conflict.command])]);
  if (conflict.id !== null)
    await queueCommand(ctx, 'desk_conflict.resolve', { conflict: conflict.id, at: unixSeconds(ctx.now()) });
}
