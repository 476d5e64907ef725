/** The retail objects as the `/v1` API answers them, and the reads and writes the tabs share. */
import { api, request, type List } from '../../api.ts';

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

/** The first hundred of a short list (stores, categories, tills): what a choice offers. */
export const firstHundred = <T>(path: string) =>
  api.get<List<T>>(`${path}${path.includes('?') ? '&' : '?'}limit=100`).then((page) => page.data);

export const patch = <T>(path: string, body: unknown) => request<T>('PATCH', path, body);

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
