/**
 * Scale labels at the till (docs/TILL.md, "Scale labels"): a scanned EAN-13
 * starting with 2 whose prefix the store's format (`scale_barcodes`, pulled
 * with the store) gives a weight or a price names its product by the item
 * code, and sells the quantity the label carries. Read from memory, like any
 * scan: the format is kept current from the store's document, and the
 * product is found in the catalogue index (`withItemCode`, or `withBarcode`
 * for a shop whose products carry the label with the value as zeros).
 */
import type { Subscription } from 'rxjs';
import { of, switchMap } from 'rxjs';
import { DEFAULT_SCALE_BARCODE_FORMAT, labelQuantityMilli, parseScaleBarcode } from '@tz/core';
import type { PullDocument, ScaleBarcodeFormat, ScaleLabel } from '@tz/core';
import { TillRefusal } from '../api.ts';
import type { CatalogueItem, RefusalCode } from '../api.ts';
import type { CatalogueIndex } from './catalogue-index.ts';
import type { Device } from '../store/context.ts';
import type { TillDatabase } from '../store/database.ts';
import { KV } from '../store/kv.ts';
import type { Kv } from '../store/kv.ts';

/** The store's label format, kept current from its pulled document; the default until the store arrives. */
export class ScaleFormat {
  private format: ScaleBarcodeFormat = DEFAULT_SCALE_BARCODE_FORMAT;
  private readonly subscription: Subscription;

  constructor(kv: Kv, db: TillDatabase) {
    this.subscription = kv
      .watch<Device>(KV.device)
      .pipe(switchMap((device) => (device ? db.stores.findOne(device.till.store).$ : of(null))))
      .subscribe((doc) => {
        const store = doc?.toJSON() as unknown as PullDocument<'stores'> | undefined;
        this.format = store?.scale_barcodes ?? DEFAULT_SCALE_BARCODE_FORMAT;
      });
  }

  current(): ScaleBarcodeFormat {
    return this.format;
  }

  stop(): void {
    this.subscription.unsubscribe();
  }
}

/** What a scanned code is as a label: not one (null), one to refuse, or the label read. */
export function readLabel(code: string, format: ScaleBarcodeFormat): ScaleLabel | null {
  const parsed = parseScaleBarcode(code, format);
  if (parsed === null) return null;
  if (!parsed.ok) throw new TillRefusal('scale_label_unreadable', `Scale label ${code} cannot be read`);
  return parsed.label;
}

/** The products a label names, as the store matches them; `undefined` while the catalogue is not in memory. */
export function labelProducts(
  index: CatalogueIndex,
  label: ScaleLabel,
  format: ScaleBarcodeFormat,
): Array<PullDocument<'products'>> | undefined {
  if (format.match_by === 'barcode') return index.withBarcode(label.baseBarcode)?.products;
  return index.withItemCode(format.match_by, label.itemCode);
}

const QUANTITY_REFUSALS: Record<
  Exclude<ReturnType<typeof labelQuantityMilli>, { ok: true }>['problem'],
  RefusalCode
> = {
  weight_on_piece: 'scale_label_weight_on_piece',
  price_not_whole_pieces: 'scale_label_price_not_whole',
  quantity_zero: 'scale_label_too_small',
};

/** The quantity a label sells of its item, or the refusal that says why it sells none. */
export function labelQuantity(label: ScaleLabel, item: CatalogueItem): number {
  const quantity = labelQuantityMilli(label, item);
  if (quantity.ok) return quantity.quantityMilli;
  throw new TillRefusal(QUANTITY_REFUSALS[quantity.problem], `${item.name}: ${quantity.problem}`);
}
