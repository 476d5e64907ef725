import { ROWS_DOCUMENT_KINDS } from '@tz/core/receipt';
import type { PrintDocument, ReceiptDocument, RowsDocument, ZReportRow } from '@tz/core/receipt';
import { CURRENCIES, formatAmountDigits, isCurrency } from '@tz/core/money';
import type { ThermalPrinter } from 'node-thermal-printer';
import {
  CODE_PAGES,
  DEFAULT_CODE_PAGE,
  assertCodePageSupported,
  encodeText,
  toPrintable,
  type CodePage,
} from './code-pages.ts';
import { COLUMNS, DOTS_PER_LINE, type CommandSet, type PaperWidth } from './config.ts';
import { PrinterError } from './errors.ts';
import { formatIssuedAt, leftRight, rule, wrap } from './layout.ts';
import { createThermalPrinter } from './thermal.ts';

/** How one physical printer is set up; stored per printer by the till. */
export interface PrinterProfile {
  commandSet: CommandSet;
  paperWidth: PaperWidth;
  codePage: CodePage;
}

export const DEFAULT_PROFILE: PrinterProfile = {
  commandSet: 'epson',
  paperWidth: 80,
  codePage: DEFAULT_CODE_PAGE,
};

export interface RenderOptions extends Partial<PrinterProfile> {
  /** Pulse the cash drawer after the receipt (cash sales). Default false. */
  openCashDrawer?: boolean;
  /** Cut the paper at the end. Default true. */
  cut?: boolean;
}

/** A ticket for the kitchen or the bar: what to make, for whom, no prices. */
export interface KitchenTicket {
  /** Where it prints, e.g. "Kitchen" or "Bar". */
  station: string;
  /** Order number or short reference called out at the pass. */
  orderReference: string;
  table?: string;
  server?: string;
  /** ISO 8601 with offset. */
  createdAt: string;
  items: KitchenTicketItem[];
  note?: string;
}

export interface KitchenTicketItem {
  quantityText: string;
  name: string;
  /** Modifiers and requests, e.g. "no onions". */
  notes?: string[];
}

const INIT = Buffer.from([0x1b, 0x40]);
/**
 * Cash drawer pulse on pin 2. Epson: `ESC p m t1 t2`, 50 ms on, 500 ms off
 * (node-thermal-printer's omits t1 and t2, so the printer would swallow the
 * next two bytes as timings). Star Line Mode: `ESC BEL n1 n2` sets the pulse
 * (n1, n2 in 10 ms: 110 ms on, 550 ms off), then `BEL` fires drawer 1.
 */
const DRAWER_KICK: Record<CommandSet, Buffer> = {
  epson: Buffer.from([0x1b, 0x70, 0x00, 0x19, 0xfa]),
  star: Buffer.from([0x1b, 0x07, 0x0b, 0x37, 0x07]),
};
const EPSON_CODE128 = 73;
const STAR_CODE128 = 6;

/**
 * Writes receipt parts through node-thermal-printer, keeping every string
 * inside the printer's code page and every line inside the paper width.
 */
class TicketWriter {
  readonly columns: number;
  private readonly printer: ThermalPrinter;
  private pending: string[] = [];

  constructor(readonly profile: PrinterProfile) {
    assertCodePageSupported(profile.codePage, profile.commandSet);
    this.columns = COLUMNS[profile.paperWidth];
    this.printer = createThermalPrinter({ commandSet: profile.commandSet, columns: this.columns });
    // Start from a known state whatever the previous job left behind.
    this.printer.add(INIT);
    this.printer.setCharacterSet(CODE_PAGES[profile.codePage].library);
  }

  text(value: string): string {
    return toPrintable(value, this.profile.codePage);
  }

  /**
   * Prints already laid-out, printable lines. Text is collected and encoded
   * here in the printer's code page, once per run of lines: the library's own
   * encoder copies the whole buffer for every character and may switch code
   * pages on its own.
   */
  lines(lines: readonly string[]): void {
    for (const line of lines) this.pending.push(line);
  }

