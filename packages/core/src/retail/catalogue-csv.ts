/**
 * The catalogue as a CSV file (docs/RETAIL.md, "Catalogue CSV"): one row per
 * product, followed by one row per variant (the product's name again, and the
 * variant's name in `variant`). Reading checks every row and names every
 * problem by row and column; nothing here touches storage.
 */
import { readAmount } from '../money.ts';
import { CsvSyntaxError, parseCsv, unguardCell, writeCsv } from '../csv.ts';
import type { QuantityUnit } from './pricing.ts';
import type { TaxClass } from './tax.ts';
import type { CsvProblem, CsvProblemParams, CsvRowError } from './catalogue-csv-problems.ts';

export const CATALOGUE_COLUMNS = [
  'name',
  'variant',
  'sku',
  'barcodes',
  'price',
  'cost',
  'category',
  'unit',
  'tax_rate',
  'track_stock',
  'active',
  'favourite_position',
  'plu',
  'description',
  'archived',
] as const;
export type CatalogueColumn = (typeof CATALOGUE_COLUMNS)[number] | 'sold_by_weight';

/** Other headers spreadsheets and other tills use for the same columns. */
const ALIASES: Record<string, CatalogueColumn> = {
  product: 'name',
  product_name: 'name',
  item: 'name',
  item_name: 'name',
  variant_name: 'variant',
  barcode: 'barcodes',
  ean: 'barcodes',
  selling_price: 'price',
  cost_price: 'cost',
  tax: 'tax_rate',
  favorite_position: 'favourite_position',
  favourite: 'favourite_position',
  deleted: 'archived',
  sold_by_weight: 'sold_by_weight',
};

/** At most this many products and variants in one file. */
export const MAX_CATALOGUE_ROWS = 20_000;

/** `undefined`: the file has no such column, and the product keeps its value. */
export interface CatalogueVariantRow {
  row: number;
  name: string;
  sku?: string | null | undefined;
  barcodes?: string[] | undefined;
  price?: number | undefined;
  active?: boolean | undefined;
  archived: boolean;
}

export interface CatalogueProductRow {
  row: number;
  name: string;
  sku?: string | null | undefined;
  barcodes?: string[] | undefined;
  price: number;
  cost?: number | null | undefined;
  category?: string | null | undefined;
  unit?: QuantityUnit | undefined;
  tax_rate?: TaxClass | undefined;
  track_stock?: boolean | undefined;
  active?: boolean | undefined;
  favourite_position?: number | null | undefined;
  plu?: string | null | undefined;
  description?: string | null | undefined;
  archived: boolean;
  variants: CatalogueVariantRow[];
}

export interface CatalogueFile {
  products: CatalogueProductRow[];
  /** Every problem found; the file is applied only when there is none. */
  errors: CsvRowError[];
}

const headerName = (text: string): string =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
    .replace(/[^a-z_]/g, '');

const YES = new Set(['yes', 'y', 'true', '1', 'ndiyo', 'ndio']);
const NO = new Set(['no', 'n', 'false', '0', 'hapana']);
const UNITS: Record<string, QuantityUnit> = {
  piece: 'piece',
  pieces: 'piece',
  pc: 'piece',
  pcs: 'piece',
  each: 'piece',
  kg: 'kg',
  kilogram: 'kg',
  litre: 'litre',
  liter: 'litre',
  l: 'litre',
  metre: 'metre',
  meter: 'metre',
  m: 'metre',
};
const TAX: Record<string, TaxClass> = {
  standard: 'standard',
  zero_rated: 'zero_rated',
  'zero rated': 'zero_rated',
  exempt: 'exempt',
};
const CODE = /^[\x21-\x7e]{1,64}$/;
/**
 * What Excel does to a long number typed into a General cell: 6.20123E+12. Always with the `+`:
 * a code such as `12E3` or `0E0` is a code.
 */
const MANGLED = /^\d+(?:[.,]\d+)?e\+\d+$/i;

/** A cell's problem, thrown by a cell's parser and caught by the row's reader. */
class Problem extends Error {
  constructor(
    readonly problem: CsvProblem,
    readonly params?: CsvProblemParams,
  ) {
    super(problem);
  }
}

/** `12500`, `12,500`, `12 500`, `12500.00`, `TZS 12,500`: whole amounts, as the office's fields read them. */
export function parseCsvAmount(text: string): number {
  const read = readAmount(text);
  if ('problem' in read) throw new Problem('amount_invalid');
  return read.amount;
}

