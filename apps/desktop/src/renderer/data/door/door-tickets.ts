/**
 * The door's tickets in memory: one map by id (a code names its ticket, so a
 * lookup by code is one `get` once its signature is checked) and the count of
 * each event's valid tickets, read from the tickets' stored pages
 * (`catalogue-pages.ts`: up to 1,000 tickets a page, `records` of the kind
 * `tickets`, in the feed's order).
 *
 * The pages are a log, so the map is kept by applying the pages written since
 * it last looked, in key order: a first sync of 50,000 tickets applies each
 * page once as it lands, and a ticket changed on the server (voided,
 * refunded, re-issued under a new code) arrives as a small page on top and
 * changes one entry. Only when the log was rewritten (compacted, or a page
 * written again) is the map made again from every page.
 */
import { map, shareReplay } from 'rxjs';
import type { Observable } from 'rxjs';
import type { Context } from '../store/context.ts';
import type { TicketDoc, TicketIndex } from './door-state.ts';

/** A stored page of tickets as the book reads it: its key, its revision and its tickets. */
export interface TicketPage {
  key: string;
  revision: string;
  items: ReadonlyArray<TicketDoc & { _deleted?: boolean }>;
}

/** The tickets by id and each event's valid count, kept from the pages of the log. */
export class TicketBook {
  readonly byId = new Map<string, TicketDoc>();
  readonly validByEvent = new Map<string, number>();
  /** The pages applied so far, in key order, with the revision each had. */
  private applied: Array<{ key: string; revision: string }> = [];

  /** Brings the book to the pages given (every stored page, in key order); answers the index. */
  update(pages: readonly TicketPage[]): TicketIndex {
    const grown =
      pages.length >= this.applied.length &&
      this.applied.every((page, i) => pages[i]!.key === page.key && pages[i]!.revision === page.revision);
    if (!grown) {
      this.byId.clear();
      this.validByEvent.clear();
      this.applied = [];
    }
    for (const page of pages.slice(this.applied.length)) {
      for (const ticket of page.items) this.apply(ticket);
      this.applied.push({ key: page.key, revision: page.revision });
    }
    return { byId: this.byId, validByEvent: this.validByEvent };
  }

  private apply(ticket: TicketDoc & { _deleted?: boolean }): void {
    const before = this.byId.get(ticket.id);
    if (before?.status === 'valid') this.count(before.event, -1);
    if (ticket._deleted) {
      this.byId.delete(ticket.id);
      return;
    }
    this.byId.set(ticket.id, ticket);
    if (ticket.status === 'valid') this.count(ticket.event, 1);
  }

  private count(event: string, by: number): void {
    const next = (this.validByEvent.get(event) ?? 0) + by;
    if (next === 0) this.validByEvent.delete(event);
    else this.validByEvent.set(event, next);
  }
}

/**
 * The door's ticket index, again at each page written (in this tab or
 * another): where the door finds a scanned code's ticket.
 */
export function watchTickets(ctx: Context): Observable<TicketIndex> {
  const book = new TicketBook();
  return ctx.db.records.find({ selector: { kind: 'tickets' }, sort: [{ id: 'asc' }] }).$.pipe(
    map((docs) =>
      book.update(
        // A page's items are copied out only when the book applies it: the pages it has applied
        // already (all of them but the newest, during a first sync) are not copied again.
        docs.map((doc) => ({
          key: doc.primary,
          revision: doc.revision,
          get items() {
            return doc.toJSON().items as TicketPage['items'];
          },
        })),
      ),
    ),
    shareReplay(1),
  );
}
