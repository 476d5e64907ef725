/** The retail objects as the `/v1` API answers them, and the helpers the tabs share. */
export type Unit = 'piece' | 'kg' | 'litre' | 'metre';
export const UNITS: readonly Unit[] = ['piece', 'kg', 'litre', 'metre'];
export const UNIT_WORDS = {
  piece: 'unitPiece',
  kg: 'unitKg',
  litre: 'unitLitre',
  metre: 'unitMetre',
} as const;

export interface Variant {
  id: string;
  name: string;
  sku: string | null;
  barcodes: string[];
  price: number;
  active: boolean;
}
export interface Product {
  id: string;
  name: string;
  sku: string | null;
  barcodes: string[];
  price: number;
  cost: number | null;
  currency: string;
  category: string | null;
  unit: Unit;
  track_stock: boolean;
  active: boolean;
  favourite_position: number | null;
  deleted: boolean;
  variants: Variant[];
}
export interface Category {
  id: string;
  name: string;
  description: string | null;
}
export interface Store {
  id: string;
  name: string;
  default: boolean;
  vat_region: 'mainland' | 'zanzibar';
  receipt_prefix: string;
  currency: string;
}

/**
 * A quantity as a person typed it in the item's unit ("12" pieces, "1.5" kg) in
 * thousandths, or null when it is not one: pieces are whole, others have at most 3 decimals.
 */
export function typedMilli(text: string, unit: Unit): number | null {
  const match = /^(\d{1,9})(?:[.,](\d{1,3}))?$/.exec(text.trim());
  if (!match || (unit === 'piece' && match[2] !== undefined)) return null;
  return Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0'));
}

/** Barcodes as typed: apart by spaces, commas or `|`. */
export const barcodesOf = (text: string) => text.split(/[\s,|;]+/).filter(Boolean);

/** Thousandths of a unit as people read them: 2000 pieces -> "2", -750 kg-milli -> "−0.750". */
export function formatMilli(milli: number, unit: Unit, grouped: (count: number) => string): string {
  const sign = milli < 0 ? '−' : '';
  const abs = Math.abs(milli);
  const whole = grouped(Math.trunc(abs / 1000));
  return unit === 'piece' && abs % 1000 === 0
    ? `${sign}${whole}`
    : `${sign}${whole}.${String(abs % 1000).padStart(3, '0')}`;
}
