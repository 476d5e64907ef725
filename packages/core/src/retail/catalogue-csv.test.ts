import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseCsvAmount,
  readCatalogueCsv,
  writeCatalogueCsv,
  type CatalogueExportProduct,
} from './catalogue-csv.ts';
import {
  csvErrorDetails,
  csvProblemText,
  readCsvErrorField,
  readCsvProblem,
  CSV_PROBLEMS,
  type CsvProblem,
} from './catalogue-csv-problems.ts';

const HEADER = 'name,variant,sku,barcodes,price,cost,category,unit,favourite_position,archived';

describe('parseCsvAmount', () => {
  it('reads whole amounts as spreadsheets write them', () => {
    for (const text of [
      '12500',
      '12,500',
      '12 500',
      '12.500',
      '12500.00',
      '12,500.00',
      'TZS 12,500',
      '12500,00',
    ])
      expect(parseCsvAmount(text)).toBe(12500);
    expect(parseCsvAmount('0')).toBe(0);
  });
  it('refuses fractions, words and negative amounts', () => {
    for (const text of ['12.5', '1,25', 'abc', '-100', '12,50,0', '1e5', '99999999999999'])
      expect(() => parseCsvAmount(text)).toThrow();
  });
});

describe('readCatalogueCsv', () => {
  it('reads products with their variants, codes, category, unit and favourites', () => {
    const file = readCatalogueCsv(
      `\ufeff${HEADER}\r\n` +
        `"Sukari, 1kg",,SUK1,6201234567890|6201234567891,"2,500",2000,Vyakula,piece,3,no\r\n` +
        `Shati,,SHT,,15000,,Nguo,,,\r\n` +
        `Shati,Kubwa,SHT-L,6200000000001,16000,,,,,\r\n` +
        `Shati,Ndogo,,,,,,,,\r\n` +
        `Mchele,,,,3000,,,kg,,no\r\n`,
    );
    expect(file.errors).toEqual([]);
    expect(file.products).toHaveLength(3);
    expect(file.products[0]).toMatchObject({
      row: 2,
      name: 'Sukari, 1kg',
      sku: 'SUK1',
      barcodes: ['6201234567890', '6201234567891'],
      price: 2500,
      cost: 2000,
      category: 'Vyakula',
      unit: 'piece',
      favourite_position: 3,
      archived: false,
    });
    expect(file.products[1]!.variants).toEqual([
      {
        row: 4,
        name: 'Kubwa',
        sku: 'SHT-L',
        barcodes: ['6200000000001'],
        price: 16000,
        active: undefined,
        archived: false,
      },
      {
        row: 5,
        name: 'Ndogo',
        sku: null,
        barcodes: [],
        price: undefined,
        active: undefined,
        archived: false,
      },
    ]);
    expect(file.products[2]).toMatchObject({ name: 'Mchele', unit: 'kg', sku: null, cost: null });
    // Columns the file lacks stay undefined: the product keeps its value.
    expect(file.products[0]!.tax_rate).toBeUndefined();
    expect(file.products[0]!.plu).toBeUndefined();
  });

  it('reads `;` files with header aliases and sold_by_weight', () => {
    const file = readCatalogueCsv(
      'Product;Barcode;Selling price;Sold by weight\nNyama;2000001;12,500;yes\nChai;;500;no\n',
    );
    expect(file.errors).toEqual([]);
    expect(file.products.map((p) => [p.name, p.barcodes, p.price, p.unit])).toEqual([
      ['Nyama', ['2000001'], 12500, 'kg'],
      ['Chai', [], 500, 'piece'],
    ]);
  });

  it('reads a code that only looks like a number in E notation (12E3) as a code', () => {
    const file = readCatalogueCsv(`${HEADER}\nChai,,12E3,,500,,,,,\nSoda,,0e0,,500,,,,,\n`);
    expect(file.errors).toEqual([]);
    expect(file.products.map((p) => p.sku)).toEqual(['12E3', '0e0']);
  });

  it('names every problem by row and column, not only the first', () => {
    const file = readCatalogueCsv(
      `${HEADER}\n` +
        `,,A1,,100,,,,,\n` + // row 2: no name
        `Chai,,A2,,12.5,,,,,\n` + // row 3: a fraction
        `Soda,,A3,6.20123E+12,abc,,,box,1000,maybe\n` + // row 4: four problems
        `Maji,,A1,,100,,,,,\n` + // row 5: repeats row 2's SKU
        `Juisi,Kubwa,,,100,,,,,\n`, // row 6: a variant without its product above
    );
    const named = file.errors.map((error) => [error.row, error.column, error.problem]);
    expect(named).toEqual(
      expect.arrayContaining([
        [2, 'name', 'required'],
        [3, 'price', 'amount_invalid'],
        [4, 'barcodes', 'number_mangled'],
        [4, 'price', 'amount_invalid'],
        [4, 'unit', 'unit_invalid'],
        [4, 'favourite_position', 'position_invalid'],
        [4, 'archived', 'yes_no'],
        [5, 'sku', 'repeats'],
        [6, 'variant', 'variant_orphan'],
      ]),
    );
    expect(file.errors).toHaveLength(9);
    expect(csvErrorDetails(file.errors)['rows.5.sku']).toBe('repeats row 2');
  });

  it('refuses a file without the required columns, or with unknown ones, at row 1', () => {
    expect(readCatalogueCsv('name,prce\nChai,100\n').errors).toEqual([
      { row: 1, column: 'prce', problem: 'column_unknown' },
      { row: 1, column: 'price', problem: 'column_missing' },
    ]);
    expect(readCatalogueCsv('').errors).toEqual([{ row: 1, column: '', problem: 'file_empty' }]);
    expect(readCatalogueCsv('name,price\n"open,1\n').errors).toEqual([
      { row: 2, column: '', problem: 'quote_open' },
    ]);
  });

  it('undoes the formula guard and ignores blank rows', () => {
    const file = readCatalogueCsv("name,price\n'=Chai,100\n\n,\nMaji,200\n");
    expect(file.errors).toEqual([]);
    expect(file.products.map((p) => [p.row, p.name])).toEqual([
      [2, '=Chai'],
      [5, 'Maji'],
    ]);
  });
});

