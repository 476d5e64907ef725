/**
 * CSV as spreadsheets write it (Excel, LibreOffice, Google Sheets): an
 * optional byte-order mark, CRLF or LF lines, fields quoted with `"` when they
 * hold the separator, a quote (doubled) or a line break, and `,` or `;` (or a
 * tab) between fields, whichever the header line uses. RFC 4180 plus those.
 */

export type CsvSeparator = ',' | ';' | '\t';

export interface CsvTable {
  separator: CsvSeparator;
  /** Records in order; a record's index + 1 is its row number in a spreadsheet. */
  records: string[][];
}

/** A quote left open at the end of the text: the row where it opened. */
export class CsvSyntaxError extends Error {
  constructor(readonly row: number) {
    super(`row ${row}: a quoted field is never closed`);
  }
}

/** The separator the header line uses most, outside quotes; `,` when it has none. */
export function detectSeparator(text: string): CsvSeparator {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char in counts) counts[char as CsvSeparator] += 1;
  }
  const best = (Object.keys(counts) as CsvSeparator[]).reduce((a, b) => (counts[b] > counts[a] ? b : a));
  return counts[best] > 0 ? best : ',';
}

/** Parses the text into records; blank lines are kept as `['']` so row numbers stay a spreadsheet's. */
export function parseCsv(
  input: string,
  separator: CsvSeparator = detectSeparator(stripBom(input)),
): CsvTable {
  const text = stripBom(input);
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let openedAt = 0;
  let i = 0;
  const endRecord = () => {
    record.push(field);
    records.push(record);
    record = [];
    field = '';
  };
  while (i < text.length) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += char;
      i += 1;
      continue;
    }
    if (char === '"' && field.trim() === '') {
      // A quote opens a field only at its start (spaces before it are dropped, as spreadsheets do).
      field = '';
      quoted = true;
      openedAt = records.length + 1;
    } else if (char === separator) {
      record.push(field);
      field = '';
    } else if (char === '\r' || char === '\n') {
      endRecord();
      if (char === '\r' && text[i + 1] === '\n') i += 1;
    } else field += char;
    i += 1;
  }
  if (quoted) throw new CsvSyntaxError(openedAt);
  if (field !== '' || record.length > 0) endRecord();
  return { separator, records };
}

const stripBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** Characters that make a spreadsheet read a cell as a formula (after any guards already there). */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * One field for a CSV file: quoted when it must be, and a text that a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`) written with a
 * leading `'`, which `unguardCell` removes on the way back.
 */
export function csvField(value: string, separator: CsvSeparator = ','): string {
  // A text that already looks guarded (`'=x`) gets one more, so it comes back as it was.
  const guarded = FORMULA_START.test(value) && !/^-?\d+$/.test(value) ? `'${value}` : value;
  return guarded.includes(separator) ||
    guarded.includes('"') ||
    guarded.includes('\n') ||
    guarded.includes('\r') ||
    guarded !== guarded.trim()
    ? `"${guarded.replaceAll('"', '""')}"`
    : guarded;
}

/** Undoes `csvField`'s formula guard. */
export const unguardCell = (value: string): string =>
  value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;

/** A whole CSV file as spreadsheets open it in any language: a byte-order mark, CRLF lines. */
export function writeCsv(records: readonly (readonly string[])[], separator: CsvSeparator = ','): string {
  return `\ufeff${records.map((record) => record.map((value) => csvField(value, separator)).join(separator)).join('\r\n')}\r\n`;
}
