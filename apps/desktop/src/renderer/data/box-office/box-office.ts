/**
 * The box office: tickets sold at the counter, offline like any sale
 * (docs/EVENTS.md, "Box office"). The cashier picks an event's tiers and
 * quantities, takes payment with the sale's tenders, and the sale is ONE
 * local write: the `event_order.sell` command, carrying the order's and the
 * tickets' ids made here, each ticket's code (core's `listedTicketCode`,
 * unsigned: the till holds no private key) and the receipt that prints each
 * ticket with its QR. This till's door admits the tickets at once
 * (`box-office-tickets.ts`); other doors once the sale is synced.
 *
 * A tier sells no more than the till knows is left: the pulled tier's `left`
 * less the tickets of this till's sales the server has not applied yet. A
 * tier pulled before the server said what was left sells nothing until it is
 * pulled again.
 */
import { combineLatest, map, type Observable } from 'rxjs';
import {
  allocateTenders,
  boxOfficeLeft,
  buildBoxOfficeReceipt,
  commandPayloads,
  doorsOpenAt,
  listedTicketCode,
  storeReceiptSettings,
} from '@tz/core';
import { TillRefusal } from '../api.ts';
import type { CompletedSale, TenderEntry } from '../api.ts';
import { toTenderInputs } from '../cart/order-mapping.ts';
import { currentStore, requireDevice, withRefusals, type Context } from '../store/context.ts';
import { KV } from '../store/kv.ts';
import type { CommandDoc } from '../store/schema.ts';
import { requireCashier } from '../session/session.ts';
import { unixSeconds, type OpenShift } from '../shifts/shifts.ts';
import { nextReceiptNumber, numberUsed } from '../sale/receipt-numbers.ts';
import { oneAtATime, paidByMethod, requirePaid, saleFrom, withPayers } from '../sale/sale.ts';
import type { EventTierDoc, TicketedEventDoc } from '../door/door-state.ts';

const CHOSEN = 'box-office:event';
/** The box office's command: its sales are read by this type. */
export const BOX_OFFICE_SALE = 'event_order.sell';

export interface BoxOfficeTier {
  id: string;
  name: string;
  price: number;
  /** How many this till may still sell; null while the server has not said (pull again). */
  left: number | null;
}

export interface BoxOfficeEvent {
  id: string;
  name: string;
  venue: string;
  /** Unix seconds. */
  startsAt: number;
}

export interface BoxOfficeView {
  /** Events on sale (published, not ended), soonest first. */
  events: BoxOfficeEvent[];
  /** The event it sells; null until one is chosen where several are on sale. */
  event: BoxOfficeEvent | null;
  tiers: BoxOfficeTier[];
  currency: 'TZS';
}

export interface BoxOfficeRequest {
  event: string;
  lines: Array<{ tier: string; quantity: number }>;
  tenders: TenderEntry[];
}

const records = <T>(ctx: Context, kind: string): Observable<T[]> =>
  ctx.db.records
    .find({ selector: { kind } })
    .$.pipe(map((docs) => docs.map((doc) => doc.toJSON() as unknown as T)));

/** Tickets per tier of this till's box-office sales the server has not applied yet. */
function unapplied(commands: readonly CommandDoc[]): Map<string, number> {
  const sold = new Map<string, number>();
  for (const command of commands)
    for (const ticket of (command.payload.tickets as Array<{ tier: string }> | undefined) ?? [])
      sold.set(ticket.tier, (sold.get(ticket.tier) ?? 0) + 1);
  return sold;
}

const onSale = (event: TicketedEventDoc, nowSeconds: number) =>
  event.status === 'published' && nowSeconds < event.ends_at;

const choice = (event: TicketedEventDoc): BoxOfficeEvent => ({
  id: event.id,
  name: event.name,
  venue: event.venue,
  startsAt: event.starts_at,
});

/** The box office's screen, again at each change; null with no event on sale. */
export function watchBoxOffice(ctx: Context): Observable<BoxOfficeView | null> {
  return combineLatest([
    records<TicketedEventDoc>(ctx, 'ticketed_events'),
    records<EventTierDoc>(ctx, 'event_tiers'),
    ctx.db.commands.find({ selector: { type: BOX_OFFICE_SALE, status: 'pending' } }).$,
    ctx.kv.watch<string>(CHOSEN),
  ]).pipe(
    map(([events, tiers, pending, chosen]) => {
      const now = unixSeconds(ctx.now());
      const sellable = events.filter((event) => onSale(event, now)).sort((a, b) => a.starts_at - b.starts_at);
      if (sellable.length === 0) return null;
      const event =
        sellable.find((one) => one.id === chosen) ?? (sellable.length === 1 ? sellable[0]! : null);
      const sold = unapplied(pending.map((doc) => doc.toJSON() as CommandDoc));
      return {
        events: sellable.map(choice),
        event: event ? choice(event) : null,
        tiers: event
          ? tiers
              .filter((tier) => tier.event === event.id)
              .map((tier) => ({
                id: tier.id,
                name: tier.name,
                price: tier.price,
                left:
                  tier.left === undefined ? null : boxOfficeLeft({ left: tier.left }, sold.get(tier.id) ?? 0),
              }))
          : [],
        currency: 'TZS' as const,
      };
    }),
  );
}

/** Picks the event the box office sells, where several are on sale. */
export async function chooseBoxOfficeEvent(ctx: Context, event: string): Promise<void> {
  const found = await ctx.db.records.findOne(event).exec();
  if (found?.toJSON().kind !== 'ticketed_events')
    throw new TillRefusal('not_found', 'No such event on this till', { event });
  await ctx.kv.set(CHOSEN, event);
}

type Completed = CompletedSale & { command: CommandDoc };

