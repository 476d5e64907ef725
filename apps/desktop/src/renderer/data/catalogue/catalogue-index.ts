/**
 * The catalogue (products and variants, the pulled fields only) in memory,
 * with a barcode map, which products have variants, and sorted name, SKU and
 * barcode keys for prefix search (`prefix-keys.ts`): a scan or a search then
 * touches no storage at all, and storage keeps no index of its own for them.
 * It is built in the background once the till is open (or at once when a
 * lookup asks first, `ready`), from the stored pages (`catalogue-pages.ts`)
 * read in key order, and kept current from the collections' change streams
 * (other tabs' writes included): each page written is a run of documents to
 * apply in order. Until it is built, every method answers `undefined`.
 *
 * A barcode entry only says where to look: a lookup checks the document as
 * it is now still carries the barcode, so a barcode changed or a document
 * deleted since never sells the wrong thing; every write adds the
 * document's current barcodes, so none is ever missing once built.
 */
import { Subject } from 'rxjs';
import type { Observable, Subscription } from 'rxjs';
import type { RxChangeEvent, RxCollection } from 'rxdb';
import { pluKey } from '@tz/core';
import type { PullDocument, ScaleMatch } from '@tz/core';
import { readPages } from './catalogue-pages.ts';
import type { CataloguePage, Stored } from './catalogue-pages.ts';
import type { CatalogueSnapshot, EarlyFound } from './catalogue-snapshot.ts';
import { PrefixKeys } from './prefix-keys.ts';
import { normalise } from '../store/schema.ts';

type Kind = 'products' | 'variants';
type Product = PullDocument<'products'>;
type Variant = PullDocument<'variants'>;
type Field = 'name' | 'sku' | 'barcode';

/** Stored pages read at a time while building (up to 1,000 documents each). */
const PAGES_AT_ONCE = 2;
/** Waiting search keys are sorted in this long after the first of them (a sync's pages come in a run). */
const MERGE_AFTER_MS = 250;
const FIELDS: Field[] = ['name', 'sku', 'barcode'];

/** The search keys of a document under one field. */
function keysOf(doc: Product | Variant, field: Field): string[] {
  if (field === 'barcode') return doc.barcodes;
  const key = normalise(field === 'name' ? doc.name : (doc.sku ?? ''));
  return key === '' ? [] : [key];
}

/** A document's key in the barcode map and `pageOf`: `v:<id>` for variants, `p:<id>` for products. */
const keyOf = (kind: Kind, id: string) => `${kind === 'variants' ? 'v' : 'p'}:${id}`;

/** What `search` finds: products before variants, each by name, then SKU, then barcode. */
export interface Found {
  products: Product[];
  variants: Variant[];
}

export class CatalogueIndex {
  private readonly products = new Map<string, Product>();
  private readonly variants = new Map<string, Variant>();
  /** barcode → ids that carried it when seen, `v:` variants and `p:` products. */
  private readonly barcodes = new Map<string, string | string[]>();
  /** `plu:<key>` and `sku:<key>` (a numeric SKU, leading zeros dropped) → products that carried it, for scale labels. */
  private readonly itemCodes = new Map<string, Set<string>>();
  /** product → its variants on this till (in any state: the server then sells it only by variant). */
  private readonly variantsOf = new Map<string, Set<string>>();
  /** `p:<id>` or `v:<id>` → the key of the stored page its current state came from (for the snapshot). */
  private readonly pageOf = new Map<string, string>();
  /** Repeated short strings (currency, unit, tax rate) kept once, not once per product. */
  private readonly shared = new Map<string, string>();
  /** Documents written while the build reads: a page read before the write must not undo it. */
  private readonly touched = new Set<string>();
  private readonly subscriptions: Subscription[] = [];
  private readonly keys: Record<Kind, Record<Field, PrefixKeys>>;
  private mergeTimer: ReturnType<typeof setTimeout> | undefined;
  private building: Promise<void> | null = null;
  private scheduled: Promise<void> | null = null;
  private buildTimer: ReturnType<typeof setTimeout> | undefined;
  private startNow: () => void = () => undefined;
  private built = false;
  private startedEmpty: Promise<boolean> = Promise.resolve(false);
  private closed = false;
  private readonly changed = new Subject<void>();
  /** Emits once built and after each change applied since (the product tiles follow it). */
  readonly changes$: Observable<void> = this.changed.asObservable();

  constructor(
    private readonly collections: Record<Kind, RxCollection<Record<string, unknown>>>,
    /** Answers scans before the build (`catalogue-snapshot.ts`), and is taken again from this index once built. */
    readonly snapshot: CatalogueSnapshot | null = null,
  ) {
    const keysFor = (kind: Kind) =>
      Object.fromEntries(
        FIELDS.map((field) => [
          field,
          new PrefixKeys((key, id) => {
            const doc = kind === 'products' ? this.products.get(id) : this.variants.get(id);
            return doc !== undefined && keysOf(doc, field).includes(key);
          }),
        ]),
      ) as Record<Field, PrefixKeys>;
    this.keys = { products: keysFor('products'), variants: keysFor('variants') };
  }