  /** Sends collected text before the next command, keeping the byte order. */
  private flushed(): ThermalPrinter {
    if (this.pending.length > 0) {
      this.printer.add(encodeText(this.pending.join('\n') + '\n', this.profile.codePage));
      this.pending = [];
    }
    return this.printer;
  }

  paragraph(value: string, columns = this.columns): void {
    this.lines(wrap(this.text(value), columns));
  }

  pair(left: string, right: string): void {
    this.lines(leftRight(this.text(left), this.text(right), this.columns));
  }

  rule(): void {
    this.lines([rule(this.columns)]);
  }

  align(alignment: 'left' | 'center'): void {
    if (alignment === 'center') this.flushed().alignCenter();
    else this.flushed().alignLeft();
  }

  /**
   * Double width and height: half as many characters fit on a line. Size is
   * set before emphasis because Epson's size command (`ESC !`) also clears it.
   */
  large(value: string, options: { bold?: boolean } = {}): void {
    this.flushed().setTextQuadArea();
    if (options.bold) this.flushed().bold(true);
    this.paragraph(value, Math.floor(this.columns / 2));
    this.normal();
  }

  /** Double height, full width: for totals and kitchen items. */
  tall(lines: readonly string[], options: { bold?: boolean } = {}): void {
    this.flushed().setTextDoubleHeight();
    if (options.bold) this.flushed().bold(true);
    this.lines(lines);
    this.normal();
  }

  /** Bold at the normal size: the totals of a report. */
  strong(lines: readonly string[]): void {
    this.flushed().bold(true);
    this.lines(lines);
    this.flushed().bold(false);
  }

  private normal(): void {
    this.flushed().setTextNormal();
    this.flushed().bold(false);
  }

  qr(payload: string): void {
    // QR length fields count bytes; keep the payload ASCII so they count characters too.
    const ascii = payload.replace(/[^\x20-\x7e]/g, (char) => encodeURIComponent(char));
    const cellSize = this.profile.paperWidth === 80 ? 6 : 4;
    if (this.profile.commandSet === 'star') this.flushed().add(starQr(ascii, cellSize));
    else this.flushed().printQR(ascii, { cellSize, correction: 'M', model: 2 });
    this.flushed().newLine();
  }

  /** CODE128 of `data`, skipped when it would not fit the paper (a clipped barcode does not scan). */
  barcode(data: string): void {
    if (!/^[\x20-\x7e]+$/.test(data)) return;
    const moduleWidth = 2;
    // Start, data, checksum symbols of 11 modules each, a 13-module stop, 10-module quiet zones.
    const modules = 11 * (data.length + 2) + 13 + 20;
    if (modules * moduleWidth > DOTS_PER_LINE[this.profile.paperWidth]) return;
    if (this.profile.commandSet === 'star') {
      // Star's `ESC b`: n2 = 2 prints the digits under the bars, n3 = 1 is a 2-dot module.
      const starSettings = { characters: 2, mode: 1, height: 60 };
      this.flushed().printBarcode(data, STAR_CODE128, starSettings);
    } else {
      this.flushed().printBarcode(data, EPSON_CODE128, {
        hriPos: 2,
        hriFont: 0,
        width: moduleWidth,
        height: 60,
      });
    }
    this.flushed().newLine();
  }

  finish(options: RenderOptions): Buffer {
    this.align('left');
    if (options.cut ?? true) this.flushed().partialCut({ verticalTabAmount: 1 });
    if (options.openCashDrawer ?? false) this.flushed().add(DRAWER_KICK[this.profile.commandSet]);
    return Buffer.from(this.flushed().getBuffer());
  }
}

/**
 * Star Line Mode QR: model 2, correction M, cell size, data, print.
 * node-thermal-printer's Star QR leaves out the data command's header
 * (`ESC GS y D 1 m`), so a Star printer would print the length and URL as text.
 */
