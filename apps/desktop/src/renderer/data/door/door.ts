/**
 * The door: a scanned code judged online first, the door's own verdict when
 * the server is slow or out of reach. Online, the door asks `sync.doorCheckin`
 * and shows the server's verdict; with no answer within `DOOR_ONLINE_WAIT_MS`
 * (or offline) it judges with core's `judgeAtDoor` over what it pulled and,
 * when it admits, writes a `ticket.checkin` report to the outbox with the
 * same scan id, pushed once like a sale. Scans never wait on each other but
 * for the door's own judgement and report, one at a time, so the same ticket
 * scanned twice in a row is admitted once.
 */
import { BehaviorSubject, combineLatest, firstValueFrom, map, shareReplay } from 'rxjs';
import type { Observable } from 'rxjs';
import { DOOR_ONLINE_WAIT_MS, importDoorKey, judgeAtDoor, type DoorBook, type DoorJudgement } from '@tz/core';
import { TillRefusal } from '../api.ts';
import { device, type Context, type Device } from '../store/context.ts';
import { KV } from '../store/kv.ts';
import type { CommandDoc } from '../store/schema.ts';
import { requireCashier } from '../session/session.ts';
import { queueCommand, unixSeconds } from '../shifts/shifts.ts';
import { withBoxOfficeTickets } from '../box-office/box-office-tickets.ts';
import {
  admittedAt,
  doorEvent,
  doorView,
  knownAdmissions,
  reportAdmission,
  type CheckinDoc,
  type DoorReport,
  type DoorView,
  type DoubleAdmissionDoc,
  type EventTierDoc,
  type KnownAdmission,
  type TicketIndex,
  type TicketedEventDoc,
} from './door-state.ts';
import { watchTickets } from './door-tickets.ts';

const CHOSEN = 'door:event';
/** The server's `ok` answers to this door, kept until the pull brings their check-ins (a reload keeps them). */
const ANSWERED = 'door:answered';
/** Applied reports are still read for this many: until the pull brings their check-ins back. */
const APPLIED_REPORTS = 500;

/** A scan's outcome: the verdict, who judged it, and the scan's id. */
export interface DoorScan extends DoorJudgement {
  scan: string;
  event: string;
  /** `server`: the server's answer; `door`: this door's own (offline, or the server too slow). */
  source: 'server' | 'door';
}

/** What the door holds, made again at each change of what it reads. */
interface DoorState {
  door: string;
  events: TicketedEventDoc[];
  chosen: string | null;
  tiers: Map<string, string>;
  tickets: TicketIndex;
  checkins: CheckinDoc[];
  doubles: DoubleAdmissionDoc[];
  own: KnownAdmission[];
  admissions: Map<string, KnownAdmission>;
  waiting: number;
}

interface DoorRuntime {
  state$: Observable<DoorState>;
  /** Admissions made in this run, before the outbox or the store reads them back. */
  admittedNow: Map<string, KnownAdmission>;
  admittedNow$: BehaviorSubject<number>;
  keys: Map<string, Promise<CryptoKey | null>>;
  /** The door's own judgements and reports, one after another. */
  judging: Promise<unknown>;
}

const records = <T>(ctx: Context, kind: string): Observable<T[]> =>
  ctx.db.records
    .find({ selector: { kind } })
    .$.pipe(map((docs) => docs.map((doc) => doc.toJSON() as unknown as T)));

const reportOf = (doc: CommandDoc): DoorReport => ({
  id: doc.id,
  status: doc.status,
  payload: doc.payload as DoorReport['payload'],
});

const runtimes = new WeakMap<Context, DoorRuntime>();
function runtime(ctx: Context): DoorRuntime {
  const existing = runtimes.get(ctx);
  if (existing) return existing;
  const admittedNow = new Map<string, KnownAdmission>();
  const admittedNow$ = new BehaviorSubject(0);
  // Each part is its own query; the tickets are kept in memory from their pages (`door-tickets.ts`),
  // with this till's box-office tickets laid over them until they come back in a pull.
  const tickets$ = withBoxOfficeTickets(ctx, watchTickets(ctx)).pipe(shareReplay(1));
  const reports$ = combineLatest([
    ctx.db.commands.find({ selector: { status: { $in: ['pending', 'refused'] } } }).$,
    ctx.db.commands.find({
      selector: { type: 'ticket.checkin', status: 'applied' },
      sort: [{ id: 'desc' }],
      limit: APPLIED_REPORTS,
    }).$,
  ]).pipe(
    map(([open, applied]) =>
      [...open, ...applied]
        .map((doc) => doc.toJSON() as CommandDoc)
        .filter((doc) => doc.type === 'ticket.checkin')
        .map(reportOf),
    ),
  );
  const state$ = combineLatest([
    records<TicketedEventDoc>(ctx, 'ticketed_events'),
    records<EventTierDoc>(ctx, 'event_tiers'),
    tickets$,
    records<CheckinDoc>(ctx, 'checkins'),
    records<DoubleAdmissionDoc>(ctx, 'double_admissions'),
    reports$,
    ctx.kv.watch<Record<string, KnownAdmission>>(ANSWERED),
    ctx.kv.watch<string>(CHOSEN),
    ctx.kv.watch<Device>(KV.device),
    admittedNow$,
  ]).pipe(
    map(([events, tiers, tickets, checkins, doubles, reports, answered, chosen, current]): DoorState => {
      const own = [
        ...reports.map(reportAdmission),
        ...Object.values(answered ?? {}),
        ...admittedNow.values(),
      ];
      return {
        door: doorName(current?.till.name),
        events,
        chosen,
        tiers: new Map(tiers.map((tier) => [tier.id, tier.name])),
        tickets,
        checkins,
        doubles,
        own,
        admissions: knownAdmissions(checkins, own),
        waiting: reports.filter((report) => report.status === 'pending').length,
      };
    }),
    shareReplay(1),
  );
  const made: DoorRuntime = {
    state$,
    admittedNow,
    admittedNow$,
    keys: new Map(),
    judging: Promise.resolve(),
  };
  runtimes.set(ctx, made);
  return made;
}

