import { codePageForTable, decodeText, type CodePage } from './code-pages.ts';
import type { CommandSet } from './config.ts';

/**
 * Decodes the ESC/POS (Epson) or Star Line Mode bytes a printer receives into
 * readable items: styled text lines, QR codes, barcodes, cuts, drawer kicks.
 * It reads a stream: commands split across chunks wait for their remaining
 * bytes. Unknown commands are kept as `unknown` items, never skipped silently.
 */

export type Alignment = 'left' | 'center' | 'right';

export interface TextStyle {
  bold: boolean;
  underline: boolean;
  invert: boolean;
  /** Character width and height multipliers (1 = normal). */
  width: number;
  height: number;
}

export interface TextSegment extends TextStyle {
  text: string;
}

export type DecodedItem =
  | { kind: 'line'; align: Alignment; segments: TextSegment[] }
  | { kind: 'qr'; data: string; cellSize: number | undefined }
  | { kind: 'barcode'; symbology: string; data: string }
  | { kind: 'cut'; partial: boolean }
  | { kind: 'drawer'; pin: number; onMs: number | undefined }
  | { kind: 'feed'; lines: number }
  | { kind: 'code_page'; codePage: string }
  | { kind: 'image'; bytes: number }
  | { kind: 'unknown'; bytes: string };

/**
 * Queries a printer answers: `realtime` (`DLE EOT n`) on arrival, `in_sequence`
 * (`GS r n`) only once everything before it has printed.
 */
export type StatusQuery = { kind: 'realtime'; n: number } | { kind: 'in_sequence'; n: number };

const NORMAL: TextStyle = { bold: false, underline: false, invert: false, width: 1, height: 1 };

/** A command parsed at the read position: its length, or 0 when more bytes are needed. */
type Step = number;

const ESC = 0x1b;
const GS = 0x1d;
const DLE = 0x10;

const EPSON_SYMBOLOGIES: Readonly<Record<number, string>> = {
  0: 'UPC-A',
  1: 'UPC-E',
  2: 'EAN13',
  3: 'EAN8',
  4: 'CODE39',
  5: 'ITF',
  6: 'CODABAR',
  72: 'CODE93',
  73: 'CODE128',
};
const STAR_SYMBOLOGIES: Readonly<Record<number, string>> = {
  0: 'UPC-E',
  1: 'UPC-A',
  2: 'EAN8',
  3: 'EAN13',
  4: 'CODE39',
  5: 'ITF',
  6: 'CODE128',
  7: 'CODE93',
  8: 'CODABAR',
};

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(' ');
}

function ascii(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('latin1');
}

export class EscPosDecoder {
  readonly items: DecodedItem[] = [];
  private pending: Buffer = Buffer.alloc(0);
  private style: TextStyle = { ...NORMAL };
  private align: Alignment = 'left';
  private codePage: CodePage = 'PC437';
  private segments: TextSegment[] = [];
  private textBytes: number[] = [];
  private qrData = '';
  private qrCellSize: number | undefined;
  private queries: StatusQuery[] = [];

  constructor(readonly commandSet: CommandSet) {}

