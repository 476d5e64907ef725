import { PrinterError, type PrinterErrorReason } from './errors.ts';
import { DEFAULT_TIMEOUTS, type PrinterTransport, type TransportTimeouts } from './transport.ts';

/** USB interface class of printers. */
export const PRINTER_CLASS = 7;

/** Path of the udev rule shipped with this package, relative to the repository root. */
export const UDEV_RULE_PATH = 'packages/printers/udev/99-escpos-printers.rules';

const UDEV_HINT =
  `On Linux, install the udev rule shipped in the repository and replug the printer:\n` +
  `  sudo cp ${UDEV_RULE_PATH} /etc/udev/rules.d/ && sudo udevadm control --reload-rules && sudo udevadm trigger\n` +
  `and make sure your user is in the "lp" group (sudo usermod -aG lp $USER, then log in again).`;

/**
 * The parts of a `usb` (v3, WebUSB-style) device the transport uses. The real
 * device satisfies it; tests give a fake with the same shape.
 */
export interface UsbPrinterDevice {
  readonly vendorId: number;
  readonly productId: number;
  readonly manufacturerName?: string | null | undefined;
  readonly productName?: string | null | undefined;
  readonly serialNumber?: string | null | undefined;
  readonly configuration?: UsbConfigurationShape | null | undefined;
  readonly opened: boolean;
  open(): Promise<void>;
  close(): Promise<void>;
  claimInterface(interfaceNumber: number): Promise<void>;
  releaseInterface(interfaceNumber: number): Promise<void>;
  /** Linux only: unbinds the kernel driver (usblp) from the interface. */
  detachKernelDriver(interfaceNumber: number): Promise<void>;
  transferOut(
    endpointNumber: number,
    data: Uint8Array,
    timeout?: number,
  ): Promise<{ bytesWritten: number; status: string }>;
  transferIn(
    endpointNumber: number,
    length: number,
    timeout?: number,
  ): Promise<{ data?: DataView | undefined; status: string }>;
}

export interface UsbConfigurationShape {
  readonly interfaces: readonly {
    readonly interfaceNumber: number;
    readonly alternate: {
      readonly interfaceClass: number;
      readonly endpoints: readonly {
        readonly endpointNumber: number;
        readonly direction: string;
        readonly type: string;
      }[];
    };
  }[];
}

/** Where devices come from: the `usb` package, or a fake in tests. */
export interface UsbBus {
  getDevices(): Promise<UsbPrinterDevice[]>;
}

export interface UsbPrinterInfo {
  vendorId: number;
  productId: number;
  manufacturer: string | undefined;
  product: string | undefined;
  serialNumber: string | undefined;
  interfaceNumber: number;
  /** `usb://VID:PID` */
  connection: string;
}

