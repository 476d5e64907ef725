/**
 * A scan answered before the catalogue is in memory (`catalogue-index.ts`
 * has 100,000 products back about 2 s after a reload): the barcode
 * map and which products have variants, saved as one `kv` document of two
 * strings, read in one storage read at open. A scan looks its barcode up in
 * the string and reads only the stored pages it names (`catalogue-pages.ts`),
 * by key.
 *
 * Never the wrong item: a snapshot is used only while it is exactly as
 * current as storage. The pull bumps a generation in `kv` before it writes a
 * page of products or variants, and this tab forgets its snapshot then; a
 * snapshot carries the generation it was taken at, and a lookup reads the
 * generation again (straight from storage, beside the documents) and answers
 * only when it still matches. Each document named must still carry the
 * barcode. Otherwise, or for a barcode the snapshot lacks, the lookup says
 * `undefined` and the scan waits for the catalogue as before. The snapshot
 * is taken from memory by the tab that pulls, when no page of its is being
 * written, when changes have settled after the build (only when something
 * changed since the one read at open), in an idle moment.
 *
 * Strings, not a map: a structured clone of two strings is a copy, where
 * 100,000 keys would be 100,000 objects to rebuild at every open. The lines
 * name stored pages by their place in a short list of page keys, not by key.
 */
import type { RxCollection } from 'rxdb';
import type { PullDocument } from '@tz/core';
import { fromStored } from './catalogue-index.ts';
import { pagesById } from './catalogue-pages.ts';
import type { Stored } from './catalogue-pages.ts';
import type { KvDoc } from '../store/schema.ts';

type Product = PullDocument<'products'>;
type Variant = PullDocument<'variants'>;

/** The `kv` keys (this file's own). */
export const SNAPSHOT_KEY = 'catalogue:snapshot';
export const GENERATION_KEY = 'catalogue:generation';

/** Changes settle when none came for this long; then the snapshot is taken again. */
const SAVE_AFTER_MS = 3000;

export interface SnapshotValue {
  generation: number;
  /**
   * `\n` + one line per barcode: `barcode\tentry entry…\n`, an entry `p:<id>@<page>` or
   * `v:<id>@<page>@<its product's page>`: the index's key and where in `pages` the keys of
   * the stored pages to read are.
   */
  barcodes: string;
  /** The keys of the stored pages the lines name (a few hundred, each named by its place here). */
  pages: string[];
  /** `\n` + the ids of products with variants, each followed by `\n`. */
  withVariants: string;
}

/** What a snapshot lookup found, each document read from storage now. */
export interface EarlyFound {
  variants: Array<{ variant: Variant; parent: Product | null }>;
  products: Array<{ product: Product; hasVariants: boolean }>;
}

/** What the snapshot is taken from: the index's maps, once built. */
export interface SnapshotSource {
  barcodes: Map<string, string | string[]>;
  variantsOf: Map<string, Set<string>>;
  /** `p:<id>` / `v:<id>` → the page holding its current state. */
  pageOf: Map<string, string>;
  /** A variant's product id. */
  parentOf(variant: string): string | undefined;
}

/** Characters that would break a line of the snapshot; such a barcode is left out (and waits for the build). */
const SEPARATORS = /[\t\n @]/;

export function encodeSnapshot(generation: number, source: SnapshotSource): SnapshotValue {
  const lines: string[] = [''];
  const pages: string[] = [];
  const placeOf = new Map<string, number>();
  const place = (page: string): number => {
    let at = placeOf.get(page);
    if (at === undefined) {
      at = pages.push(page) - 1;
      placeOf.set(page, at);
    }
    return at;
  };
  const where = (key: string): string | null => {
    const page = source.pageOf.get(key);
    if (page === undefined) return null;
    if (key.startsWith('p:')) return `${key}@${place(page)}`;
    const parent = source.parentOf(key.slice(2));
    const parentPage = parent && source.pageOf.get(`p:${parent}`);
    return `${key}@${place(page)}@${parentPage ? place(parentPage) : ''}`;
  };
  for (const [barcode, entry] of source.barcodes) {
    const keys = typeof entry === 'string' ? [entry] : entry;
    if (SEPARATORS.test(barcode) || keys.some((key) => SEPARATORS.test(key))) continue;
    const entries = keys.map(where);
    if (entries.some((found) => found === null)) continue;
    lines.push(`${barcode}\t${entries.join(' ')}`);
  }
  const withVariants = [''];
  for (const [product, variants] of source.variantsOf) if (variants.size > 0) withVariants.push(product);
  return {
    generation,
    barcodes: `${lines.join('\n')}\n`,
    withVariants: `${withVariants.join('\n')}\n`,
    pages,
  };
}