function starQr(data: string, cellSize: number): Buffer {
  const length = Buffer.byteLength(data, 'latin1');
  return Buffer.concat([
    Buffer.from([0x1b, 0x1d, 0x79, 0x53, 0x30, 0x02]),
    Buffer.from([0x1b, 0x1d, 0x79, 0x53, 0x31, 0x01]),
    Buffer.from([0x1b, 0x1d, 0x79, 0x53, 0x32, cellSize]),
    Buffer.from([0x1b, 0x1d, 0x79, 0x44, 0x31, 0x00, length % 256, Math.floor(length / 256)]),
    Buffer.from(data, 'latin1'),
    Buffer.from([0x1b, 0x1d, 0x79, 0x50]),
  ]);
}

function profileOf(options: RenderOptions): PrinterProfile {
  return {
    commandSet: options.commandSet ?? DEFAULT_PROFILE.commandSet,
    paperWidth: options.paperWidth ?? DEFAULT_PROFILE.paperWidth,
    codePage: options.codePage ?? DEFAULT_PROFILE.codePage,
  };
}

function minorUnitsOf(currency: string): number {
  if (!isCurrency(currency)) {
    throw new PrinterError('invalid_config', `Cannot print amounts in unknown currency "${currency}".`);
  }
  return CURRENCIES[currency].minorUnits;
}

/** Renders a receipt to the ESC/POS bytes of one print job. */
export function renderReceipt(receipt: ReceiptDocument, options: RenderOptions = {}): Buffer {
  const out = new TicketWriter(profileOf(options));
  const minorUnits = minorUnitsOf(receipt.currency);
  const money = (amount: number): string => formatAmountDigits(amount, minorUnits);
  const { labels, store } = receipt;
  // A refund's or a void's slip: what goes back, with no subtotal or change to show.
  const slip = receipt.kind !== undefined;

  out.align('center');
  if (receipt.copyMark) out.large(`*** ${receipt.copyMark} ***`, { bold: true });
  out.large(store.name, { bold: true });
  for (const line of store.addressLines) out.paragraph(line);
  if (store.phone) out.paragraph(store.phone);
  if (store.tin) out.paragraph(`${labels.tin}: ${store.tin}`);
  if (store.vrn) out.paragraph(`${labels.vrn}: ${store.vrn}`);
  for (const line of store.headerLines) out.paragraph(line);
  if (receipt.title) out.large(receipt.title, { bold: true });

  out.align('left');
  out.rule();
  out.pair(`${labels.receipt}:`, receipt.receiptNumber);
  out.pair(`${labels.date}:`, formatIssuedAt(receipt.issuedAt));
  if (receipt.cashier) out.pair(`${labels.cashier}:`, receipt.cashier);
  if (receipt.approvedBy) out.pair(`${receipt.approvedBy.label}:`, receipt.approvedBy.name);
  if (receipt.till) out.pair(`${labels.till}:`, receipt.till);
  if (receipt.customer) out.pair(`${labels.customer}:`, receipt.customer);
  out.rule();

  // Amount column: the tax code follows each line total, so totals line up whether or not a line is taxed.
  const codeWidth = Math.max(0, ...receipt.lines.map((line) => line.taxCode?.length ?? 0));
  const withCode = (amount: string, code?: string): string =>
    codeWidth === 0 ? amount : `${amount} ${(code ?? '').padEnd(codeWidth)}`;
  for (const line of receipt.lines) {
    out.paragraph(line.description);
    out.pair(`  ${line.quantityText} x ${money(line.unitPrice)}`, withCode(money(line.total), line.taxCode));
    if (line.discount) out.pair(`  ${line.discount.label}`, withCode(money(-line.discount.amount)));
  }
  if (receipt.lines.length > 0) out.rule();

  if (!slip) out.pair(labels.subtotal, withCode(money(receipt.subtotal)));
  if (receipt.orderDiscount) {
    out.pair(receipt.orderDiscount.label || labels.discount, withCode(money(-receipt.orderDiscount.amount)));
  }
  for (const tax of receipt.taxLines) {
    out.pair(`${tax.label} (${tax.code}) ${money(tax.net)}`, withCode(money(tax.tax)));
  }
  out.tall(
    leftRight(
      out.text(`${labels.total} ${receipt.currency}`),
      out.text(withCode(money(receipt.total))),
      out.columns,
    ),
    {
      bold: true,
    },
  );
  for (const tender of receipt.tenders) {
    out.pair(tender.label, withCode(money(tender.amount)));
    if (tender.reference) out.paragraph(`  ${tender.reference}`);
  }
  if (!slip) out.pair(labels.change, withCode(money(receipt.change)));
  out.rule();

  // A box office's tickets: each its own block with the QR the door scans.
  for (const ticket of receipt.tickets ?? []) {
    out.align('center');
    out.large(ticket.title, { bold: true });
    for (const line of ticket.lines) out.paragraph(line);
    out.qr(ticket.code);
    out.align('left');
    out.rule();
  }

  out.align('center');
  if (receipt.qrPayload) out.qr(receipt.qrPayload);
  out.barcode(receipt.receiptNumber);
  for (const line of receipt.footerLines) out.paragraph(line);
  return out.finish(options);
}