  /** Follows the change streams; called before `build`, so nothing written meanwhile is missed. */
  follow(): void {
    for (const kind of ['variants', 'products'] as const) {
      this.subscriptions.push(
        this.collections[kind].$.subscribe((event: RxChangeEvent<Record<string, unknown>>) =>
          this.apply(kind, event),
        ),
      );
    }
    // Asked after subscribing: whatever is written from now on arrives as an event.
    this.startedEmpty = Promise.all(
      (['variants', 'products'] as const).map((kind) => this.collections[kind].findOne().exec()),
    ).then(
      (found) => found.every((doc) => doc === null),
      () => false,
    );
  }

  /** Reads what is stored, a page at a time (once, however often it is called); the methods answer once this resolves. */
  build(): Promise<void> {
    this.building ??= this.read();
    return this.building;
  }

  /**
   * Builds in `ms` (the sale screen draws first). A lookup meanwhile waits for
   * that build rather than starting it at once: the first key of a scan is also
   * a search, and a build begun then would compete with the scan the snapshot
   * answers (`catalogue-snapshot.ts`).
   */
  buildAfter(ms: number): void {
    this.scheduled ??= new Promise<void>((resolve) => {
      this.startNow = resolve;
      this.buildTimer = setTimeout(resolve, ms);
    }).then(() => this.build());
    this.scheduled.catch(() => undefined);
  }

  /** Resolves once built (`build` is started when nothing started it yet, nor is to). */
  ready(): Promise<void> {
    return this.building ?? this.scheduled ?? this.build();
  }

