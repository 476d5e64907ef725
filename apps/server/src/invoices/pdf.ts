/**
 * A small PDF writer: A4 pages of text and rules in the two standard Helvetica
 * faces every PDF reader has, so no font is embedded and no library is needed.
 * Text is WinAnsi-encoded (Latin-1 plus typographic quotes and dashes); any
 * other character prints as `?`. Page contents are Flate-compressed.
 */

import { deflateSync } from 'node:zlib';

export const PAGE = { width: 595, height: 842, margin: 48 } as const;

type Face = 'regular' | 'bold';

// Helvetica's advance widths (thousandths of the font size) for ASCII 32–126; the bold face's
// digits, punctuation and capitals used in amounts match these closely enough for alignment.
const WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556,
  556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278,
  500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469,
  556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500,
  278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

const WIN_ANSI_EXTRA: Record<string, number> = {
  '€': 0x80,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
};

/** The WinAnsi byte of one character. */
function winAnsiCode(char: string): number {
  const code = char.codePointAt(0) ?? 63;
  if ((code >= 32 && code <= 126) || (code >= 160 && code <= 255)) return code;
  return WIN_ANSI_EXTRA[char] ?? 63;
}

/** Advance width in thousandths of the font size. */
const units = (code: number): number => WIDTHS[code - 32] ?? 556;

const textUnits = (text: string): number => {
  let sum = 0;
  for (const char of text) sum += units(winAnsiCode(char));
  return sum;
};

export function textWidth(text: string, size: number): number {
  return (textUnits(text) * size) / 1000;
}

/**
 * Splits text into lines no wider than `width`, breaking at spaces (and inside
 * words too long). Each character is measured once, so the cost grows with the
 * text's length and not its square: a long unbroken word used to be cut by
 * remeasuring ever shorter prefixes.
 */
export function wrap(text: string, size: number, width: number): string[] {
  const fits = (total: number) => (total * size) / 1000 <= width;
  const space = units(32);
  const lines: string[] = [];
  let current = '';
  let currentUnits = 0;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const wordUnits = textUnits(word);
    if (current && fits(currentUnits + space + wordUnits)) {
      current += ` ${word}`;
      currentUnits += space + wordUnits;
      continue;
    }
    if (current) lines.push(current);
    current = word;
    currentUnits = wordUnits;
    if (fits(wordUnits)) continue;
    // Too wide alone: the longest prefixes that fit, one character at the least.
    current = '';
    currentUnits = 0;
    for (const char of word) {
      const charUnits = units(winAnsiCode(char));
      if (current && !fits(currentUnits + charUnits)) {
        lines.push(current);
        current = '';
        currentUnits = 0;
      }
      current += char;
      currentUnits += charUnits;
    }
  }
  if (current || lines.length === 0) lines.push(current);
  return lines;
}

/** A PDF string's body: WinAnsi bytes, with parentheses and backslashes escaped. */
const literal = (text: string): string => {
  let out = '';
  for (const char of text) {
    const code = winAnsiCode(char);
    if (code === 40 || code === 41 || code === 92) out += `\\${char}`;
    else if (code > 126) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(code);
  }
  return out;
};

const num = (value: number): string => (Math.round(value * 100) / 100).toString();

/** Draws pages top-down: `y` starts at the top margin and new pages begin as it runs out. */
export class PdfDocument {
  private readonly pages: string[][] = [[]];
  y: number = PAGE.height - PAGE.margin;

  private get ops(): string[] {
    return this.pages[this.pages.length - 1]!;
  }

  /** Starts a new page when fewer than `height` points are left above the bottom margin. */
  ensureRoom(height: number): void {
    if (this.y - height < PAGE.margin) {
      this.pages.push([]);
      this.y = PAGE.height - PAGE.margin;
    }
  }

  text(
    x: number,
    y: number,
    text: string,
    options: { size?: number; face?: Face; align?: 'left' | 'right' } = {},
  ) {
    const size = options.size ?? 10;
    const left = options.align === 'right' ? x - textWidth(text, size) : x;
    const font = options.face === 'bold' ? 'F2' : 'F1';
    this.ops.push(`BT /${font} ${num(size)} Tf ${num(left)} ${num(y)} Td (${literal(text)}) Tj ET`);
  }

  rule(y: number, x1: number = PAGE.margin, x2: number = PAGE.width - PAGE.margin, width = 0.5): void {
    this.ops.push(`${num(width)} w ${num(x1)} ${num(y)} m ${num(x2)} ${num(y)} l S`);
  }

  /** The file: catalog, page tree, the two fonts, each page and its content stream, the xref table. */
  toBuffer(title: string): Buffer {
    const objects: string[] = [];
    const pageIds = this.pages.map((_, index) => 6 + index * 2);
    objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
    objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
    objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
    objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
    objects[5] = `<< /Title (${literal(title)}) /Producer (tz-server) >>`;
    this.pages.forEach((ops, index) => {
      const pageId = pageIds[index]!;
      // Compressed: a page of text shrinks ten to forty times, and so do storing and sending it.
      const content = deflateSync(Buffer.from(ops.join('\n'), 'latin1')).toString('latin1');
      objects[pageId] =
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE.width} ${PAGE.height}] ` +
        `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
      objects[pageId + 1] =
        `<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n${content}\nendstream`;
    });
    let out = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
    const offsets: number[] = [];
    for (let id = 1; id < objects.length; id++) {
      offsets[id] = Buffer.byteLength(out, 'latin1');
      out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
    }
    const xref = Buffer.byteLength(out, 'latin1');
    out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
    for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
    out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    return Buffer.from(out, 'latin1');
  }
}
