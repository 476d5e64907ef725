/**
 * What can be wrong in a catalogue CSV file, each problem with its English
 * sentence. The API names every problem in `details` as `rows.<row>.<column>`
 * (or `rows.<row>` for a whole row) with that sentence; `readCsvProblem`
 * turns a sentence back into its problem, so a page can say it in its own
 * language.
 */

export const CSV_PROBLEMS = {
  file_empty: 'has no header row',
  file_too_long: 'the file has more than {max} products and variants',
  quote_open: 'a quoted field is never closed',
  column_missing: 'column is missing',
  column_unknown: 'is not a column of the catalogue',
  column_repeated: 'column appears twice',
  required: 'is required',
  too_long: 'is longer than {max} characters',
  amount_invalid: 'must be a whole amount in the currency’s smallest unit, like 12500 or 12,500',
  number_mangled:
    'was turned into a number by the spreadsheet (like 6.2E+12): format the column as text and type it again',
  code_invalid: 'must be 1 to 64 printable characters without spaces',
  too_many_barcodes: 'has more than 20 barcodes',
  unit_invalid: 'must be piece, kg, litre or metre',
  tax_invalid: 'must be standard, zero_rated or exempt',
  yes_no: 'must be yes or no',
  position_invalid: 'must be a whole number from 1 to 999',
  plu_invalid: 'must be 1 to 6 digits, not zero',
  repeats: 'repeats row {row}',
  variant_orphan: 'a variant must follow its product’s row, with the same name',
  code_taken: 'is already used by another product or variant',
  codes_disagree: 'names another product than this row’s SKU does',
  name_ambiguous: 'matches several products by name: give the row a SKU or barcode',
} as const;

export type CsvProblem = keyof typeof CSV_PROBLEMS;

export interface CsvProblemParams {
  row?: number;
  max?: number;
}

/** One problem in a file: the spreadsheet row (the header is row 1) and the column, `''` for the whole row. */
export interface CsvRowError {
  row: number;
  column: string;
  problem: CsvProblem;
  params?: CsvProblemParams;
}

export const csvProblemText = (problem: CsvProblem, params: CsvProblemParams = {}): string =>
  CSV_PROBLEMS[problem].replace(/\{(row|max)\}/g, (_, name: 'row' | 'max') => String(params[name] ?? ''));

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const PATTERNS = (Object.keys(CSV_PROBLEMS) as CsvProblem[]).map((problem) => ({
  problem,
  names: [...CSV_PROBLEMS[problem].matchAll(/\{(row|max)\}/g)].map((match) => match[1] as 'row' | 'max'),
  pattern: new RegExp(`^${escapeRegExp(CSV_PROBLEMS[problem]).replace(/\\\{(row|max)\\\}/g, '(\\d+)')}$`),
}));

/** The problem a sentence of `csvProblemText` says, with its numbers; null for any other text. */
export function readCsvProblem(text: string): { problem: CsvProblem; params: CsvProblemParams } | null {
  for (const { problem, names, pattern } of PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const params: CsvProblemParams = {};
    names.forEach((name, index) => (params[name] = Number(match[index + 1])));
    return { problem, params };
  }
  return null;
}

/** `rows.12.price` -> row 12, column `price`; `rows.3` -> row 3, the whole row. Null for other fields. */
export function readCsvErrorField(field: string): { row: number; column: string } | null {
  const match = /^rows\.(\d+)(?:\.(.+))?$/.exec(field);
  return match ? { row: Number(match[1]), column: match[2] ?? '' } : null;
}

export const csvErrorField = (error: Pick<CsvRowError, 'row' | 'column'>): string =>
  error.column ? `rows.${error.row}.${error.column}` : `rows.${error.row}`;

/** The errors as the API's `details`, in row order (at most `limit`, so an answer stays small). */
export function csvErrorDetails(errors: readonly CsvRowError[], limit = 1000): Record<string, string> {
  const sorted = [...errors].sort((a, b) => a.row - b.row);
  const details: Record<string, string> = {};
  for (const error of sorted.slice(0, limit)) {
    details[csvErrorField(error)] ??= csvProblemText(error.problem, error.params);
  }
  return details;
}