  /** Reads a chunk; returns the status queries it contained, in order. */
  push(chunk: Uint8Array): StatusQuery[] {
    this.pending = this.pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.pending, chunk]);
    let at = 0;
    while (at < this.pending.length) {
      const used =
        this.commandSet === 'star' ? this.stepStar(this.pending, at) : this.stepEpson(this.pending, at);
      if (used === 0) break;
      at += used;
    }
    this.pending = this.pending.subarray(at);
    const queries = this.queries;
    this.queries = [];
    return queries;
  }

  /** Ends the stream: prints a last unterminated line and reports leftover bytes. */
  finish(): DecodedItem[] {
    this.endLine(false);
    if (this.pending.length > 0) {
      this.items.push({ kind: 'unknown', bytes: `incomplete ${hex(this.pending)}` });
      this.pending = Buffer.alloc(0);
    }
    return this.items;
  }

  /** Whether anything printable (not just status queries) has arrived. */
  get hasOutput(): boolean {
    return this.items.length > 0 || this.textBytes.length > 0 || this.segments.length > 0;
  }

  // ---- shared state changes ----

  private flushText(): void {
    if (this.textBytes.length === 0) return;
    const text = decodeText(Uint8Array.from(this.textBytes), this.codePage);
    this.textBytes = [];
    const last = this.segments.at(-1);
    if (last && sameStyle(last, this.style)) last.text += text;
    else this.segments.push({ ...this.style, text });
  }

  private setStyle(change: Partial<TextStyle>): void {
    this.flushText();
    this.style = { ...this.style, ...change };
  }

  private endLine(emptyToo: boolean): void {
    this.flushText();
    if (this.segments.length > 0 || emptyToo) {
      this.items.push({ kind: 'line', align: this.align, segments: this.segments });
    }
    this.segments = [];
  }

  private emit(item: DecodedItem): void {
    this.endLine(false);
    this.items.push(item);
  }

  private reset(): void {
    this.flushText();
    this.style = { ...NORMAL };
    this.align = 'left';
    this.codePage = 'PC437';
  }

  private selectCodePage(table: number): void {
    this.flushText();
    const codePage = codePageForTable(this.commandSet, table);
    if (codePage) {
      this.codePage = codePage;
      this.emit({ kind: 'code_page', codePage });
    } else {
      this.emit({ kind: 'code_page', codePage: `unsupported table ${table}` });
    }
  }

  private text(byte: number): void {
    this.textBytes.push(byte);
  }

  private unknown(bytes: Uint8Array): void {
    this.emit({ kind: 'unknown', bytes: hex(bytes) });
  }

  /** Length of a command ending with `terminator` at or after `from`, or 0 if it has not arrived. */
  private static untilByte(buf: Buffer, start: number, from: number, terminator: number): Step {
    const end = buf.indexOf(terminator, from);
    return end < 0 ? 0 : end - start + 1;
  }

  // ---- Epson ESC/POS ----

  private stepEpson(buf: Buffer, at: number): Step {
    const b = buf[at]!;
    const need = (n: number): boolean => at + n <= buf.length;
    const arg = (k: number): number => buf[at + k]!;
    if (b >= 0x20) {
      this.text(b);
      return 1;
    }
    switch (b) {
      case 0x0a:
        this.endLine(true);
        return 1;
      case 0x0c:
        this.endLine(false);
        return 1;
      case 0x09:
        this.text(0x20);
        return 1;
      case DLE:
        return this.stepDle(buf, at);
      case ESC:
        if (!need(2)) return 0;
        return this.stepEpsonEsc(buf, at, need, arg);
      case GS:
        if (!need(2)) return 0;
        return this.stepEpsonGs(buf, at, need, arg);
      default:
        // NUL, CR and other controls print nothing.
        return 1;
    }
  }

  private stepDle(buf: Buffer, at: number): Step {
    if (at + 2 > buf.length) return 0;
    const command = buf[at + 1]!;
    if (command === 0x04) {
      if (at + 3 > buf.length) return 0;
      this.queries.push({ kind: 'realtime', n: buf[at + 2]! });
      return 3;
    }
    if (command === 0x14) {
      if (at + 5 > buf.length) return 0;
      if (buf[at + 2] === 1)
        this.emit({ kind: 'drawer', pin: buf[at + 3] === 1 ? 5 : 2, onMs: buf[at + 4]! * 100 });
      else this.unknown(buf.subarray(at, at + 5));
      return 5;
    }
    this.unknown(buf.subarray(at, at + 2));
    return 2;
  }

  private stepEpsonEsc(
    buf: Buffer,
    at: number,
    need: (n: number) => boolean,
    arg: (k: number) => number,
  ): Step {
    const c = arg(1);
    const withArg = (apply: (n: number) => void): Step => {
      if (!need(3)) return 0;
      apply(arg(2));
      return 3;
    };
    switch (c) {
      case 0x40: // ESC @
        this.reset();
        return 2;
      case 0x21: // ESC ! n: print mode
        return withArg((n) =>
          this.setStyle({
            bold: (n & 0x08) !== 0,
            height: n & 0x10 ? 2 : 1,
            width: n & 0x20 ? 2 : 1,
            underline: (n & 0x80) !== 0,
          }),
        );
      case 0x45: // ESC E n
      case 0x47: // ESC G n (double strike prints as bold)
        return withArg((n) => this.setStyle({ bold: (n & 1) === 1 }));
      case 0x2d: // ESC - n
        return withArg((n) => this.setStyle({ underline: n % 48 !== 0 }));
      case 0x61: // ESC a n
        return withArg((n) => {
          this.flushText();
          this.align = (['left', 'center', 'right'] as const)[n % 48] ?? 'left';
        });
      case 0x74: // ESC t n
        return withArg((n) => this.selectCodePage(n));
      case 0x64: // ESC d n: print and feed n lines
        return withArg((n) => {
          this.endLine(false);
          if (n > 0) this.items.push({ kind: 'feed', lines: n });
        });
      case 0x70: // ESC p m t1 t2: drawer pulse
        if (!need(5)) return 0;
        this.emit({ kind: 'drawer', pin: arg(2) % 48 === 1 ? 5 : 2, onMs: arg(3) * 2 });
        return 5;
      case 0x4a: // ESC J n: feed dots
      case 0x33: // ESC 3 n: line spacing
      case 0x4d: // ESC M n: font
      case 0x7b: // ESC { n: upside down
      case 0x52: // ESC R n: international set
      case 0x20: // ESC SP n: character spacing
      case 0x56: // ESC V n: rotation
      case 0x55: // ESC U n: unidirectional
        return withArg(() => undefined);
      case 0x32: // ESC 2
        return 2;
      case 0x42: // ESC B n t: buzzer
        return need(4) ? 4 : 0;
      case 0x44: // ESC D tabs NUL
        return EscPosDecoder.untilByte(buf, at, at + 2, 0x00);
      default:
        this.unknown(buf.subarray(at, at + 2));
        return 2;
    }
  }

  private stepEpsonGs(
    buf: Buffer,
    at: number,
    need: (n: number) => boolean,
    arg: (k: number) => number,
  ): Step {
    const c = arg(1);
    switch (c) {
      case 0x21: // GS ! n: character size
        if (!need(3)) return 0;
        this.setStyle({ width: (arg(2) >> 4) + 1, height: (arg(2) & 0x0f) + 1 });
        return 3;
      case 0x42: // GS B n: reverse
        if (!need(3)) return 0;
        this.setStyle({ invert: (arg(2) & 1) === 1 });
        return 3;
      case 0x56: {
        // GS V m [n]: cut
        if (!need(3)) return 0;
        const m = arg(2);
        const length = m >= 65 ? 4 : 3;
        if (!need(length)) return 0;
        this.emit({ kind: 'cut', partial: m % 2 === 1 });
        return length;
      }
      case 0x48: // GS H, GS f, GS w, GS h: barcode settings
      case 0x66:
      case 0x77:
      case 0x68:
      case 0x61: // GS a n: automatic status back
      case 0x62: // GS b n: smoothing
      case 0x49: // GS I n: printer id
        return need(3) ? 3 : 0;
      case 0x72: // GS r n: status, answered in sequence
        if (!need(3)) return 0;
        this.queries.push({ kind: 'in_sequence', n: arg(2) });
        return 3;
      case 0x6b: {
        // GS k m: barcode
        if (!need(3)) return 0;
        const m = arg(2);
        const symbology = EPSON_SYMBOLOGIES[m >= 65 ? (m === 72 || m === 73 ? m : m - 65) : m] ?? `type ${m}`;
        if (m < 65) {
          const length = EscPosDecoder.untilByte(buf, at, at + 3, 0x00);
          if (length === 0) return 0;
          this.emit({ kind: 'barcode', symbology, data: ascii(buf.subarray(at + 3, at + length - 1)) });
          return length;
        }
        if (!need(4)) return 0;
        const length = 4 + arg(3);
        if (!need(length)) return 0;
        let data = ascii(buf.subarray(at + 4, at + length));
        // CODE128 data starts with its code set, e.g. "{B".
        if (m === 73) data = data.replace(/^\{[ABC]/, '');
        this.emit({ kind: 'barcode', symbology, data });
        return length;
      }
      case 0x28: {
        // GS ( fn pL pH ...: functions with a length prefix
        if (!need(5)) return 0;
        const length = 5 + arg(3) + arg(4) * 256;
        if (!need(length)) return 0;
        if (arg(2) === 0x6b) this.symbolFunction(buf.subarray(at + 5, at + length));
        else this.unknown(buf.subarray(at, at + 3));
        return length;
      }
      case 0x76: {
        // GS v 0 m xL xH yL yH data: raster image
        if (!need(8)) return 0;
        const length = 8 + (arg(4) + arg(5) * 256) * (arg(6) + arg(7) * 256);
        if (!need(length)) return 0;
        this.emit({ kind: 'image', bytes: length - 8 });
        return length;
      }
      default:
        this.unknown(buf.subarray(at, at + 2));
        return 2;
    }
  }

  /** `GS ( k` body: cn fn parameters. Only QR (cn 49) is decoded in full. */
  private symbolFunction(body: Buffer): void {
    const [cn, fn] = [body[0], body[1]];
    if (cn !== 0x31) {
      if (fn === 0x51)
        this.emit({ kind: 'barcode', symbology: cn === 0x30 ? 'PDF417' : `2D type ${cn}`, data: '' });
      return;
    }
    if (fn === 0x43) this.qrCellSize = body[2];
    else if (fn === 0x50) this.qrData = ascii(body.subarray(3));
    else if (fn === 0x51) this.emit({ kind: 'qr', data: this.qrData, cellSize: this.qrCellSize });
  }

  // ---- Star Line Mode ----

  private stepStar(buf: Buffer, at: number): Step {
    const b = buf[at]!;
    const need = (n: number): boolean => at + n <= buf.length;
    const arg = (k: number): number => buf[at + k]!;
    if (b >= 0x20) {
      this.text(b);
      return 1;
    }
    switch (b) {
      case 0x0a:
        this.endLine(true);
        return 1;
      case 0x0b: // VT: feed to the next tab position, one line without tabs
        this.endLine(false);
        this.items.push({ kind: 'feed', lines: 1 });
        return 1;
      case 0x09:
        this.text(0x20);
        return 1;
      case 0x07: // BEL: drawer 1
      case 0x1c: // FS: drawer 1
        this.emit({ kind: 'drawer', pin: 2, onMs: undefined });
        return 1;
      case 0x1a: // SUB: drawer 2
        this.emit({ kind: 'drawer', pin: 5, onMs: undefined });
        return 1;
      case DLE:
        return this.stepDle(buf, at);
      case ESC:
        if (!need(2)) return 0;
        return this.stepStarEsc(buf, at, need, arg);
      default:
        return 1;
    }
  }

  private stepStarEsc(
    buf: Buffer,
    at: number,
    need: (n: number) => boolean,
    arg: (k: number) => number,
  ): Step {
    const c = arg(1);
    switch (c) {
      case 0x40:
        this.reset();
        return 2;
      case 0x45: // ESC E / ESC F: emphasis on / off
        this.setStyle({ bold: true });
        return 2;
      case 0x46:
        this.setStyle({ bold: false });
        return 2;
      case 0x34: // ESC 4 / ESC 5: highlight on / off
        this.setStyle({ invert: true });
        return 2;
      case 0x35:
        this.setStyle({ invert: false });
        return 2;
      case 0x2d: // ESC - n
        if (!need(3)) return 0;
        this.setStyle({ underline: arg(2) % 48 !== 0 });
        return 3;
      case 0x69: // ESC i n1 n2: height and width expansion
        if (!need(4)) return 0;
        this.setStyle({ height: arg(2) + 1, width: arg(3) + 1 });
        return 4;
      case 0x64: // ESC d n: cut (0/1 at once, 2/3 after feeding to the cutter)
        if (!need(3)) return 0;
        this.emit({ kind: 'cut', partial: arg(2) % 2 === 1 });
        return 3;
      case 0x61: // ESC a n: feed n lines
        if (!need(3)) return 0;
        this.endLine(false);
        this.items.push({ kind: 'feed', lines: arg(2) });
        return 3;
      case 0x07: // ESC BEL n1 n2: drawer pulse width
        return need(4) ? 4 : 0;
      case 0x7a: // ESC z n, ESC J n, ESC W n, ESC h n, ESC R n, ESC _ n
      case 0x4a:
      case 0x57:
      case 0x68:
      case 0x52:
      case 0x5f:
        return need(3) ? 3 : 0;
      case 0x30: // ESC 0: line spacing
        return 2;
      case 0x62: {
        // ESC b n1 n2 n3 n4 data RS: barcode
        if (!need(6)) return 0;
        const length = EscPosDecoder.untilByte(buf, at, at + 6, 0x1e);
        if (length === 0) return 0;
        const symbology = STAR_SYMBOLOGIES[arg(2) % 48] ?? `type ${arg(2)}`;
        this.emit({ kind: 'barcode', symbology, data: ascii(buf.subarray(at + 6, at + length - 1)) });
        return length;
      }
      case 0x6b: {
        // ESC k n1 n2 data: one band of a bit image
        if (!need(4)) return 0;
        const length = 4 + arg(2) * 24;
        if (!need(length)) return 0;
        this.emit({ kind: 'image', bytes: length - 4 });
        return length;
      }
      case 0x1e: // ESC RS F n (font) and other ESC RS x n
        return need(4) ? 4 : 0;
      case 0x1d:
        if (!need(3)) return 0;
        return this.stepStarEscGs(buf, at, need, arg);
      default:
        this.unknown(buf.subarray(at, at + 2));
        return 2;
    }
  }

  private stepStarEscGs(
    buf: Buffer,
    at: number,
    need: (n: number) => boolean,
    arg: (k: number) => number,
  ): Step {
    const c = arg(2);
    if (c === 0x61 || c === 0x74) {
      // ESC GS a n: alignment; ESC GS t n: code page
      if (!need(4)) return 0;
      if (c === 0x61) {
        this.flushText();
        this.align = (['left', 'center', 'right'] as const)[arg(3) % 48] ?? 'left';
      } else {
        this.selectCodePage(arg(3));
      }
      return 4;
    }
    if (c === 0x79 || c === 0x78) {
      // ESC GS y (QR) / ESC GS x (PDF417)
      if (!need(4)) return 0;
      const sub = arg(3);
      if (sub === 0x53) {
        if (!need(6)) return 0;
        if (c === 0x79 && arg(4) === 0x32) this.qrCellSize = arg(5);
        // PDF417 size setting (fn 0) carries two extra bytes.
        const length = c === 0x78 && arg(4) === 0x30 ? 8 : 6;
        return need(length) ? length : 0;
      }
      if (sub === 0x44) {
        // QR: ESC GS y D 1 m nL nH data; PDF417: ESC GS x D nL nH data
        const header = c === 0x79 ? 8 : 6;
        if (!need(header)) return 0;
        const length = header + arg(header - 2) + arg(header - 1) * 256;
        if (!need(length)) return 0;
        if (c === 0x79) this.qrData = ascii(buf.subarray(at + header, at + length));
        return length;
      }
      if (sub === 0x50) {
        this.emit(
          c === 0x79
            ? { kind: 'qr', data: this.qrData, cellSize: this.qrCellSize }
            : { kind: 'barcode', symbology: 'PDF417', data: '' },
        );
        return 4;
      }
      this.unknown(buf.subarray(at, at + 4));
      return 4;
    }
    this.unknown(buf.subarray(at, at + 3));
    return 3;
  }
}

