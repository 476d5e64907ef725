/**
 * The door of the preview's sample store: a concert's pulled event, tiers and
 * tickets signed with a key pair made here, a check-in by another door and a
 * double admission, judged by core's `judgeAtDoor` and shown through the
 * till's own `doorView`, so the door looks and decides as it does on a till
 * that is offline.
 */
import { BehaviorSubject, combineLatest, map } from 'rxjs';
import {
  encodeTicketCode,
  judgeAtDoor,
  listedTicketCode,
  newId,
  ticketCodeBody,
  toBase64Url,
  type TicketClaim,
} from '@tz/core';
import type {
  CompletedSale,
  DoorScan,
  Sale,
  TillStore,
} from '../../../apps/desktop/src/renderer/data/api.ts';
import {
  admittedAt,
  doorEvent,
  doorView,
  knownAdmissions,
  ticketIndex,
  type CheckinDoc,
  type DoubleAdmissionDoc,
  type KnownAdmission,
  type TicketDoc,
  type TicketedEventDoc,
} from '../../../apps/desktop/src/renderer/data/door/door-state.ts';

type DoorPart = Pick<
  TillStore,
  | 'hasDoor$'
  | 'door$'
  | 'chooseDoorEvent'
  | 'scanAtDoor'
  | 'boxOffice$'
  | 'chooseBoxOfficeEvent'
  | 'sellTickets'
>;

/** What the preview's door holds: `none` (no event), one event, or two to choose from. */
export type SampleDoor = 'none' | 'one' | 'two';

const HOLDERS = ['Neema Mollel', 'Baraka Mushi', 'Zawadi Said', 'Juma Hamisi', 'Rehema Kweka'];
const DOOR = 'Lango Kuu';

async function signer() {
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  const sign = async (claim: TicketClaim) => {
    const body = ticketCodeBody(claim)!;
    return encodeTicketCode(body, new Uint8Array(await crypto.subtle.sign('Ed25519', pair.privateKey, body)));
  };
  return { key: pair.publicKey, publicKey: toBase64Url(raw), sign };
}

async function sampleEvent(nowSeconds: number, name: string, venue: string, startsIn: number) {
  const { key, publicKey, sign } = await signer();
  const event: TicketedEventDoc = {
    id: newId('ticketedEvent'),
    _deleted: false,
    name,
    venue,
    status: 'published',
    starts_at: nowSeconds + startsIn,
    ends_at: nowSeconds + startsIn + 5 * 3600,
    doors_open_at: nowSeconds - 3600,
    time_zone: 'Africa/Dar_es_Salaam',
    capacity: 500,
    door_key: publicKey,
  };
  const tiers = [
    { id: newId('eventTier'), name: 'VIP', price: 50_000, left: 12 },
    { id: newId('eventTier'), name: 'Kawaida', price: 15_000, left: 240 },
    { id: newId('eventTier'), name: 'Wanafunzi', price: 8_000, left: 0 },
  ];
  const tickets: TicketDoc[] = [];
  for (let i = 0; i < HOLDERS.length; i++) {
    const id = newId('ticket');
    const tier = tiers[i % 2]!.id;
    tickets.push({
      id,
      _deleted: false,
      event: event.id,
      tier,
      order: newId('eventOrder'),
      status: 'valid',
      holder_name: HOLDERS[i]!,
      code: await sign({ event: event.id, ticket: id, tier }),
    });
  }
  return { event, key, tiers, tickets };
}

type Sample = Awaited<ReturnType<typeof sampleEvent>>;