function parseCode(text: string): string {
  if (MANGLED.test(text)) throw new Problem('number_mangled');
  if (!CODE.test(text)) throw new Problem('code_invalid');
  return text;
}

/** Barcodes in one cell, apart by `|`, `,`, `;` or spaces. */
function parseBarcodes(text: string): string[] {
  if (MANGLED.test(text)) throw new Problem('number_mangled');
  const codes = text
    .split(/[|,;\s]+/)
    .filter(Boolean)
    .map(parseCode);
  if (codes.length > 20) throw new Problem('too_many_barcodes');
  return codes;
}

function parseYesNo(text: string): boolean {
  const word = text.toLowerCase();
  if (YES.has(word)) return true;
  if (NO.has(word)) return false;
  throw new Problem('yes_no');
}

function parseText(max: number) {
  return (text: string): string => {
    if (text.length > max) throw new Problem('too_long', { max });
    return text;
  };
}

function parsePosition(text: string): number {
  if (!/^\d{1,3}$/.test(text) || Number(text) < 1) throw new Problem('position_invalid');
  return Number(text);
}

function parsePlu(text: string): string {
  if (!/^\d{1,6}$/.test(text) || /^0+$/.test(text)) throw new Problem('plu_invalid');
  return text.replace(/^0+/, '');
}

function lookup<T>(table: Record<string, T>, problem: CsvProblem) {
  return (text: string): T => {
    const found = table[text.toLowerCase()];
    if (found === undefined) throw new Problem(problem);
    return found;
  };
}

/** Reads and checks a whole file. Row numbers are the spreadsheet's: the header is row 1. */
export function readCatalogueCsv(text: string): CatalogueFile {
  const errors: CsvRowError[] = [];
  const fail = (row: number, column: string, problem: CsvProblem, params?: CsvProblemParams) => {
    errors.push(params ? { row, column, problem, params } : { row, column, problem });
  };
  let records: string[][];
  try {
    records = parseCsv(text).records;
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    fail(error.row, '', 'quote_open');
    return { products: [], errors };
  }
  const [header = [], ...body] = records;
  const columns = new Map<CatalogueColumn, number>();
  header.forEach((cell, index) => {
    const name = headerName(cell);
    if (name === '') return;
    const column = (CATALOGUE_COLUMNS as readonly string[]).includes(name)
      ? (name as CatalogueColumn)
      : ALIASES[name];
    if (!column) fail(1, cell.trim(), 'column_unknown');
    else if (columns.has(column)) fail(1, column, 'column_repeated');
    else columns.set(column, index);
  });
  if (header.every((cell) => cell.trim() === '')) {
    fail(1, '', 'file_empty');
    return { products: [], errors };
  }
  for (const required of ['name', 'price'] as const) {
    if (!columns.has(required)) fail(1, required, 'column_missing');
  }
  if (errors.length > 0) return { products: [], errors };
  const rows = body.map((cells, index) => ({ row: index + 2, cells }));
  const filled = rows.filter(({ cells }) => cells.some((cell) => cell.trim() !== ''));
  if (filled.length > MAX_CATALOGUE_ROWS) {
    fail(MAX_CATALOGUE_ROWS + 2, '', 'file_too_long', { max: MAX_CATALOGUE_ROWS });
    return { products: [], errors };
  }

  const products: CatalogueProductRow[] = [];
  for (const { row, cells } of filled) {
    const cell = (column: CatalogueColumn): string | undefined => {
      const index = columns.get(column);
      return index === undefined ? undefined : unguardCell((cells[index] ?? '').trim());
    };
    /** The column's value: undefined when the file lacks the column, `empty` for a blank cell. */
    function read<T, E>(column: CatalogueColumn, parse: (text: string) => T, empty: E): T | E | undefined {
      const text = cell(column);
      if (text === undefined) return undefined;
      if (text === '') return empty;
      try {
        return parse(text);
      } catch (problem) {
        if (!(problem instanceof Problem)) throw problem;
        fail(row, column, problem.problem, problem.params);
        return empty;
      }
    }
    const name = read('name', parseText(200), '') ?? '';
    if (name === '') fail(row, 'name', 'required');
    const variantName = read('variant', parseText(200), '');
    const sku = read('sku', parseCode, null);
    const barcodes = read('barcodes', parseBarcodes, []);
    const active = read('active', parseYesNo, true);
    const archived = read('archived', parseYesNo, false) ?? false;
    if (variantName) {
      const parent = products.at(-1);
      if (!parent || parent.name.toLowerCase() !== name.toLowerCase()) {
        fail(row, 'variant', 'variant_orphan');
        continue;
      }
      parent.variants.push({
        row,
        name: variantName,
        sku,
        barcodes,
        price: read('price', parseCsvAmount, undefined),
        active,
        archived,
      });
      continue;
    }
    const price = read('price', parseCsvAmount, null);
    if (cell('price') === '') fail(row, 'price', 'required');
    const weighed = read('sold_by_weight', parseYesNo, false);
    products.push({
      row,
      name,
      sku,
      barcodes,
      price: price ?? 0,
      cost: read('cost', parseCsvAmount, null),
      category: read('category', parseText(200), null),
      unit:
        read('unit', lookup(UNITS, 'unit_invalid'), 'piece' as const) ??
        (weighed === undefined ? undefined : weighed ? 'kg' : 'piece'),
      tax_rate: read('tax_rate', lookup(TAX, 'tax_invalid'), 'standard' as const),
      track_stock: read('track_stock', parseYesNo, true),
      active,
      favourite_position: read('favourite_position', parsePosition, null),
      plu: read('plu', parsePlu, null),
      description: read('description', parseText(1000), null),
      archived,
      variants: [],
    });
  }
  errors.push(...repeatedRows(products));
  return { products, errors };
}

