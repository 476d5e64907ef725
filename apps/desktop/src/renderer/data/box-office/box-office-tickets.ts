/**
 * The tickets this till's box office sold, laid over the door's ticket list
 * until the pull brings them back from the server, so this till's door
 * admits a ticket the moment it is sold, offline too. Only the sales not yet
 * in the list are laid over; with none, the list is passed on as it is.
 */
import { combineLatest, map, type Observable } from 'rxjs';
import type { Context } from '../store/context.ts';
import type { CommandDoc } from '../store/schema.ts';
import type { TicketDoc, TicketIndex } from '../door/door-state.ts';
import { BOX_OFFICE_SALE } from './box-office.ts';

/** The newest box-office sales read: far more than a till sells before its sales come back down. */
const NEWEST_SALES = 500;

interface SoldPayload {
  order: string;
  event: string;
  holder: string;
  tickets: Array<{ id: string; tier: string }>;
}

/** The tickets of the box office's sales, as the door's list holds tickets. */
export function soldTickets(commands: readonly CommandDoc[]): TicketDoc[] {
  return commands.flatMap((command) => {
    const payload = command.payload as unknown as SoldPayload;
    const receipt = command.receipt as { tickets?: Array<{ code: string }> } | null;
    return payload.tickets.map((ticket, index) => ({
      id: ticket.id,
      _deleted: false,
      event: payload.event,
      tier: ticket.tier,
      order: payload.order,
      status: 'valid' as const,
      holder_name: payload.holder,
      code: receipt?.tickets?.[index]?.code ?? null,
    }));
  });
}

/** The door's ticket index with the box office's sales not yet pulled laid over it. */
export function overlaySold(index: TicketIndex, sold: readonly TicketDoc[]): TicketIndex {
  const missing = sold.filter((ticket) => !index.byId.has(ticket.id));
  if (missing.length === 0) return index;
  const byId = new Map(index.byId);
  const validByEvent = new Map(index.validByEvent);
  for (const ticket of missing) {
    byId.set(ticket.id, ticket);
    validByEvent.set(ticket.event, (validByEvent.get(ticket.event) ?? 0) + 1);
  }
  return { byId, validByEvent };
}

/** The door's lookup, with this till's box-office tickets in it (the one hook the door's store has). */
export function withBoxOfficeTickets(ctx: Context, index$: Observable<TicketIndex>): Observable<TicketIndex> {
  const sales$ = ctx.db.commands
    .find({ selector: { type: BOX_OFFICE_SALE }, sort: [{ id: 'desc' }], limit: NEWEST_SALES })
    .$.pipe(map((docs) => soldTickets(docs.map((doc) => doc.toJSON() as CommandDoc))));
  return combineLatest([index$, sales$]).pipe(map(([index, sold]) => overlaySold(index, sold)));
}
