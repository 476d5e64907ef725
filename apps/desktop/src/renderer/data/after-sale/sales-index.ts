/**
 * Every sale on the till in memory, as little as the Sales list searches on
 * (command id, receipt number, total, currency, time: about 100 bytes a sale),
 * so a key typed there reads nothing from storage but the few sales it shows.
 *
 * Built once, the first time the list is opened: the sales are read from
 * storage a page at a time through the `[type, id]` index (a page is read and
 * dropped, never all of them at once), and from then on it follows the change
 * stream, which also brings the sales other tabs of this till make. It follows
 * before it reads, so a sale written meanwhile is in it either way.
 *
 * The `commands` schema is left as it is: a new index there is a new schema
 * version, stored apart from the old one, where a tab still running the build
 * before would go on writing sales the new one never sees.
 */
import { normalizeMangoQuery, prepareQuery } from 'rxdb';
import type { RxChangeEvent, RxCollection } from 'rxdb';
import { Subject } from 'rxjs';
import type { Observable, Subscription } from 'rxjs';
import { filterDay, matchSale, parseSalesSearch, soldOn } from './sales-search.ts';
import type { SaleEntry, SalesFilter } from './sales-search.ts';
import type { CommandDoc } from '../store/schema.ts';

/** Sales read from storage at a time while building. */
const PAGE = 500;

export interface SalesFound {
  /** Command ids of the sales to show, receipt-number matches first, each part newest first. */
  ids: string[];
  /** How many sales answer in all (more than `ids` when the list is cut). */
  count: number;
}

const entryOf = (doc: CommandDoc): SaleEntry => ({
  id: doc.id,
  receiptNumber: doc.receipt_number ?? '',
  total: doc.sale?.total ?? 0,
  currency: doc.sale?.currency ?? '',
  soldAt: doc.created_at,
});

export class SalesIndex {
  /** Oldest first (command ids are ULIDs), kept sorted as sales arrive. */
  private readonly entries: SaleEntry[] = [];
  private readonly known = new Set<string>();
  private readonly changes = new Subject<void>();
  private subscription: Subscription | null = null;
  private building: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly commands: RxCollection<CommandDoc>) {}

  /** Emits after each sale added or taken out, once built. */
  get changed$(): Observable<void> {
    return this.changes.asObservable();
  }

  /** Reads every sale once (later calls wait for that read); follows the change stream from before it. */
  ready(): Promise<void> {
    this.building ??= this.build();
    return this.building;
  }

  /** The sales that answer the filter, at most `limit`. */
  async find(filter: SalesFilter, limit: number, now: number): Promise<SalesFound> {
    await this.ready();
    const search = parseSalesSearch(filter.text);
    const day = filterDay(filter.day, now);
    const amounts = new Map<string, number | null>();
    const byReceipt: string[] = [];
    const byAmount: string[] = [];
    for (let at = this.entries.length - 1; at >= 0; at--) {
      const entry = this.entries[at]!;
      if (day !== null && !soldOn(entry, day)) continue;
      const how = matchSale(entry, search, amounts);
      if (how === 'receipt') byReceipt.push(entry.id);
      else if (how === 'amount') byAmount.push(entry.id);
    }
    const ids = [...byReceipt, ...byAmount];
    return { ids: ids.slice(0, limit), count: ids.length };
  }

  stop(): void {
    this.closed = true;
    this.subscription?.unsubscribe();
    this.changes.complete();
  }

  private async build(): Promise<void> {
    this.subscription = this.commands.$.subscribe((event: RxChangeEvent<CommandDoc>) => {
      if (event.operation === 'DELETE') {
        if (this.remove(event.documentId)) this.changes.next();
      } else if (event.documentData.type === 'order.create' && this.add(entryOf(event.documentData))) {
        this.changes.next();
      }
    });
    const schema = this.commands.schema.jsonSchema;
    let after = '';
    for (;;) {
      // Ascending on the `[type, id]` index, so storage stops reading at the page's end.
      const query = prepareQuery(
        schema,
        normalizeMangoQuery(schema, {
          selector: { type: 'order.create', id: { $gt: after } },
          sort: [{ type: 'asc' }, { id: 'asc' }],
          limit: PAGE,
        }),
      );
      const page = await this.commands.storageInstance.query(query);
      if (this.closed) return;
      for (const doc of page.documents) this.add(entryOf(doc));
      if (page.documents.length < PAGE) break;
      after = page.documents.at(-1)!.id;
    }
  }

  /** Adds a sale in id order; false when it was there already. */
  private add(entry: SaleEntry): boolean {
    if (this.known.has(entry.id)) return false;
    this.known.add(entry.id);
    let low = 0;
    let high = this.entries.length;
    // Almost always the newest: checked before searching.
    if (high === 0 || this.entries[high - 1]!.id < entry.id) low = high;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.entries[mid]!.id < entry.id) low = mid + 1;
      else high = mid;
    }
    this.entries.splice(low, 0, entry);
    return true;
  }

  private remove(id: string): boolean {
    if (!this.known.delete(id)) return false;
    const at = this.entries.findIndex((entry) => entry.id === id);
    if (at >= 0) this.entries.splice(at, 1);
    return true;
  }
}