/** The system's USB bus, loaded on first use so rendering never needs the native module. */
export async function systemUsbBus(): Promise<UsbBus> {
  try {
    const { usb } = await import('usb');
    // The device class implements every member of UsbPrinterDevice; its typings lean on WebUSB globals we do not load.
    return { getDevices: async () => (await usb.getDevices()) as unknown as UsbPrinterDevice[] };
  } catch (error) {
    throw new PrinterError('not_found', `USB access is not available on this machine: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

interface PrinterInterface {
  interfaceNumber: number;
  outEndpoint: number;
  inEndpoint: number | undefined;
}

/** The printer interface of a device: class 7, or the first with a bulk OUT endpoint when ids were given. */
function printerInterface(device: UsbPrinterDevice, byIds: boolean): PrinterInterface | undefined {
  const interfaces = device.configuration?.interfaces ?? [];
  const ordered = [
    ...interfaces.filter((i) => i.alternate.interfaceClass === PRINTER_CLASS),
    ...(byIds ? interfaces.filter((i) => i.alternate.interfaceClass !== PRINTER_CLASS) : []),
  ];
  for (const candidate of ordered) {
    const bulk = candidate.alternate.endpoints.filter((e) => e.type === 'bulk');
    const out = bulk.find((e) => e.direction === 'out');
    if (out) {
      return {
        interfaceNumber: candidate.interfaceNumber,
        outEndpoint: out.endpointNumber,
        inEndpoint: bulk.find((e) => e.direction === 'in')?.endpointNumber,
      };
    }
  }
  return undefined;
}

function hex4(value: number): string {
  return value.toString(16).padStart(4, '0');
}

function describe(device: UsbPrinterDevice): string {
  const name = [device.manufacturerName, device.productName].filter(Boolean).join(' ');
  return `${name ? `${name} ` : ''}(usb://${hex4(device.vendorId)}:${hex4(device.productId)})`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads what went wrong from a `usb` error ("claimInterface error: interface is busy (errno 16)" and the like). */
export function classifyUsbError(
  error: unknown,
): 'permission' | 'busy' | 'gone' | 'timeout' | 'stall' | 'no_driver' | 'other' {
  const text = messageOf(error).toLowerCase();
  if (/no kernel driver|not attached/.test(text)) return 'no_driver';
  if (/permission|access denied|errno 13|eacces|eperm/.test(text)) return 'permission';
  if (/busy|errno 16|ebusy/.test(text)) return 'busy';
  if (/disconnected|no such device|not found|errno 19|enodev/.test(text)) return 'gone';
  if (/timed? ?out|cancel/.test(text)) return 'timeout';
  if (/stall|pipe/.test(text)) return 'stall';
  return 'other';
}

/** Lists attached USB printers (interface class 7). */
export async function listUsbPrinters(bus?: UsbBus): Promise<UsbPrinterInfo[]> {
  const devices = await (bus ?? (await systemUsbBus())).getDevices().catch((error: unknown) => {
    throw new PrinterError('not_found', `Cannot list USB devices: ${messageOf(error)}`, { cause: error });
  });
  const printers: UsbPrinterInfo[] = [];
  for (const device of devices) {
    const found = printerInterface(device, false);
    if (!found) continue;
    printers.push({
      vendorId: device.vendorId,
      productId: device.productId,
      manufacturer: device.manufacturerName ?? undefined,
      product: device.productName ?? undefined,
      serialNumber: device.serialNumber ?? undefined,
      interfaceNumber: found.interfaceNumber,
      connection: `usb://${hex4(device.vendorId)}:${hex4(device.productId)}`,
    });
  }
  return printers;
}

export interface UsbTransportOptions {
  vendorId?: number;
  productId?: number;
  bus?: UsbBus;
  timeouts?: TransportTimeouts;
  /** Defaults to the running platform; the kernel driver is only detached on Linux. */
  platform?: NodeJS.Platform;
}

interface Session {
  device: UsbPrinterDevice;
  printer: PrinterInterface;
}

/**
 * USB printing: finds the printer, takes it from the kernel's usblp driver
 * when that holds it (Linux), claims the interface, writes to the bulk OUT
 * endpoint and reads answers from the bulk IN endpoint. The device is opened
 * on first use and again after it was unplugged.
 */
export class UsbTransport implements PrinterTransport {
  readonly target: string;
  private session: Session | undefined;
  private readonly timeouts: TransportTimeouts;

  constructor(private readonly options: UsbTransportOptions = {}) {
    this.timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
    this.target =
      options.vendorId !== undefined && options.productId !== undefined
        ? `usb://${hex4(options.vendorId)}:${hex4(options.productId)}`
        : 'usb';
  }

  async send(data: Uint8Array, options: { timeoutMs?: number } = {}): Promise<void> {
    const session = await this.open();
    await this.write(session, data, options.timeoutMs ?? this.timeouts.writeMs);
  }

  async exchange(data: Uint8Array, options: { replyBytes: number; timeoutMs?: number }): Promise<Buffer> {
    const session = await this.open();
    const timeoutMs = options.timeoutMs ?? this.timeouts.writeMs;
    const deadline = Date.now() + timeoutMs;
    await this.write(session, data, timeoutMs);
    const inEndpoint = session.printer.inEndpoint;
    if (inEndpoint === undefined) {
      throw new PrinterError(
        'offline',
        `${describe(session.device)} has no status channel (bulk IN endpoint), so it cannot answer.`,
        {
          mayHaveReachedPrinter: true,
        },
      );
    }
    const received: Buffer[] = [];
    let length = 0;
    while (length < options.replyBytes) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new PrinterError(
          'timeout',
          `${describe(session.device)} did not answer within ${timeoutMs} ms.`,
          { mayHaveReachedPrinter: true },
        );
      }
      let result: Awaited<ReturnType<UsbPrinterDevice['transferIn']>>;
      try {
        result = await session.device.transferIn(inEndpoint, 64, remaining);
      } catch (error) {
        if (classifyUsbError(error) === 'timeout') continue;
        throw this.transferFailure(session, error);
      }
      if (result.data && result.data.byteLength > 0) {
        const chunk = Buffer.from(result.data.buffer, result.data.byteOffset, result.data.byteLength);
        received.push(chunk);
        length += chunk.length;
      }
    }
    return Buffer.concat(received).subarray(0, options.replyBytes);
  }

  async close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (!session) return;
    await session.device.releaseInterface(session.printer.interfaceNumber).catch(() => undefined);
    await session.device.close().catch(() => undefined);
  }

  private async write(session: Session, data: Uint8Array, timeoutMs: number): Promise<void> {
    if (data.length === 0) return;
    let result: Awaited<ReturnType<UsbPrinterDevice['transferOut']>>;
    try {
      result = await session.device.transferOut(session.printer.outEndpoint, data, timeoutMs);
    } catch (error) {
      throw this.transferFailure(session, error);
    }
    if (result.status !== 'ok' || result.bytesWritten < data.length) {
      throw new PrinterError(
        result.status === 'stall' ? 'offline' : 'timeout',
        `${describe(session.device)} took ${result.bytesWritten} of ${data.length} bytes (${result.status}); it may be out of paper or in error.`,
        { mayHaveReachedPrinter: result.bytesWritten > 0 },
      );
    }
  }

  private transferFailure(session: Session, error: unknown): PrinterError {
    const kind = classifyUsbError(error);
    const name = describe(session.device);
    if (kind === 'gone') {
      // Unplugged: forget the handle so the next job finds the printer again.
      this.session = undefined;
      return new PrinterError(
        'disconnected',
        `${name} was unplugged or switched off during the job. Check the cable and power.`,
        {
          mayHaveReachedPrinter: true,
          cause: error,
        },
      );
    }
    const reason: PrinterErrorReason = kind === 'timeout' ? 'timeout' : 'offline';
    return new PrinterError(reason, `Writing to ${name} failed: ${messageOf(error)}`, {
      mayHaveReachedPrinter: true,
      cause: error,
    });
  }

  private async open(): Promise<Session> {
    if (this.session) return this.session;
    const device = await this.find();
    const byIds = this.options.vendorId !== undefined;
    const printer = printerInterface(device, byIds);
    if (!printer) {
      throw new PrinterError(
        'not_found',
        `${describe(device)} has no printer interface with a bulk OUT endpoint.`,
      );
    }
    try {
      if (!device.opened) await device.open();
    } catch (error) {
      throw this.openFailure(device, error);
    }
    await this.claim(device, printer.interfaceNumber);
    this.session = { device, printer };
    return this.session;
  }

  private async find(): Promise<UsbPrinterDevice> {
    const bus = this.options.bus ?? (await systemUsbBus());
    let devices: UsbPrinterDevice[];
    try {
      devices = await bus.getDevices();
    } catch (error) {
      throw new PrinterError('not_found', `Cannot list USB devices: ${messageOf(error)}`, { cause: error });
    }
    const { vendorId, productId } = this.options;
    const device =
      vendorId !== undefined
        ? devices.find(
            (d) => d.vendorId === vendorId && (productId === undefined || d.productId === productId),
          )
        : devices.find((d) => printerInterface(d, false) !== undefined);
    if (!device) {
      throw new PrinterError(
        'offline',
        vendorId !== undefined
          ? `No USB printer ${this.target} is connected. Check that it is plugged in and switched on (npm run printers -- list shows attached printers).`
          : 'No USB printer is connected. Check that it is plugged in and switched on.',
      );
    }
    return device;
  }

  /** Claims the interface; on Linux, first takes it from the usblp driver when that holds it. */
  private async claim(device: UsbPrinterDevice, interfaceNumber: number): Promise<void> {
    try {
      await device.claimInterface(interfaceNumber);
      return;
    } catch (error) {
      if (classifyUsbError(error) !== 'busy' || (this.options.platform ?? process.platform) !== 'linux') {
        throw this.openFailure(device, error);
      }
    }
    try {
      await device.detachKernelDriver(interfaceNumber);
    } catch (error) {
      const kind = classifyUsbError(error);
      await device.close().catch(() => undefined);
      if (kind === 'no_driver') {
        throw new PrinterError(
          'busy',
          `${describe(device)} is in use by another program (a print server such as CUPS, or another till application). Close it and try again.`,
          { cause: error },
        );
      }
      throw this.openFailure(device, error);
    }
    try {
      await device.claimInterface(interfaceNumber);
    } catch (error) {
      await device.close().catch(() => undefined);
      throw this.openFailure(device, error);
    }
  }

  private openFailure(device: UsbPrinterDevice, error: unknown): PrinterError {
    const name = describe(device);
    switch (classifyUsbError(error)) {
      case 'permission':
        return new PrinterError('permission_denied', `No permission to use ${name}.\n${UDEV_HINT}`, {
          cause: error,
        });
      case 'busy':
        return new PrinterError(
          'busy',
          `${name} is in use by another program. Close it (or stop CUPS for this printer) and try again.`,
          {
            cause: error,
          },
        );
      case 'gone':
        return new PrinterError(
          'offline',
          `${name} was unplugged or switched off. Check the cable and power.`,
          { cause: error },
        );
      case 'timeout':
        return new PrinterError('timeout', `${name} did not respond: ${messageOf(error)}`, { cause: error });
      case 'stall':
      case 'no_driver':
      case 'other':
        return new PrinterError('offline', `Cannot open ${name}: ${messageOf(error)}`, { cause: error });
    }
  }
}
