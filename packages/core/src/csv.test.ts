import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, csvField, detectSeparator, parseCsv, unguardCell, writeCsv } from './csv.ts';

describe('parseCsv', () => {
  it('reads a spreadsheet export: BOM, CRLF, quoted separators, doubled quotes, line breaks in quotes', () => {
    const text = '\ufeffname,price\r\n"Sukari, 1kg",2500\r\n"Say ""hi""","12,500"\r\n"two\r\nlines",3\r\n';
    expect(parseCsv(text).records).toEqual([
      ['name', 'price'],
      ['Sukari, 1kg', '2500'],
      ['Say "hi"', '12,500'],
      ['two\r\nlines', '3'],
    ]);
  });

  it('takes the separator the header uses: ; from a Swahili or European spreadsheet, tabs', () => {
    expect(detectSeparator('name;price;sku\n')).toBe(';');
    expect(detectSeparator('"a;b",price\n')).toBe(',');
    expect(detectSeparator('name\tprice\n')).toBe('\t');
    expect(parseCsv('name;price\nChai;12,500\n').records).toEqual([
      ['name', 'price'],
      ['Chai', '12,500'],
    ]);
  });

  it('keeps blank lines as rows, so row numbers are the spreadsheet’s, and reads a last line without a break', () => {
    expect(parseCsv('a\n\nb').records).toEqual([['a'], [''], ['b']]);
  });

  it('names the row where a quote is left open', () => {
    expect(() => parseCsv('a\nb\n"never closed,1\n')).toThrow(CsvSyntaxError);
    try {
      parseCsv('a\nb\n"never closed,1\n');
    } catch (error) {
      expect((error as CsvSyntaxError).row).toBe(3);
    }
  });
});

describe('writeCsv', () => {
  it('quotes what must be quoted and guards formulas, and parseCsv reads it back', () => {
    const records = [
      ['name', 'note'],
      ['a,b', 'say "x"'],
      ['=SUM(A1)', 'line\nbreak'],
      ['-5', ' padded '],
      ["'=already", "''+twice"],
    ];
    const text = writeCsv(records);
    expect(text.startsWith('\ufeff')).toBe(true);
    expect(text).toContain('\r\n');
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)");
    const back = parseCsv(text).records.map((record) => record.map(unguardCell));
    expect(back).toEqual(records);
  });
});