/** The door, and its box office selling into the same tickets (`sold` makes the sale the screens show). */
export function sampleDoor(
  now: number,
  sold: (total: number) => Sale,
): DoorPart & {
  setDoor: (shown: SampleDoor) => Promise<void>;
  /** The codes of the shown events' tickets, by holder, and one of an event this door does not hold. */
  doorCodes: () => { tickets: Array<{ holder: string; code: string }>; foreign: string };
} {
  const nowSeconds = Math.floor(now / 1000);
  const samples$ = new BehaviorSubject<Sample[]>([]);
  const chosen$ = new BehaviorSubject<string | null>(null);
  const own$ = new BehaviorSubject<KnownAdmission[]>([]);
  let foreign = '';
  const pulled = (samples: Sample[]) => {
    const first = samples[0];
    // Another door admitted the second holder; this door admitted the third too, offline.
    const checkins: CheckinDoc[] = first
      ? [
          {
            id: newId('checkin'),
            _deleted: false,
            event: first.event.id,
            ticket: first.tickets[1]!.id,
            door: 'Lango la Kusini',
            at: nowSeconds - 900,
            scan: null,
          },
        ]
      : [];
    const doubles: DoubleAdmissionDoc[] = first
      ? [
          {
            id: newId('doubleAdmission'),
            _deleted: false,
            event: first.event.id,
            ticket: first.tickets[1]!.id,
            holder_name: first.tickets[1]!.holder_name,
            first: { checkin: checkins[0]!.id, door: 'Lango la Kusini', at: nowSeconds - 900 },
            door: DOOR,
            at: nowSeconds - 840,
            scan: newId('scan'),
            detected_at: nowSeconds - 600,
          },
        ]
      : [];
    return { checkins, doubles };
  };
  const boxChosen$ = new BehaviorSubject<string | null>(null);
  const state$ = combineLatest([samples$, chosen$, own$]).pipe(
    map(([samples, chosen, own]) => {
      const events = samples.map((sample) => sample.event);
      const tickets = ticketIndex(samples.flatMap((sample) => sample.tickets));
      const { checkins, doubles } = pulled(samples);
      const admissions = knownAdmissions(checkins, own);
      return { samples, events, chosen, tickets, checkins, doubles, own, admissions };
    }),
  );
  const door: Omit<DoorPart, 'boxOffice$' | 'chooseBoxOfficeEvent' | 'sellTickets'> = {
    hasDoor$: samples$.pipe(map((samples) => samples.length > 0)),
    door$: state$.pipe(
      map((state) =>
        state.events.length === 0
          ? null
          : doorView({
              door: DOOR,
              ...state,
              admittedHere: admittedAt(DOOR, state.checkins, state.doubles, state.own),
              waiting: state.own.length,
            }),
      ),
    ),
    chooseDoorEvent: (event) => Promise.resolve(chosen$.next(event)),
    async scanAtDoor(code) {
      const samples = samples$.value;
      const event = doorEvent(
        samples.map((sample) => sample.event),
        chosen$.value,
      );
      const sample = samples.find((one) => one.event.id === event?.id);
      if (!sample) throw new Error('Choose the event first');
      const tickets = ticketIndex(samples.flatMap((one) => one.tickets));
      const admissions = knownAdmissions(pulled(samples).checkins, own$.value);
      const judged = await judgeAtDoor(
        code,
        {
          event: sample.event,
          key: sample.key,
          tickets: tickets.byId,
          tiers: new Map(sample.tiers.map((tier) => [tier.id, tier.name])),
          admissions,
        },
        nowSeconds,
      );
      if (judged.verdict === 'ok' && judged.ticket)
        own$.next([
          ...own$.value,
          { event: sample.event.id, ticket: judged.ticket, door: DOOR, at: nowSeconds },
        ]);
      const scanned: DoorScan = { ...judged, scan: newId('scan'), event: sample.event.id, source: 'door' };
      return scanned;
    },
  };
  const boxOffice: Pick<DoorPart, 'boxOffice$' | 'chooseBoxOfficeEvent' | 'sellTickets'> = {
    boxOffice$: combineLatest([samples$, boxChosen$]).pipe(
      map(([samples, chosen]) => {
        if (samples.length === 0) return null;
        const sample =
          samples.find((one) => one.event.id === chosen) ?? (samples.length === 1 ? samples[0] : null);
        const event = (one: Sample) => ({
          id: one.event.id,
          name: one.event.name,
          venue: one.event.venue,
          startsAt: one.event.starts_at,
        });
        return {
          events: samples.map(event),
          event: sample ? event(sample) : null,
          tiers: sample?.tiers ?? [],
          currency: 'TZS' as const,
        };
      }),
    ),
    chooseBoxOfficeEvent: (event) => Promise.resolve(boxChosen$.next(event)),
    // Sold as the till sells offline: tickets under the box office's unsigned codes, admitted here at once.
    async sellTickets(request): Promise<CompletedSale> {
      // Resolves in a later task, as the real store's database write does.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const sample = samples$.value.find((one) => one.event.id === request.event)!;
      let total = 0;
      for (const line of request.lines) {
        const tier = sample.tiers.find((one) => one.id === line.tier)!;
        total += tier.price * line.quantity;
        tier.left -= line.quantity;
        for (let i = 0; i < line.quantity; i++) {
          const id = newId('ticket');
          sample.tickets.push({
            id,
            _deleted: false,
            event: sample.event.id,
            tier: tier.id,
            order: newId('eventOrder'),
            status: 'valid',
            holder_name: 'Lango Kuu',
            code: listedTicketCode({ event: sample.event.id, ticket: id, tier: tier.id }),
          });
        }
      }
      samples$.next([...samples$.value]);
      const taken = request.tenders.reduce((sum, one) => sum + one.amount, 0);
      return { sale: sold(total), change: taken - total };
    },
  };
  return {
    ...door,
    ...boxOffice,
    setDoor: async (shown) => {
      own$.next([]);
      chosen$.next(null);
      if (shown === 'none') return samples$.next([]);
      const concert = await sampleEvent(nowSeconds, 'Sauti za Busara', 'Ngome Kongwe, Zanzibar', 2 * 3600);
      const other = await sampleEvent(
        nowSeconds,
        'Tamasha la Bagamoyo',
        'Chuo cha Sanaa, Bagamoyo',
        26 * 3600,
      );
      foreign = other.tickets[0]!.code!;
      samples$.next(shown === 'two' ? [concert, other] : [concert]);
    },
    doorCodes: () => ({
      tickets: samples$.value.flatMap((sample) =>
        sample.tickets.map((ticket) => ({ holder: ticket.holder_name, code: ticket.code! })),
      ),
      foreign,
    }),
  };
}
