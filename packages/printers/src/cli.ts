import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { AppError, formatEastAfricaTime } from '@tz/core';
import { RECEIPT_LABELS, type ReceiptDocument } from '@tz/core/receipt';
import { parseCodePage } from './code-pages.ts';
import { COLUMNS, parseCommandSet, parsePaperWidth, type CommandSet } from './config.ts';
import { PrinterError, type PrinterErrorReason } from './errors.ts';
import { getStatus, openTransport } from './open.ts';
import { printJob } from './print.ts';
import { renderReceipt, type RenderOptions } from './render.ts';
import { listUsbPrinters } from './usb-transport.ts';
import { startVirtualPrinter, type VirtualPrinterSwitches } from './virtual-printer.ts';
import { DEFAULT_BRIDGE_PORT, startBridge, type Bridge } from './bridge.ts';
import { printerAllowanceFrom, usbPrinterName } from './till.ts';

const USAGE = `Usage: npm run printers -- <command> [options]

Commands:
  list                         USB printers attached to this machine
  test-print <connection>      print a test receipt with the shop's details and a QR code
  status <connection>          ask the printer for its status (DLE EOT)
  virtual [--port 9100]        run a virtual network printer that shows what it receives
  bridge [--port 9101] [--origin URL]... [--token T] [--allow-ports LIST] [--allow-loopback]
                               run the local printer bridge for a till in a browser
                               (loopback only; origin default http://127.0.0.1:4000,
                               token default random, or PRINTER_BRIDGE_TOKEN); it prints
                               to printers on the shop's network on ports 9100-9109;
                               --allow-ports 9200,9300-9310 (PRINTER_ALLOWED_PORTS) and
                               --allow-loopback (PRINTER_ALLOW_LOOPBACK=true, a virtual
                               printer on this machine) allow more

Connections: tcp://HOST[:9100], usb://VID:PID (hex, e.g. usb://04b8:0202), usb (first USB printer)

Options:
  --type epson|star            command set (default epson, or PRINTER_TYPE)
  --width 58|80                paper width in mm (default 80, or PRINTER_WIDTH)
  --code-page NAME             PC437 (default), PC850, PC858 or WPC1252 (or PRINTER_CODE_PAGE)
  --shop-name, --shop-address, --shop-phone, --shop-tin   test receipt header (or SHOP_NAME, ...)
  --drawer                     also pulse the cash drawer (test-print)
  --port N, --host H           virtual printer address (default 9100 on 127.0.0.1)
  --paper-out, --cover-open, --offline, --near-end   start the virtual printer in that state

Exit codes: 0 ok, 2 offline, 3 paper out, 4 cover open, 5 timeout, 6 busy,
7 permission denied, 8 not found, 9 disconnected, 64 usage.`;

/** One exit code per failure reason, so scripts can tell them apart. */
function exitCode(reason: PrinterErrorReason): number {
  switch (reason) {
    case 'offline':
      return 2;
    case 'paper_out':
      return 3;
    case 'cover_open':
      return 4;
    case 'timeout':
      return 5;
    case 'busy':
      return 6;
    case 'permission_denied':
      return 7;
    case 'not_found':
      return 8;
    case 'disconnected':
      return 9;
    case 'invalid_config':
      return 64;
  }
}

type Options = ReturnType<typeof parseOptions>['values'];