/** The entries the snapshot holds for a barcode, or null when it holds none. */
export function keysIn(snapshot: SnapshotValue, barcode: string): string[] | null {
  if (barcode === '' || SEPARATORS.test(barcode)) return null;
  const at = snapshot.barcodes.indexOf(`\n${barcode}\t`);
  if (at < 0) return null;
  const start = at + barcode.length + 2;
  return snapshot.barcodes.slice(start, snapshot.barcodes.indexOf('\n', start)).split(' ');
}

export interface SnapshotOptions {
  kv: RxCollection<KvDoc>;
  products: RxCollection<Record<string, unknown>>;
  variants: RxCollection<Record<string, unknown>>;
  /** Whether this tab pulls (its leader): only it knows when none of its pages is half written. */
  isWriter: () => boolean;
  saveAfterMs?: number;
}

export class CatalogueSnapshot {
  private loaded: Promise<SnapshotValue | null>;
  /** Pages of products or variants this tab is writing now. */
  private writing = 0;
  /** Something changed since the snapshot stored was taken (or none is stored). */
  private dirty = false;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private saving: Promise<void> = Promise.resolve();
  private source: (() => SnapshotSource | null) | null = null;
  private closed = false;

  constructor(private readonly options: SnapshotOptions) {
    this.loaded = this.load();
  }

  private async load(): Promise<SnapshotValue | null> {
    try {
      const [stored, generation] = await Promise.all([this.read(SNAPSHOT_KEY), this.generation()]);
      const value = stored as SnapshotValue | null;
      // One saved before it named pages by place (no `pages`) is not used.
      if (value && value.generation === generation && Array.isArray(value.pages)) return value;
    } catch {
      // Unreadable: the scans wait for the catalogue, as without one.
    }
    this.dirty = true;
    return null;
  }

  /** A `kv` value read straight from storage, past RxDB's caches (another tab may have written it). */
  private async read(key: string): Promise<unknown> {
    const [doc] = await this.options.kv.storageInstance.findDocumentsById([key], false);
    return doc ? doc.value : null;
  }

  private async generation(): Promise<number> {
    return Number((await this.read(GENERATION_KEY)) ?? 0);
  }

  /** The pull is about to write a page of products or variants: nothing may answer from the snapshot from now. */
  async beforeWrite(): Promise<void> {
    this.writing++;
    this.changed();
    try {
      const doc = await this.options.kv.findOne(GENERATION_KEY).exec();
      if (doc) await doc.incrementalModify((data) => ({ ...data, value: Number(data.value) + 1 }));
      else await this.options.kv.upsert({ id: GENERATION_KEY, value: 1 });
    } catch (error) {
      this.writing--;
      throw error;
    }
  }

  afterWrite(): void {
    this.writing--;
    this.scheduleSave();
  }

  /** A product or variant changed (in this tab or another): the snapshot read at open is not used again. */
  changed(): void {
    this.loaded = Promise.resolve(null);
    this.dirty = true;
    this.scheduleSave();
  }

  /** Where a snapshot is taken from once the catalogue is in memory (null until it is built). */
  takeFrom(source: () => SnapshotSource | null): void {
    this.source = source;
    // Built: lookups go to memory now, and the few MB of string read at open can go.
    this.loaded = Promise.resolve(null);
    // Not at once: the first lookups after the build come first.
    this.scheduleSave();
  }

