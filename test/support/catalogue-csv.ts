/**
 * A shop's catalogue as a spreadsheet exports it: a byte-order mark, CRLF
 * lines, quoted names with commas and quotes, prices grouped by thousands,
 * barcodes, categories and variants. Used by the API tests, the office's
 * browser test and the import bench.
 */
const CATEGORIES = ['Vinywaji', 'Vyakula', 'Sabuni', 'Nguo', 'Vifaa'];

export interface CatalogueFileOptions {
  /** Products in the file (each tenth has two variants, which add rows). */
  products: number;
  /** Prefix of every SKU and barcode, so files of different tests never clash. */
  prefix: string;
  separator?: ',' | ';';
}

export function catalogueCsv({ products, prefix, separator = ',' }: CatalogueFileOptions): string {
  const quote = (value: string) => (/[",;\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  const lines = ['name,variant,sku,barcodes,price,cost,category,unit,favourite_position,archived'.split(',')];
  for (let i = 1; i <= products; i += 1) {
    const name = i % 7 === 0 ? `Soda "Baridi", ${i} ml` : `Bidhaa ${prefix} ${i}`;
    const price = 500 + ((i * 37) % 50) * 100;
    lines.push([
      name,
      '',
      `${prefix}-${i}`,
      `${prefix}${String(i).padStart(8, '0')}`,
      price >= 1000 ? price.toLocaleString('en-US') : String(price),
      String(Math.floor(price * 0.8)),
      CATEGORIES[i % CATEGORIES.length]!,
      i % 11 === 0 ? 'kg' : 'piece',
      i <= 5 ? String(i) : '',
      'no',
    ]);
    if (i % 10 === 0) {
      for (const size of ['Kubwa', 'Ndogo']) {
        lines.push([name, size, `${prefix}-${i}-${size}`, '', String(price + 200), '', '', '', '', 'no']);
      }
    }
  }
  return `\ufeff${lines.map((line) => line.map(quote).join(separator)).join('\r\n')}\r\n`;
}