/** A code (SKU, barcode, PLU) given twice, or a product without codes named twice: the later row repeats the earlier. */
function repeatedRows(products: readonly CatalogueProductRow[]): CsvRowError[] {
  const errors: CsvRowError[] = [];
  const seen = new Map<string, number>();
  const claim = (key: string, row: number, column: string) => {
    const earlier = seen.get(key);
    if (earlier !== undefined) errors.push({ row, column, problem: 'repeats', params: { row: earlier } });
    else seen.set(key, row);
  };
  for (const product of products) {
    const items = [product, ...product.variants];
    for (const item of items) {
      if (item.archived) continue;
      if (item.sku) claim(`code:${item.sku.toLowerCase()}`, item.row, 'sku');
      for (const code of item.barcodes ?? []) claim(`code:${code.toLowerCase()}`, item.row, 'barcodes');
    }
    if (product.plu) claim(`plu:${product.plu}`, product.row, 'plu');
    if (!product.sku && (product.barcodes ?? []).length === 0)
      claim(`name:${product.name.toLowerCase()}`, product.row, 'name');
  }
  return errors;
}

/** A product as the export writes it: its category by name. */
export interface CatalogueExportProduct {
  name: string;
  sku: string | null;
  barcodes: readonly string[];
  price: number;
  cost: number | null;
  category: string | null;
  unit: QuantityUnit;
  tax_rate: TaxClass;
  track_stock: boolean;
  active: boolean;
  favourite_position: number | null;
  plu: string | null;
  description: string | null;
  variants: readonly {
    name: string;
    sku: string | null;
    barcodes: readonly string[];
    price: number;
    active: boolean;
  }[];
}

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** The file `readCatalogueCsv` reads back into the same catalogue. */
export function writeCatalogueCsv(products: readonly CatalogueExportProduct[]): string {
  const records: string[][] = [[...CATALOGUE_COLUMNS]];
  for (const product of products) {
    records.push([
      product.name,
      '',
      product.sku ?? '',
      product.barcodes.join('|'),
      String(product.price),
      product.cost === null ? '' : String(product.cost),
      product.category ?? '',
      product.unit,
      product.tax_rate,
      yesNo(product.track_stock),
      yesNo(product.active),
      product.favourite_position === null ? '' : String(product.favourite_position),
      product.plu ?? '',
      product.description ?? '',
      'no',
    ]);
    for (const variant of product.variants) {
      records.push([
        product.name,
        variant.name,
        variant.sku ?? '',
        variant.barcodes.join('|'),
        String(variant.price),
        ...Array<string>(5).fill(''),
        yesNo(variant.active),
        ...Array<string>(3).fill(''),
        'no',
      ]);
    }
  }
  return writeCsv(records);
}