function parseOptions(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      type: { type: 'string' },
      width: { type: 'string' },
      'code-page': { type: 'string' },
      'shop-name': { type: 'string' },
      'shop-address': { type: 'string' },
      'shop-phone': { type: 'string' },
      'shop-tin': { type: 'string' },
      drawer: { type: 'boolean' },
      port: { type: 'string' },
      host: { type: 'string' },
      origin: { type: 'string', multiple: true },
      token: { type: 'string' },
      'allow-ports': { type: 'string' },
      'allow-loopback': { type: 'boolean' },
      'paper-out': { type: 'boolean' },
      'cover-open': { type: 'boolean' },
      offline: { type: 'boolean' },
      'near-end': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function renderOptions(options: Options): RenderOptions & { commandSet: CommandSet } {
  const codePage = options['code-page'] ?? process.env.PRINTER_CODE_PAGE;
  return {
    commandSet: parseCommandSet(options.type ?? process.env.PRINTER_TYPE ?? 'epson'),
    paperWidth: parsePaperWidth(options.width ?? process.env.PRINTER_WIDTH ?? 80),
    ...(codePage ? { codePage: parseCodePage(codePage) } : {}),
    ...(options.drawer ? { openCashDrawer: true } : {}),
  };
}

export function testReceipt(options: Options, connection: string): ReceiptDocument {
  const name = options['shop-name'] ?? process.env.SHOP_NAME ?? 'Test print';
  const address = options['shop-address'] ?? process.env.SHOP_ADDRESS;
  const phone = options['shop-phone'] ?? process.env.SHOP_PHONE;
  const tin = options['shop-tin'] ?? process.env.SHOP_TIN;
  const issuedAt = formatEastAfricaTime(new Date());
  return {
    language: 'en',
    currency: 'TZS',
    store: {
      name,
      addressLines: address ? address.split('|') : [],
      ...(phone ? { phone } : {}),
      ...(tin ? { tin } : {}),
      headerLines: ['*** TEST PRINT ***'],
    },
    receiptNumber: 'TEST-0001',
    issuedAt,
    lines: [
      {
        description: 'Printer check / Ukaguzi wa printa',
        quantityText: '1',
        quantityMilli: 1000,
        unitPrice: 1_000,
        total: 1_000,
      },
      {
        description: 'Accents: é è à ü ñ ç — symbols € “”',
        quantityText: '1',
        quantityMilli: 1000,
        unitPrice: 0,
        total: 0,
      },
    ],
    subtotal: 1_000,
    taxLines: [],
    total: 1_000,
    tenders: [{ label: 'Cash', amount: 1_000 }],
    change: 0,
    qrPayload: `TEST ${name} ${issuedAt}`,
    footerLines: [`Connection: ${connection}`, 'If you can read this, printing works.'],
    labels: RECEIPT_LABELS.en,
  };
}

async function list(): Promise<number> {
  const printers = await listUsbPrinters();
  if (printers.length === 0) {
    console.log('No USB printers found. Check the cable and power; `lsusb` shows every USB device.');
    return 0;
  }
  for (const printer of printers) {
    const name = usbPrinterName(printer);
    const vid = printer.vendorId.toString(16).padStart(4, '0');
    const pid = printer.productId.toString(16).padStart(4, '0');
    console.log(
      `${printer.connection}  vendor ${vid}  product ${pid}  interface ${printer.interfaceNumber}  ${name}${printer.serialNumber ? `  serial ${printer.serialNumber}` : ''}`,
    );
  }
  return 0;
}

async function testPrint(connection: string, options: Options): Promise<number> {
  const render = renderOptions(options);
  const bytes = renderReceipt(testReceipt(options, connection), render);
  const transport = openTransport(connection);
  try {
    const result = await printJob(transport, bytes, { commandSet: render.commandSet });
    console.log(
      `Printed a test receipt on ${transport.target} (${bytes.length} bytes, acknowledged by the printer).`,
    );
    if (result.paperNearEnd) console.log('Warning: the paper roll is nearly finished.');
    return 0;
  } finally {
    await transport.close();
  }
}

async function status(connection: string): Promise<number> {
  const result = await getStatus(connection);
  const flags = [
    result.online ? 'online' : 'not ready',
    result.paperOut ? 'paper out' : result.paperNearEnd ? 'paper near end' : undefined,
    result.coverOpen ? 'cover open' : undefined,
    result.error ? 'error' : undefined,
  ].filter(Boolean);
  console.log(`${connection}: ${result.detail} (${flags.join(', ')})`);
  if (result.online) return 0;
  if (result.paperOut) return exitCode('paper_out');
  if (result.coverOpen) return exitCode('cover_open');
  return exitCode(result.problem ?? 'offline');
}

async function virtual(options: Options): Promise<number> {
  const render = renderOptions(options);
  const columns = COLUMNS[render.paperWidth ?? 80];
  const printer = await startVirtualPrinter({
    port: Number(options.port ?? 9100),
    host: options.host ?? '127.0.0.1',
    commandSet: render.commandSet,
    columns,
    paperOut: options['paper-out'] ?? false,
    coverOpen: options['cover-open'] ?? false,
    offline: options.offline ?? false,
    paperNearEnd: options['near-end'] ?? false,
    onJob: (job) => {
      const state = job.printed ? '' : ' (NOT printed: paper out or cover open)';
      console.log(
        `\n=== job ${job.number}: ${job.bytes.length} bytes${job.complete ? '' : ', connection dropped'}${state} ===`,
      );
      process.stdout.write(job.text);
      console.log(`=== end of job ${job.number} ===`);
    },
  });
  const describeSwitches = (s: Readonly<VirtualPrinterSwitches>): string =>
    `paper ${s.paperOut ? 'OUT' : s.paperNearEnd ? 'near end' : 'ok'}, cover ${s.coverOpen ? 'OPEN' : 'closed'}, ${s.offline ? 'OFFLINE (no answers)' : 'answering'}`;
  console.log(
    `Virtual ${render.commandSet} printer (${render.paperWidth ?? 80} mm, ${columns} columns) on ${printer.connection}`,
  );
  console.log(`State: ${describeSwitches(printer.switches)}`);

  const stop = async (): Promise<void> => {
    await printer.close();
    process.exit(0);
  };
  if (process.stdin.isTTY) {
    console.log('Keys: p paper out, n near end, c cover, o offline, q quit');
    process.stdin.setRawMode(true);
    process.stdin.resume();
    process.stdin.on('data', (key: Buffer) => {
      const k = key.toString();
      const s = printer.switches;
      if (k === 'p') printer.set({ paperOut: !s.paperOut });
      else if (k === 'n') printer.set({ paperNearEnd: !s.paperNearEnd });
      else if (k === 'c') printer.set({ coverOpen: !s.coverOpen });
      else if (k === 'o') printer.set({ offline: !s.offline });
      else if (k === 'q' || k === '\u0003') return void stop();
      else return;
      console.log(`State: ${describeSwitches(printer.switches)}`);
    });
  }
  return untilStopped(() => printer.close());
}

/** Stops a long-running command on Ctrl-C or a service manager's TERM. */
function untilStopped(close: () => Promise<void>): Promise<number> {
  const stop = async (): Promise<void> => {
    await close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  return new Promise<number>(() => undefined);
}

async function bridge(options: Options): Promise<number> {
  const token = options.token ?? process.env.PRINTER_BRIDGE_TOKEN;
  const port = Number(options.port ?? DEFAULT_BRIDGE_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`--port must be a port number, not "${options.port}".\n\n${USAGE}`);
    return 64;
  }
  const allowance = printerAllowanceFrom({
    ports: options['allow-ports'] ?? process.env.PRINTER_ALLOWED_PORTS,
    loopback: options['allow-loopback'] ?? process.env.PRINTER_ALLOW_LOOPBACK,
  });
  let running: Bridge;
  try {
    running = await startBridge({
      port,
      origins: options.origin ?? ['http://127.0.0.1:4000'],
      ...(token ? { token } : {}),
      tuning: { allowance },
    });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
    console.error(
      `Port ${port} is in use: a bridge may already be running there; choose another with --port.`,
    );
    return 2;
  }
  console.log(`Printer bridge on ${running.url} for pages from ${running.origins.join(', ')}`);
  console.log(`Token: ${running.token}`);
  console.log(`In the till's settings (Printer bridge), enter the address ${running.url} and this token.`);
  return untilStopped(() => running.close());
}

export async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 64;
  }
  const [command, connection] = parsed.positionals;
  const options = parsed.values;
  if (options.help || !command) {
    console.log(USAGE);
    return command || options.help ? 0 : 64;
  }
  try {
    switch (command) {
      case 'list':
        return await list();
      case 'test-print':
      case 'status':
        if (!connection) {
          console.error(`${command} needs a connection, e.g. tcp://192.168.1.50:9100 or usb.\n\n${USAGE}`);
          return 64;
        }
        return command === 'status' ? await status(connection) : await testPrint(connection, options);
      case 'virtual':
        return await virtual(options);
      case 'bridge':
        return await bridge(options);
      default:
        console.error(`Unknown command "${command}".\n\n${USAGE}`);
        return 64;
    }
  } catch (error) {
    if (error instanceof AppError) {
      console.error(`${error.message}\n\n${USAGE}`);
      return 64;
    }
    if (error instanceof PrinterError) {
      console.error(`Printer error (${error.reason}): ${error.message}`);
      if (error.mayHaveReachedPrinter)
        console.error('Part of the job may have printed: check the paper before printing again.');
      return exitCode(error.reason);
    }
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
