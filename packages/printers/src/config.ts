import { PrinterError } from './errors.ts';

/** ESC/POS dialect: Epson (and its many clones) or Star Line Mode. */
export type CommandSet = 'epson' | 'star';

/** Paper roll width in millimetres. */
export type PaperWidth = 58 | 80;

/** Characters per line in font A: what fits on the printable area of each roll. */
export const COLUMNS: Record<PaperWidth, number> = { 58: 32, 80: 48 };

/** Printable dots per line at 203 dpi, used to decide whether a barcode fits. */
export const DOTS_PER_LINE: Record<PaperWidth, number> = { 58: 384, 80: 576 };

export function parseCommandSet(value: string): CommandSet {
  if (value === 'epson' || value === 'star') return value;
  throw new PrinterError('invalid_config', `Unknown printer type "${value}": use "epson" or "star".`);
}

export function parsePaperWidth(value: string | number): PaperWidth {
  const width = Number(value);
  if (width === 58 || width === 80) return width;
  throw new PrinterError('invalid_config', `Unsupported paper width "${String(value)}": use 58 or 80 (mm).`);
}
