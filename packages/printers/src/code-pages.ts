import iconv from 'iconv-lite';
import type { PrinterCodePage } from '@tz/core';
import type { CommandSet } from './config.ts';
import { PrinterError } from './errors.ts';

/**
 * Single-byte code pages we print with. Every character is sent in the code
 * page the printer is configured for, or transliterated to one it has: a
 * printer never receives bytes it would show as the wrong glyph. The names are
 * core's (`PRINTER_CODE_PAGES`), which the server accepts; the table below must
 * cover exactly those.
 */
export type CodePage = PrinterCodePage;

interface CodePageInfo {
  /** Encoding name for iconv-lite (the encoder node-thermal-printer uses). */
  readonly iconv: string;
  /** node-thermal-printer's CharacterSet name, which emits the select command. */
  readonly library: string;
  /** Table number in the select command (`ESC t n` on Epson, `ESC GS t n` on Star); absent when unsupported. */
  readonly table: Readonly<Partial<Record<CommandSet, number>>>;
}

export const CODE_PAGES: Readonly<Record<CodePage, CodePageInfo>> = {
  PC437: { iconv: 'CP437', library: 'PC437_USA', table: { epson: 0, star: 1 } },
  // Star Line Mode has no PC850 table (node-thermal-printer would select table 0, which is PC437).
  PC850: { iconv: 'CP850', library: 'PC850_MULTILINGUAL', table: { epson: 2 } },
  PC858: { iconv: 'CP858', library: 'PC858_EURO', table: { epson: 19, star: 4 } },
  WPC1252: { iconv: 'CP1252', library: 'WPC1252', table: { epson: 16, star: 32 } },
};

export const DEFAULT_CODE_PAGE: CodePage = 'PC437';

export function parseCodePage(value: string): CodePage {
  const name = value.toUpperCase();
  if (name in CODE_PAGES) return name as CodePage;
  throw new PrinterError(
    'invalid_config',
    `Unknown code page "${value}": use one of ${Object.keys(CODE_PAGES).join(', ')}.`,
  );
}

export function assertCodePageSupported(codePage: CodePage, commandSet: CommandSet): void {
  if (CODE_PAGES[codePage].table[commandSet] === undefined) {
    throw new PrinterError(
      'invalid_config',
      `Code page ${codePage} is not available on ${commandSet} printers.`,
    );
  }
}

/** The code page a select command's table number means, for decoding what a printer receives. */
export function codePageForTable(commandSet: CommandSet, table: number): CodePage | undefined {
  for (const [name, info] of Object.entries(CODE_PAGES) as [CodePage, CodePageInfo][]) {
    if (info.table[commandSet] === table) return name;
  }
  // Star's table 0 ("normal") is PC437 too.
  return commandSet === 'star' && table === 0 ? 'PC437' : undefined;
}

/** Readable stand-ins for symbols that no single-byte code page of ours may hold. */
const SUBSTITUTES: Readonly<Record<string, string>> = {
  '€': 'EUR',
  '£': 'GBP',
  '‘': "'",
  '’': "'",
  '‚': ',',
  '“': '"',
  '”': '"',
  '„': '"',
  '′': "'",
  '″': '"',
  '–': '-',
  '—': '-',
  '−': '-',
  '…': '...',
  '•': '*',
  '·': '.',
  '×': 'x',
  '÷': '/',
  '™': 'TM',
  '©': '(c)',
  '®': '(R)',
  '°': 'o',
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  þ: 'th',
  '\u00a0': ' ',
};

const encodableCache = new Map<CodePage, Map<string, boolean>>();

function isEncodable(char: string, codePage: CodePage): boolean {
  let cache = encodableCache.get(codePage);
  if (!cache) {
    cache = new Map();
    encodableCache.set(codePage, cache);
  }
  let known = cache.get(char);
  if (known === undefined) {
    const encoding = CODE_PAGES[codePage].iconv;
    known = iconv.decode(iconv.encode(char, encoding), encoding) === char;
    cache.set(char, known);
  }
  return known;
}

function isPrintableAscii(char: string): boolean {
  const code = char.charCodeAt(0);
  return char.length === 1 && code >= 0x20 && code < 0x7f;
}

/**
 * Makes text safe for a printer set to `codePage`: characters the code page
 * holds pass through, others become a readable ASCII stand-in (accents dropped,
 * symbols spelled out) or `?`. Control characters become spaces, so a product
 * name can never smuggle a printer command.
 */
export function toPrintable(text: string, codePage: CodePage): string {
  let out = '';
  for (const char of text) {
    if (isPrintableAscii(char)) {
      out += char;
    } else if (
      char.charCodeAt(0) < 0x20 ||
      char.charCodeAt(0) === 0x7f ||
      (char.charCodeAt(0) >= 0x80 && char.charCodeAt(0) < 0xa0)
    ) {
      out += ' ';
    } else if (isEncodable(char, codePage)) {
      out += char;
    } else {
      out += transliterate(char, codePage);
    }
  }
  return out;
}

function transliterate(char: string, codePage: CodePage): string {
  const substitute = SUBSTITUTES[char];
  if (substitute !== undefined) return substitute;
  // Strip accents: é -> e + combining mark -> e.
  const base = char.normalize('NFKD').replace(/\p{M}/gu, '');
  if (base.length > 0 && [...base].every((c) => isPrintableAscii(c) || isEncodable(c, codePage))) return base;
  return '?';
}

/** Bytes a printer set to `codePage` needs for already-printable text. */
export function encodeText(text: string, codePage: CodePage): Buffer {
  return iconv.encode(text, CODE_PAGES[codePage].iconv);
}

export function decodeText(bytes: Uint8Array, codePage: CodePage): string {
  return iconv.decode(Buffer.from(bytes), CODE_PAGES[codePage].iconv);
}