  private async read(): Promise<void> {
    // Nothing was stored when it began following (a new pairing): the first sync's events bring it all.
    if (await this.startedEmpty) {
      // Keys the sync's events brought before now wait unsorted: sort them in.
      this.mergeKeys();
      this.built = true;
      this.touched.clear();
      this.snapshotFromHere();
      this.changed.next();
      return;
    }
    for (const kind of ['variants', 'products'] as const) {
      let after: string | null = '';
      while (after !== null) {
        if (this.closed) return;
        const pages = await readPages(this.collections[kind], after, PAGES_AT_ONCE);
        // In key order: a later page's copy of a document is newer.
        for (const page of pages) this.applyPage(kind, page, false);
        // These pages' keys sorted in now: many small sorts between pauses, not one long one at the end.
        this.mergeKeys();
        after = pages.length < PAGES_AT_ONCE ? null : pages.at(-1)!.id;
        // Let a scan or a key through between pages.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    }
    this.mergeKeys();
    this.built = true;
    this.touched.clear();
    this.snapshotFromHere();
    this.changed.next();
    // When it was ready, for the benchmark and the browser's performance panel.
    performance.mark('catalogue-in-memory');
  }

  private snapshotFromHere(): void {
    this.snapshot?.takeFrom(() =>
      this.built && !this.closed
        ? {
            barcodes: this.barcodes,
            variantsOf: this.variantsOf,
            pageOf: this.pageOf,
            parentOf: (variant) => this.variants.get(variant)?.product,
          }
        : null,
    );
  }

  /** Whether the catalogue is in memory (the methods below answer). */
  isBuilt(): boolean {
    return this.built;
  }

  /** A scan before the build, from the snapshot; `undefined` when built or when the snapshot cannot answer for sure. */
  early(barcode: string): Promise<EarlyFound | undefined> {
    if (this.built || !this.snapshot) return Promise.resolve(undefined);
    return this.snapshot.lookup(barcode);
  }

  stop(): void {
    this.closed = true;
    clearTimeout(this.buildTimer);
    // A lookup waiting for the scheduled build is let go (the build stops at once when closed).
    this.startNow();
    this.snapshot?.stop();
    clearTimeout(this.mergeTimer);
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.changed.complete();
  }

  /** The variants and products with exactly this barcode, as stored now; `undefined` until built. */
  withBarcode(barcode: string): { variants: Variant[]; products: Product[] } | undefined {
    if (!this.built) return undefined;
    const entry = this.barcodes.get(barcode);
    const found = { variants: [] as Variant[], products: [] as Product[] };
    for (const key of entry === undefined ? [] : typeof entry === 'string' ? [entry] : entry) {
      const doc = key.startsWith('v:') ? this.variants.get(key.slice(2)) : this.products.get(key.slice(2));
      if (!doc?.barcodes.includes(barcode)) this.forget(barcode, key);
      else if (key.startsWith('v:')) found.variants.push(doc as Variant);
      else found.products.push(doc as Product);
    }
    return found;
  }

  /**
   * The products a scale label's item code names (`match` is the store's `match_by`, PLU or SKU,
   * leading zeros ignored), as stored now; `undefined` until built.
   */
  withItemCode(match: Exclude<ScaleMatch, 'barcode'>, code: string): Product[] | undefined {
    if (!this.built) return undefined;
    const key = pluKey(code);
    const ids = key === null ? undefined : this.itemCodes.get(`${match}:${key}`);
    const found: Product[] = [];
    for (const id of ids ?? []) {
      const doc = this.products.get(id);
      // An entry only says where to look: the product as it is now must still carry the code.
      if (doc && itemCodesOf(doc).includes(`${match}:${key}`)) found.push(doc);
      else ids?.delete(id);
    }
    return found;
  }

  /** A product as stored now (null when there is none); `undefined` until built. */
  product(id: string): Product | null | undefined {
    return this.built ? (this.products.get(id) ?? null) : undefined;
  }

  /** Every product as stored now, active or not; `undefined` until built. */
  allProducts(): Iterable<Product> | undefined {
    return this.built ? this.products.values() : undefined;
  }

  /** Whether a product has variants; `undefined` until built. */
  hasVariants(product: string): boolean | undefined {
    return this.built ? (this.variantsOf.get(product)?.size ?? 0) > 0 : undefined;
  }

  /** A product's variants on this till, in any state; `undefined` until built. */
  variantsOfProduct(product: string): Variant[] | undefined {
    if (!this.built) return undefined;
    const ids = [...(this.variantsOf.get(product) ?? [])];
    return ids.map((id) => this.variants.get(id)).filter((v): v is Variant => v !== undefined);
  }

  /**
   * The active products and the active variants of active products whose
   * normalised name or SKU starts with `wanted`, or a barcode with `barcode`:
   * products first, each kind by name, then SKU, then barcode, in key order,
   * at most `limit` in all. `undefined` until built.
   */
  search(wanted: string, barcode: string, limit: number): Found | undefined {
    if (!this.built) return undefined;
    const found: Found = { products: [], variants: [] };
    const prefixes: Record<Field, string> = { name: wanted, sku: wanted, barcode };
    const seen = new Set<string>();
    let left = limit;
    for (const kind of ['products', 'variants'] as const) {
      for (const field of FIELDS) {
        if (left === 0 || prefixes[field] === '') continue;
        for (const [key, id] of this.keys[kind][field].matching(prefixes[field])) {
          const doc = kind === 'products' ? this.products.get(id) : this.variants.get(id);
          // An entry only says where to look: the document as it is now must still carry that key.
          if (!doc?.active || seen.has(`${kind}:${id}`)) continue;
          if (!keysOf(doc, field).includes(key)) continue;
          if (kind === 'variants' && !this.products.get((doc as Variant).product)?.active) continue;
          seen.add(`${kind}:${id}`);
          if (kind === 'products') found.products.push(doc as Product);
          else found.variants.push(doc as Variant);
          if (--left === 0) break;
        }
      }
    }
    return found;
  }

  private forget(barcode: string, key: string): void {
    const entry = this.barcodes.get(barcode);
    if (entry === key) this.barcodes.delete(barcode);
    else if (Array.isArray(entry)) {
      const left = entry.filter((k) => k !== key);
      if (left.length === 0) this.barcodes.delete(barcode);
      else this.barcodes.set(barcode, left.length === 1 ? left[0]! : left);
    }
  }

  private apply(kind: Kind, event: RxChangeEvent<Record<string, unknown>>): void {
    this.snapshot?.changed();
    const page = event.documentData as unknown as CataloguePage & { _deleted?: boolean };
    if (event.operation === 'DELETE' || page._deleted === true) {
      // Unpairing removes every page. A compaction removes old pages after writing their
      // documents to new ones: a document whose current copy is elsewhere stays.
      const items = page.items ?? (event.previousDocumentData as unknown as CataloguePage | undefined)?.items;
      for (const doc of items ?? [])
        if (this.pageOf.get(keyOf(kind, doc.id)) === page.id) this.remove(kind, doc.id);
    } else this.applyPage(kind, page, true);
    if (this.built) this.changed.next();
  }

  /**
   * Applies a page's documents in order. From the change stream (`written`),
   * each is newer than anything the build may still read, so the build leaves
   * it alone (`touched`); the build in turn skips a document already touched.
   */
  private applyPage(kind: Kind, page: CataloguePage, written: boolean): void {
    for (const doc of page.items) {
      if (written && !this.built) this.touched.add(doc.id);
      else if (!written && this.touched.has(doc.id)) continue;
      if (doc._deleted === true) this.remove(kind, doc.id);
      else this.put(kind, doc, page.id);
    }
  }

  private remove(kind: Kind, id: string): void {
    const doc = kind === 'products' ? this.products.get(id) : this.variants.get(id);
    this.pageOf.delete(keyOf(kind, id));
    if (!doc) return;
    // Its keys and barcodes fail the check at the next lookup and are forgotten then.
    for (const field of FIELDS) this.keys[kind][field].forget(keysOf(doc, field).length);
    if (kind === 'products') {
      this.products.delete(id);
      return;
    }
    this.variantsOf.get((doc as Variant).product)?.delete(id);
    this.variants.delete(id);
  }

  /** Sorts the waiting search keys in; soon after a run of writes, and at the end of the build. */
  private mergeKeys(): void {
    clearTimeout(this.mergeTimer);
    this.mergeTimer = undefined;
    for (const kind of ['products', 'variants'] as const)
      for (const field of FIELDS) this.keys[kind][field].merge();
  }

  /** Adds the keys `doc` carries that `before` did not, and counts those it no longer carries. */
  private index(kind: Kind, doc: Product | Variant, before: Product | Variant | undefined): void {
    for (const field of FIELDS) {
      const now = keysOf(doc, field);
      const then = before ? keysOf(before, field) : [];
      for (const key of now) if (!then.includes(key)) this.keys[kind][field].add(key, doc.id);
      this.keys[kind][field].forget(then.filter((key) => !now.includes(key)).length);
    }
    if (this.built && this.mergeTimer === undefined)
      this.mergeTimer = setTimeout(() => this.mergeKeys(), MERGE_AFTER_MS);
  }

  private put(kind: Kind, doc: Stored, page: string): void {
    const barcodes = Array.isArray(doc.barcodes) ? (doc.barcodes as string[]) : [];
    if (kind === 'products') {
      const before = this.products.get(doc.id);
      const product = fromStored('products', doc, (value) => this.share(value));
      this.products.set(doc.id, product);
      this.index(kind, product, before);
      for (const code of itemCodesOf(product)) {
        const ids = this.itemCodes.get(code) ?? new Set<string>();
        ids.add(doc.id);
        this.itemCodes.set(code, ids);
      }
    } else {
      const variant = fromStored('variants', doc, (value) => this.share(value));
      const before = this.variants.get(doc.id);
      if (before && before.product !== variant.product) this.variantsOf.get(before.product)?.delete(doc.id);
      this.variants.set(doc.id, variant);
      this.index(kind, variant, before);
      const siblings = this.variantsOf.get(variant.product) ?? new Set<string>();
      siblings.add(doc.id);
      this.variantsOf.set(variant.product, siblings);
    }
    const key = keyOf(kind, doc.id);
    this.pageOf.set(key, page);
    for (const barcode of barcodes) {
      const entry = this.barcodes.get(barcode);
      if (entry === undefined) this.barcodes.set(barcode, key);
      else if (entry === key || (Array.isArray(entry) && entry.includes(key))) continue;
      else this.barcodes.set(barcode, [...(typeof entry === 'string' ? [entry] : entry), key]);
    }
  }

  private share(value: string): string {
    const known = this.shared.get(value);
    if (known !== undefined) return known;
    if (this.shared.size < 1000) this.shared.set(value, value);
    return value;
  }
}

/** The keys a product is found by from a scale label: its PLU, and its SKU when that is digits. */
function itemCodesOf(product: Product): string[] {
  const plu = product.plu ? pluKey(product.plu) : null;
  const sku = product.sku ? pluKey(product.sku) : null;
  return [...(plu ? [`plu:${plu}`] : []), ...(sku ? [`sku:${sku}`] : [])];
}

/** A stored product or variant as the till sells it: the pulled fields only (`share` keeps repeated strings once). */
export function fromStored(kind: 'products', doc: Stored, share?: (value: string) => string): Product;
export function fromStored(kind: 'variants', doc: Stored, share?: (value: string) => string): Variant;
export function fromStored(
  kind: Kind,
  doc: Stored,
  share: (value: string) => string = (value) => value,
): Product | Variant {
  const s = (value: unknown) => share(String(value));
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const common = {
    id: doc.id,
    _deleted: false,
    name: String(doc.name),
    sku: text(doc.sku),
    barcodes: Array.isArray(doc.barcodes) ? (doc.barcodes as string[]) : [],
    price: Number(doc.price),
    active: doc.active === true,
  };
  if (kind === 'variants') return { ...common, product: String(doc.product) };
  return {
    ...common,
    currency: s(doc.currency),
    tax_rate: s(doc.tax_rate) as Product['tax_rate'],
    category: text(doc.category),
    unit: s(doc.unit) as Product['unit'],
    track_stock: doc.track_stock === true,
    plu: text(doc.plu),
    favourite_position: typeof doc.favourite_position === 'number' ? doc.favourite_position : null,
  };
}