/**
 * Renders a document by rows (a shift's Z report, a guest's registration card)
 * in the receipt's layout: the title large, the shop, then label and value rows
 * with amounts right-aligned and grouped.
 */
export function renderRows(report: RowsDocument, options: RenderOptions = {}): Buffer {
  const out = new TicketWriter(profileOf(options));
  const minorUnits = minorUnitsOf(report.currency);
  const value = (row: ZReportRow): string => {
    if ('amount' in row.value) return formatAmountDigits(row.value.amount, minorUnits);
    if ('time' in row.value) return formatIssuedAt(row.value.time);
    return row.value.text;
  };
  const print = (row: ZReportRow, suffix = ''): void => {
    const lines = leftRight(
      out.text(`${row.indent ? '  ' : ''}${row.label}${suffix}`),
      out.text(value(row)),
      out.columns,
    );
    if (row.strong) out.strong(lines);
    else out.lines(lines);
  };

  out.align('center');
  out.large(report.title, { bold: true });
  out.paragraph(report.store.name);
  for (const line of report.store.addressLines) out.paragraph(line);
  out.align('left');
  out.rule();
  for (const row of report.details) print(row, ':');
  for (const section of report.sections) {
    out.rule();
    if (section.heading) out.strong(wrap(out.text(section.heading), out.columns));
    for (const row of section.rows) print(row);
  }
  out.rule();
  return out.finish(options);
}

const isRowsDocument = (document: PrintDocument): document is RowsDocument =>
  (ROWS_DOCUMENT_KINDS as readonly unknown[]).includes(document.kind);

/** Renders whatever a till sends its receipt printer. */
export function renderPrintDocument(document: PrintDocument, options: RenderOptions = {}): Buffer {
  return isRowsDocument(document) ? renderRows(document, options) : renderReceipt(document, options);
}

/** Renders a kitchen or bar ticket: large item lines, no prices. */
export function renderKitchenTicket(ticket: KitchenTicket, options: RenderOptions = {}): Buffer {
  const out = new TicketWriter(profileOf(options));
  out.align('center');
  out.large(ticket.station.toUpperCase(), { bold: true });
  out.large(ticket.orderReference, { bold: true });
  out.align('left');
  if (ticket.table) out.pair('Table', ticket.table);
  if (ticket.server) out.pair('Server', ticket.server);
  out.pair('Time', formatIssuedAt(ticket.createdAt));
  out.rule();
  for (const item of ticket.items) {
    out.tall(wrap(out.text(`${item.quantityText} x ${item.name}`), out.columns), { bold: true });
    for (const note of item.notes ?? []) out.lines(wrap(out.text(`   - ${note}`), out.columns));
  }
  if (ticket.note) {
    out.rule();
    out.paragraph(ticket.note);
  }
  return out.finish(options);
}

/** Renders plain text (the `/print` route): wrapped to the paper, then cut. */
export function renderText(text: string, options: RenderOptions = {}): Buffer {
  const out = new TicketWriter(profileOf(options));
  out.paragraph(text);
  return out.finish(options);
}

/** A job that only opens the cash drawer: nothing is printed or cut. */
export function renderDrawerKick(options: { commandSet?: CommandSet } = {}): Buffer {
  return Buffer.concat([INIT, DRAWER_KICK[options.commandSet ?? DEFAULT_PROFILE.commandSet]]);
}