/** Sells the tickets: one command with the tickets' ids, codes and receipt. Refused `sold_out` past what is left. */
export function sellTickets(ctx: Context, request: BoxOfficeRequest): Promise<Completed> {
  return oneAtATime(ctx, async (turn) => {
    const [cashier, { till, revoked, retired }, shift, store] = await Promise.all([
      requireCashier(ctx),
      requireDevice(ctx),
      ctx.kv.get<OpenShift>(KV.shift),
      currentStore(ctx),
    ]);
    if (revoked)
      throw new TillRefusal('till_revoked', 'This till was revoked: it can no longer record sales');
    if (retired)
      throw new TillRefusal('till_retired', 'This till was retired: it can no longer record sales');
    if (!shift) throw new TillRefusal('shift_not_open', 'Open a shift before selling');
    const lines = request.lines.filter((line) => line.quantity > 0);
    if (lines.length === 0) throw new TillRefusal('cart_empty', 'Choose the tickets first');

    const [eventDoc, tierDocs, pending] = await Promise.all([
      ctx.db.records.findOne(request.event).exec(),
      ctx.db.records.find({ selector: { kind: 'event_tiers' } }).exec(),
      ctx.db.commands.find({ selector: { type: BOX_OFFICE_SALE, status: 'pending' } }).exec(),
    ]);
    const event = eventDoc?.toJSON() as TicketedEventDoc | undefined;
    if (!event || !onSale(event, unixSeconds(ctx.now())))
      throw new TillRefusal('sales_closed', 'This event is not on sale', { event: request.event });
    const tiers = new Map(
      tierDocs
        .map((doc) => doc.toJSON() as unknown as EventTierDoc)
        .filter((tier) => tier.event === event.id)
        .map((tier) => [tier.id, tier]),
    );
    const sold = unapplied(pending.map((doc) => doc.toJSON() as CommandDoc));
    for (const line of lines) {
      const tier = tiers.get(line.tier);
      if (!tier) throw new TillRefusal('not_found', 'No such tier', { tier: line.tier });
      const left = tier.left === undefined ? 0 : boxOfficeLeft({ left: tier.left }, sold.get(tier.id) ?? 0);
      if (line.quantity > left) throw new TillRefusal('sold_out', `Only ${left} of ${tier.name} left`);
    }
    const priced = lines.map((line) => ({ ...line, tier: tiers.get(line.tier)! }));
    const total = priced.reduce((sum, line) => sum + line.quantity * line.tier.price, 0);
    const allocation = await withRefusals(() =>
      allocateTenders({ currency: 'TZS', amountDue: total, tenders: toTenderInputs(request.tenders) }),
    );
    for (const tender of request.tenders)
      if (tender.method === 'room') throw new TillRefusal('invalid', 'A ticket cannot be charged to a room');
    const payments = await requirePaid(ctx, request.tenders, 'TZS');

    const soldAt = ctx.now();
    const tickets = priced.flatMap((line) =>
      Array.from({ length: line.quantity }, () => {
        const id = ctx.ids.ticket();
        return {
          id,
          tier: line.tier,
          code: listedTicketCode({ event: event.id, ticket: id, tier: line.tier.id })!,
        };
      }),
    );
    const receiptNumber = await nextReceiptNumber(ctx, till.receiptPrefix, turn);
    const receipt = await withRefusals(() =>
      buildBoxOfficeReceipt({
        event: { name: event.name, venue: event.venue, doorsOpenAt: doorsOpenAt(event) },
        lines: priced.map((line) => ({
          tierName: line.tier.name,
          quantity: line.quantity,
          unitPrice: line.tier.price,
        })),
        tickets: tickets.map((ticket) => ({ tierName: ticket.tier.name, code: ticket.code })),
        tenders: withPayers(allocation, payments),
        store: storeReceiptSettings(store),
        receiptNumber,
        issuedAt: new Date(soldAt),
        cashier: cashier.name,
        till: till.name,
      }),
    );
    const payload = {
      order: ctx.ids.eventOrder(),
      event: event.id,
      lines: priced.map((line) => ({
        tier: line.tier.id,
        quantity: line.quantity,
        unit_price: line.tier.price,
      })),
      tickets: tickets.map((ticket) => ({ id: ticket.id, tier: ticket.tier.id })),
      holder: till.name.trim().slice(0, 200) || 'Box office',
      tenders: request.tenders.map((tender) =>
        tender.method === 'mobile_money'
          ? { method: 'mobile_money', payment: tender.payment, amount: tender.amount }
          : tender,
      ),
      shift: shift.id,
      cashier: cashier.id,
      receipt_number: receiptNumber,
      sold_at: unixSeconds(soldAt),
    };
    // The server reads it with this schema: a payload it would refuse is refused here instead.
    const checked = commandPayloads[BOX_OFFICE_SALE].safeParse(payload);
    if (!checked.success)
      throw new TillRefusal('invalid', checked.error.issues[0]?.message ?? 'invalid sale');
    const command: CommandDoc = {
      id: ctx.ids.command(),
      type: BOX_OFFICE_SALE,
      created_at: soldAt,
      payload,
      status: 'pending',
      client_order_id: payload.order,
      shift: shift.id,
      cashier: cashier.id,
      receipt_number: receiptNumber,
      receipt: receipt as unknown as Record<string, unknown>,
      sale: {
        total,
        currency: 'TZS',
        ...paidByMethod(allocation),
        lines: [],
      },
      refund_amount: null,
      result: null,
      error: null,
      synced_at: null,
    };
    await ctx.db.commands.insert(command);
    await Promise.all([ctx.kv.set(KV.lastSale, command.id), numberUsed(ctx, receiptNumber, turn)]);
    return { sale: saleFrom(command), change: allocation.change, command };
  });
}