  stop(): void {
    this.closed = true;
    clearTimeout(this.saveTimer);
  }

  /** Resolves when a save under way is done (tests). */
  settled(): Promise<void> {
    return this.saving;
  }

  private scheduleSave(after = this.options.saveAfterMs ?? SAVE_AFTER_MS): void {
    if (this.source === null || this.closed) return;
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      // Encoding 100,000 barcodes holds the thread for tens of ms: when the page is idle.
      const idle = globalThis.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 0));
      idle(() => {
        this.saving = this.saving.then(() => this.save()).catch(() => undefined);
      });
    }, after);
  }

  private async save(): Promise<void> {
    if (!this.dirty || this.closed || this.writing > 0 || !this.options.isWriter()) return;
    this.dirty = false;
    const generation = await this.generation();
    // A page began while the generation was read: its documents may not be in memory yet.
    const source = this.source?.();
    if (this.writing > 0 || !source) {
      this.dirty = true;
      return;
    }
    await this.options.kv.upsert({ id: SNAPSHOT_KEY, value: encodeSnapshot(generation, source) });
  }

  /**
   * The items with exactly this barcode, read from storage now, when the
   * snapshot read at open answers for it with certainty; `undefined` when it
   * cannot (no snapshot, a barcode it lacks, anything changed since).
   */
  async lookup(barcode: string): Promise<EarlyFound | undefined> {
    const snapshot = await this.loaded;
    const entries = snapshot ? keysIn(snapshot, barcode)?.map((entry) => parseEntry(entry, snapshot)) : null;
    if (!snapshot || !entries) return undefined;
    const variantEntries = entries.filter((entry) => entry.kind === 'v');
    const productPages = entries.flatMap((entry) => (entry.kind === 'p' ? [entry.page] : [entry.parentPage]));
    const [variantPages, productPagesRead, generation] = await Promise.all([
      pagesById(this.options.variants, [...new Set(variantEntries.map((entry) => entry.page))]),
      pagesById(this.options.products, [...new Set(productPages.filter((page) => page !== ''))]),
      this.generation(),
    ]);
    if (generation !== snapshot.generation || (await this.loaded) !== snapshot) return undefined;
    const item = (pages: Map<string, { items: Stored[] }>, page: string, id: string) => {
      const found = pages.get(page)?.items.find((doc) => doc.id === id);
      return found && found._deleted !== true ? found : undefined;
    };
    const variants: EarlyFound['variants'] = [];
    const products: EarlyFound['products'] = [];
    for (const entry of entries) {
      const doc = item(entry.kind === 'v' ? variantPages : productPagesRead, entry.page, entry.id);
      // Each must still be stored and still carry it; otherwise the snapshot is not what storage holds.
      if (!doc || !Array.isArray(doc.barcodes) || !doc.barcodes.includes(barcode)) return undefined;
      if (entry.kind === 'p') {
        products.push({
          product: fromStored('products', doc),
          hasVariants: snapshot.withVariants.includes(`\n${doc.id}\n`),
        });
        continue;
      }
      const variant = fromStored('variants', doc);
      const parent = item(productPagesRead, entry.parentPage, variant.product);
      variants.push({ variant, parent: parent ? fromStored('products', parent) : null });
    }
    return { variants, products };
  }
}

interface Entry {
  kind: 'p' | 'v';
  id: string;
  page: string;
  parentPage: string;
}

/** `p:<id>@<place>` or `v:<id>@<place>@<parent's place>`, each place in `snapshot.pages` ('' where there is none). */
function parseEntry(entry: string, snapshot: SnapshotValue): Entry {
  const [key = '', page = '', parentPage = ''] = entry.split('@');
  const at = (place: string) => (place === '' ? '' : (snapshot.pages[Number(place)] ?? ''));
  return {
    kind: key.startsWith('v:') ? 'v' : 'p',
    id: key.slice(2),
    page: at(page),
    parentPage: at(parentPage),
  };
}