/** The door's name as the command takes it: the till's name. */
const doorName = (name: string | undefined): string => (name?.trim() || 'door').slice(0, 64);

/** Whether the door shows: an event it may admit to has been pulled. */
export function watchHasDoor(ctx: Context): Observable<boolean> {
  return ctx.db.records
    .find({ selector: { kind: 'ticketed_events' } })
    .$.pipe(map((docs) => docs.length > 0));
}

/** The door's screen, again at each change; null with no event pulled. */
export function watchDoor(ctx: Context): Observable<DoorView | null> {
  return runtime(ctx).state$.pipe(
    map((state) =>
      state.events.length === 0
        ? null
        : doorView({
            ...state,
            admittedHere: admittedAt(state.door, state.checkins, state.doubles, state.own),
          }),
    ),
  );
}

/** Picks the event this door admits to, where several are on. */
export async function chooseDoorEvent(ctx: Context, event: string): Promise<void> {
  const { events } = await firstValueFrom(runtime(ctx).state$);
  if (!events.some((one) => one.id === event))
    throw new TillRefusal('not_found', 'No such event on this till', { event });
  await ctx.kv.set(CHOSEN, event);
}

function keyOf(run: DoorRuntime, publicKey: string): Promise<CryptoKey | null> {
  let key = run.keys.get(publicKey);
  if (!key) {
    key = importDoorKey(publicKey).catch(() => null);
    run.keys.set(publicKey, key);
  }
  return key;
}

/** The server's verdict, or null when it has not answered in time (or could not). */
async function askServer(ctx: Context, input: Parameters<Context['transport']['doorCheckin']>[0]) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), DOOR_ONLINE_WAIT_MS);
  });
  const asked = ctx.transport.doorCheckin(input).catch(() => null);
  try {
    return await Promise.race([asked, late]);
  } finally {
    clearTimeout(timer);
  }
}

function remember(run: DoorRuntime, admission: KnownAdmission): void {
  run.admittedNow.set(admission.ticket, admission);
  run.admittedNow$.next(run.admittedNow.size);
}

/** A code scanned or typed at the door: its verdict, online first. Never throws for a bad code. */
export async function scanAtDoor(ctx: Context, rawCode: string): Promise<DoorScan> {
  const cashier = await requireCashier(ctx);
  const run = runtime(ctx);
  const state = await firstValueFrom(run.state$);
  const event = doorEvent(state.events, state.chosen);
  if (!event) throw new TillRefusal('invalid', 'Choose the event this door admits to', { field: 'event' });
  const code = rawCode.trim();
  const scan = ctx.ids.scan();
  const current = await device(ctx);
  const ended = current === null || current.revoked || current.retired !== undefined;
  if (ctx.online() && !ended && code !== '' && code.length <= 1000) {
    const answer = await askServer(ctx, { scan, event: event.id, code, door: state.door });
    if (answer) {
      // What the server said of an admission is known here at once, for the next scan offline.
      if (answer.ticket && answer.checked_in) {
        const admission = { event: event.id, ticket: answer.ticket, ...answer.checked_in };
        remember(run, admission);
        await keepAnswer(ctx, state.checkins, admission);
      }
      return {
        scan,
        event: event.id,
        source: 'server',
        verdict: answer.verdict,
        ticket: answer.ticket,
        tier: answer.tier,
        holder: answer.holder,
        checked_in: answer.checked_in,
      };
    }
  }
  const judged = run.judging.then(async (): Promise<DoorScan> => {
    const latest = await firstValueFrom(run.state$);
    const key = await keyOf(run, event.door_key);
    const own = { scan, event: event.id, source: 'door' as const };
    if (!key) return { ...own, verdict: 'invalid', ticket: null, tier: null, holder: null, checked_in: null };
    const book: DoorBook = {
      event,
      key,
      tickets: latest.tickets.byId,
      tiers: latest.tiers,
      admissions: { get: (ticket) => latest.admissions.get(ticket) ?? run.admittedNow.get(ticket) },
    };
    const at = unixSeconds(ctx.now());
    const judgement = await judgeAtDoor(code, book, at);
    if (judgement.verdict === 'ok' && judgement.ticket) {
      await queueCommand(
        ctx,
        'ticket.checkin',
        { scan, event: event.id, ticket: judgement.ticket, code, door: latest.door, at },
        { cashier: cashier.id },
      );
      remember(run, { event: event.id, ticket: judgement.ticket, door: latest.door, at });
    }
    return { ...own, ...judgement };
  });
  run.judging = judged.catch(() => undefined);
  return judged;
}

/** Keeps the server's `ok` until the pull brings its check-in; drops those the pull brought. */
async function keepAnswer(ctx: Context, checkins: readonly CheckinDoc[], admission: KnownAdmission) {
  const pulled = new Set(checkins.map((checkin) => checkin.ticket));
  await ctx.kv.update<Record<string, KnownAdmission>>(ANSWERED, {}, (current) => {
    const kept = Object.fromEntries(Object.entries(current).filter(([ticket]) => !pulled.has(ticket)));
    return { ...kept, [admission.ticket]: admission };
  });
}
