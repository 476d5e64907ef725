/**
 * Pulls one collection down from the server's change feed into its RxDB
 * collection, page after page from the checkpoint it holds, until a page
 * comes back short.
 *
 * Written for a first sync of 100,000 products, where the cost is the
 * IndexedDB writes: the next page is fetched while the current one is
 * written, and a page goes to the collection's storage in one `bulkWrite`
 * that assumes every document is new (so the storage reads each id once, to
 * find the ones it holds); only the documents it already held are written
 * again on top of their stored state. RxDB's replication plugin read every
 * document twice more before that (its fork and its metadata). The server owns
 * these documents and the till never edits them, so there is nothing to merge:
 * the server's state replaces the till's.
 *
 * Products, variants and the door's tickets go to storage as pages
 * (`catalogue-pages.ts`): one record per pulled page, under its checkpoint.
 *
 * The checkpoint is saved in `kv` after the page's documents are written: a
 * till stopped between the two pulls that page again and writes the same
 * state again, so nothing is skipped or doubled.
 */
import type { RxCollection } from 'rxdb';
import type { Checkpoint, PullCollection, PullResult } from '@tz/core';
import { compactIfGrown, isPaged, pageKey, pageKind, writeOver } from '../catalogue/catalogue-pages.ts';
import { KV } from '../store/kv.ts';
import type { Kv } from '../store/kv.ts';
import { toLocal } from '../store/schema.ts';

/** What a pull saves: where it stopped, for the pairing it was made under. */
interface SavedCheckpoint {
  pairing: string;
  checkpoint: Checkpoint | null;
}

export interface PullOptions {
  collection: PullCollection;
  target: RxCollection<Record<string, unknown>>;
  kv: Kv;
  /** Made at each pairing: a checkpoint of an earlier pairing is not used. */
  pairing: string;
  pageSize: number;
  fetch(checkpoint: Checkpoint | null, limit: number): Promise<PullResult>;
  /** Told around each page written (products and variants: the catalogue snapshot must not answer meanwhile). */
  writes?: { beforeWrite(): Promise<void>; afterWrite(): void };
}

export class CollectionPull {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly options: PullOptions) {}

  /**
   * Pulls until the server has nothing newer. A call while a pull runs makes
   * it go round once more (a change may have landed after its last page).
   */
  run(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.drain();
        } while (this.again && !this.stopped);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Pulls no more pages; resolves when the page being written is written. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => undefined);
  }

  private async drain(): Promise<void> {
    const { collection, kv, pairing, pageSize } = this.options;
    const saved = await kv.get<SavedCheckpoint>(KV.pull(collection));
    let next: Promise<PullResult> | null = this.options.fetch(
      saved?.pairing === pairing ? saved.checkpoint : null,
      pageSize,
    );
    try {
      while (next) {
        const page: PullResult = await next;
        // The next page is on its way while this one is written.
        next =
          page.documents.length >= pageSize && !this.stopped
            ? this.options.fetch(page.checkpoint, pageSize)
            : null;
        if (page.documents.length === 0) continue;
        await this.options.writes?.beforeWrite();
        try {
          await writeOver(this.options.target, collection, records(collection, page));
        } finally {
          this.options.writes?.afterWrite();
        }
        await kv.set(KV.pull(collection), { pairing, checkpoint: page.checkpoint } satisfies SavedCheckpoint);
      }
    } finally {
      // A page fetched ahead and not written is dropped: the next round starts from the checkpoint.
      void next?.catch(() => undefined);
    }
    if (isPaged(collection) && !this.stopped)
      await compactIfGrown(this.options.target, collection, kv, this.options.writes);
  }
}

/** What a pulled page is stored as: one page record for the catalogue and the tickets, one record per document for the rest. */
function records(collection: PullCollection, page: PullResult): Array<Record<string, unknown>> {
  if (isPaged(collection))
    return [{ id: pageKey(page.checkpoint!), ...pageKind(collection), items: page.documents }];
  return page.documents.map((doc) => toLocal(collection, doc));
}