describe('writeCatalogueCsv', () => {
  const code = fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/);
  const text = fc
    .string({ minLength: 1, maxLength: 30 })
    .filter((value) => value.trim() === value && value !== '');
  const product = fc.record({
    name: text,
    sku: fc.option(code, { nil: null }),
    barcodes: fc.array(fc.stringMatching(/^\d{8,13}$/), { maxLength: 3 }),
    price: fc.integer({ min: 0, max: 10_000_000 }),
    cost: fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: null }),
    category: fc.option(text, { nil: null }),
    unit: fc.constantFrom('piece' as const, 'kg' as const, 'litre' as const, 'metre' as const),
    tax_rate: fc.constantFrom('standard' as const, 'zero_rated' as const, 'exempt' as const),
    track_stock: fc.boolean(),
    active: fc.boolean(),
    favourite_position: fc.option(fc.integer({ min: 1, max: 999 }), { nil: null }),
    plu: fc.option(fc.integer({ min: 1, max: 999_999 }).map(String), { nil: null }),
    description: fc.option(text, { nil: null }),
    variants: fc.array(
      fc.record({
        name: text,
        sku: fc.option(code, { nil: null }),
        barcodes: fc.array(fc.stringMatching(/^\d{8,13}$/), { maxLength: 2 }),
        price: fc.integer({ min: 0, max: 10_000_000 }),
        active: fc.boolean(),
      }),
      { maxLength: 3 },
    ),
  });

  it('writes what it reads back, for any product', () => {
    fc.assert(
      fc.property(product, (original: CatalogueExportProduct) => {
        const file = readCatalogueCsv(writeCatalogueCsv([original]));
        const read = file.products[0]!;
        expect(file.errors.filter((e) => e.problem !== 'repeats')).toEqual([]);
        expect({
          ...original,
          variants: original.variants.map(({ name, sku, barcodes, price, active }) => ({
            name,
            sku,
            barcodes,
            price,
            active,
          })),
        }).toEqual({
          name: read.name,
          sku: read.sku,
          barcodes: read.barcodes,
          price: read.price,
          cost: read.cost,
          category: read.category,
          unit: read.unit,
          tax_rate: read.tax_rate,
          track_stock: read.track_stock,
          active: read.active,
          favourite_position: read.favourite_position,
          plu: read.plu,
          description: read.description,
          variants: read.variants.map(({ name, sku, barcodes, price, active }) => ({
            name,
            sku,
            barcodes,
            price,
            active,
          })),
        });
      }),
      { numRuns: 500 },
    );
  });
});

describe('problems', () => {
  it('reads each sentence back into its problem and numbers', () => {
    for (const problem of Object.keys(CSV_PROBLEMS) as CsvProblem[]) {
      expect(readCsvProblem(csvProblemText(problem, { row: 7, max: 200 }))?.problem).toBe(problem);
    }
    expect(readCsvProblem('repeats row 12')).toEqual({ problem: 'repeats', params: { row: 12 } });
    expect(readCsvProblem('something else')).toBeNull();
    expect(readCsvErrorField('rows.12.price')).toEqual({ row: 12, column: 'price' });
    expect(readCsvErrorField('rows.3')).toEqual({ row: 3, column: '' });
    expect(readCsvErrorField('price')).toBeNull();
  });
});
