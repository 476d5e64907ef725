/**
 * The catalogue (products and variants, the pulled fields only) in memory,
 * with a barcode map and which products have variants: a scan then touches
 * no storage at all. It is built in the background once the till is open,
 * from pages read straight from storage (plain data, no RxDocuments), and
 * kept current from the collections' change streams (other tabs' writes
 * included), the same events RxDB keeps its own caches with. Until it is
 * built, every method answers `undefined` and the caller asks the indexes.
 *
 * A barcode entry only says where to look: a lookup checks the document as
 * it is now still carries the barcode, so a barcode changed or a document
 * deleted since never sells the wrong thing; every write adds the
 * document's current barcodes, so none is ever missing once built.
 */
import type { Subscription } from 'rxjs';
import type { RxChangeEvent, RxCollection } from 'rxdb';
import type { PullDocument } from '@tz/core';

type Kind = 'products' | 'variants';
type Product = PullDocument<'products'>;
type Variant = PullDocument<'variants'>;
type Stored = Record<string, unknown> & { id: string };

const PAGE = 2000;

export class CatalogueIndex {
  private readonly products = new Map<string, Product>();
  private readonly variants = new Map<string, Variant>();
  /** barcode → ids that carried it when seen, `v:` variants and `p:` products. */
  private readonly barcodes = new Map<string, string | string[]>();
  /** product → its variants on this till (in any state: the server then sells it only by variant). */
  private readonly variantsOf = new Map<string, Set<string>>();
  /** Repeated short strings (currency, unit, tax rate) kept once, not once per product. */
  private readonly shared = new Map<string, string>();
  /** Documents written while the build reads: a page read before the write must not undo it. */
  private readonly touched = new Set<string>();
  private readonly subscriptions: Subscription[] = [];
  private built = false;
  private startedEmpty: Promise<boolean> = Promise.resolve(false);
  private closed = false;

  constructor(private readonly collections: Record<Kind, RxCollection<Record<string, unknown>>>) {}

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

  /** Reads what is stored, a page at a time; the methods answer once this resolves. */
  async build(): Promise<void> {
    // Nothing was stored when it began following (a new pairing): the first sync's events bring it all.
    if (await this.startedEmpty) {
      this.built = true;
      this.touched.clear();
      return;
    }
    for (const kind of ['variants', 'products'] as const) {
      const collection = this.collections[kind];
      let after = '';
      for (;;) {
        if (this.closed) return;
        const query = collection
          .find({ selector: { id: { $gt: after } }, sort: [{ id: 'asc' }], limit: PAGE })
          .getPreparedQuery();
        const { documents } = await collection.storageInstance.query(query);
        for (const doc of documents as unknown as Stored[]) {
          if (!this.touched.has(doc.id)) this.put(kind, doc);
        }
        if (documents.length < PAGE) break;
        after = (documents.at(-1) as unknown as Stored).id;
        // Let a scan or a key through between pages.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    }
    this.built = true;
    this.touched.clear();
  }

  stop(): void {
    this.closed = true;
    for (const subscription of this.subscriptions) subscription.unsubscribe();
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

  /** A product as stored now (null when there is none); `undefined` until built. */
  product(id: string): Product | null | undefined {
    return this.built ? (this.products.get(id) ?? null) : undefined;
  }

  /** Whether a product has variants; `undefined` until built. */
  hasVariants(product: string): boolean | undefined {
    return this.built ? (this.variantsOf.get(product)?.size ?? 0) > 0 : undefined;
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
    if (!this.built) this.touched.add(event.documentId);
    const doc = event.documentData as unknown as Stored;
    if (event.operation === 'DELETE' || doc._deleted === true) this.remove(kind, event.documentId);
    else this.put(kind, doc);
  }

  private remove(kind: Kind, id: string): void {
    if (kind === 'products') {
      this.products.delete(id);
      return;
    }
    const variant = this.variants.get(id);
    if (variant) this.variantsOf.get(variant.product)?.delete(id);
    this.variants.delete(id);
    // Its barcodes fail the check at the next lookup and are forgotten then.
  }

  private put(kind: Kind, doc: Stored): void {
    const s = (value: unknown) => this.share(String(value));
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    const barcodes = Array.isArray(doc.barcodes) ? (doc.barcodes as string[]) : [];
    const common = {
      id: doc.id,
      _deleted: false,
      name: String(doc.name),
      sku: text(doc.sku),
      barcodes,
      price: Number(doc.price),
      active: doc.active === true,
    };
    if (kind === 'products') {
      this.products.set(doc.id, {
        ...common,
        currency: s(doc.currency),
        tax_rate: s(doc.tax_rate) as Product['tax_rate'],
        category: text(doc.category),
        unit: s(doc.unit) as Product['unit'],
        track_stock: doc.track_stock === true,
      });
    } else {
      const product = String(doc.product);
      const before = this.variants.get(doc.id);
      if (before && before.product !== product) this.variantsOf.get(before.product)?.delete(doc.id);
      this.variants.set(doc.id, { ...common, product });
      const siblings = this.variantsOf.get(product) ?? new Set<string>();
      siblings.add(doc.id);
      this.variantsOf.set(product, siblings);
    }
    const key = `${kind === 'variants' ? 'v' : 'p'}:${doc.id}`;
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