function sameStyle(a: TextStyle, b: TextStyle): boolean {
  return (
    a.bold === b.bold &&
    a.underline === b.underline &&
    a.invert === b.invert &&
    a.width === b.width &&
    a.height === b.height
  );
}

/** Decodes a whole job at once. */
export function decodeJob(bytes: Uint8Array, commandSet: CommandSet): DecodedItem[] {
  const decoder = new EscPosDecoder(commandSet);
  decoder.push(bytes);
  return decoder.finish();
}

/**
 * Shows decoded items as paper would: each line aligned in `columns`, double
 * width letters spaced out, with the line's styles in brackets at the right,
 * and non-text items as bracketed notes.
 */
export function formatItems(items: readonly DecodedItem[], columns: number): string {
  const out: string[] = [];
  for (const item of items) {
    switch (item.kind) {
      case 'line': {
        const text = item.segments
          .map((s) => (s.width > 1 ? [...s.text].map((ch) => ch + ' '.repeat(s.width - 1)).join('') : s.text))
          .join('');
        const visible = text.trimEnd();
        const pad =
          item.align === 'center'
            ? Math.max(0, Math.floor((columns - visible.length) / 2))
            : item.align === 'right'
              ? Math.max(0, columns - visible.length)
              : 0;
        const styles = styleNotes(item.segments);
        const line = `|${(' '.repeat(pad) + visible).padEnd(columns)}|`;
        out.push(styles ? `${line} ${styles}` : line);
        break;
      }
      case 'qr':
        out.push(`[QR${item.cellSize === undefined ? '' : ` cell ${item.cellSize}`}: ${item.data}]`);
        break;
      case 'barcode':
        out.push(`[BARCODE ${item.symbology}: ${item.data}]`);
        break;
      case 'cut':
        out.push(item.partial ? '[CUT partial]' : '[CUT full]');
        break;
      case 'drawer':
        out.push(`[DRAWER pin ${item.pin}${item.onMs === undefined ? '' : `, ${item.onMs} ms`}]`);
        break;
      case 'feed':
        out.push(`[FEED ${item.lines}]`);
        break;
      case 'code_page':
        out.push(`[CODE PAGE ${item.codePage}]`);
        break;
      case 'image':
        out.push(`[IMAGE ${item.bytes} bytes]`);
        break;
      case 'unknown':
        out.push(`[UNKNOWN ${item.bytes}]`);
        break;
    }
  }
  return out.join('\n') + '\n';
}

function styleNotes(segments: readonly TextSegment[]): string {
  const notes = new Set<string>();
  for (const s of segments) {
    if (s.text.trim() === '') continue;
    if (s.bold) notes.add('bold');
    if (s.underline) notes.add('underline');
    if (s.invert) notes.add('invert');
    if (s.width > 1 || s.height > 1) notes.add(`${s.width}x${s.height}`);
  }
  return notes.size > 0 ? `[${[...notes].join(' ')}]` : '';
}
