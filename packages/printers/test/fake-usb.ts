import { PrinterEmulator, type EmulatedJob, type JobReception } from '../src/emulator.ts';
import type { UsbBus, UsbConfigurationShape, UsbPrinterDevice } from '../src/usb-transport.ts';

/** Error texts in the shape the `usb` package produces. */
export const USB_ERRORS = {
  busy: (op: string) => new Error(`${op} error: interface is busy (errno 16)`),
  permission: (op: string) => new Error(`${op} error: failed to open device: permission denied (errno 13)`),
  noDriver: () => new Error('detachKernelDriver error: no kernel driver attached'),
  disconnected: (op: string) => new Error(`${op} error: device disconnected`),
  cancelled: (op: string) => new Error(`${op} error: transfer was cancelled`),
  invalidState: (op: string) => new Error(`${op} error: invalid state`),
};

export interface FakeUsbPrinterOptions {
  vendorId?: number;
  productId?: number;
  interfaceClass?: number;
  /** The kernel's usblp driver is bound to the printer interface. */
  kernelDriverActive?: boolean;
  /** Another program has claimed the interface. */
  claimedElsewhere?: boolean;
  /** Opening fails for lack of permission. */
  permissionDenied?: boolean;
}

/**
 * A USB receipt printer with the parts of the `usb` device interface the
 * transport uses: kernel driver binding, claiming, a bulk OUT endpoint fed to
 * a printer emulator and a bulk IN endpoint carrying its answers.
 */
export class FakeUsbPrinter implements UsbPrinterDevice {
  readonly vendorId: number;
  readonly productId: number;
  readonly manufacturerName = 'EPSON';
  readonly productName = 'TM-T20II';
  readonly serialNumber = 'FAKE0001';
  readonly configuration: UsbConfigurationShape;
  readonly emulator = new PrinterEmulator('epson', 48);
  /** Every call, in order, for asserting the open/claim sequence. */
  readonly calls: string[] = [];
  opened = false;
  claimed = false;
  kernelDriverActive: boolean;
  claimedElsewhere: boolean;
  permissionDenied: boolean;
  unplugged = false;
  /** The printer stalls the OUT endpoint (jammed or out of paper on some models). */
  stallWrites = false;
  /** The printer takes writes but never answers on IN. */
  silent = false;
  private reception: JobReception;
  private readonly answers: Buffer[] = [];

  constructor(options: FakeUsbPrinterOptions = {}) {
    this.vendorId = options.vendorId ?? 0x04b8;
    this.productId = options.productId ?? 0x0202;
    this.kernelDriverActive = options.kernelDriverActive ?? false;
    this.claimedElsewhere = options.claimedElsewhere ?? false;
    this.permissionDenied = options.permissionDenied ?? false;
    this.configuration = {
      interfaces: [
        {
          interfaceNumber: 0,
          alternate: {
            interfaceClass: options.interfaceClass ?? 7,
            endpoints: [
              { endpointNumber: 1, direction: 'out', type: 'bulk' },
              { endpointNumber: 2, direction: 'in', type: 'bulk' },
            ],
          },
        },
      ],
    };
    this.reception = this.emulator.begin();
  }

  open(): Promise<void> {
    this.calls.push('open');
    if (this.unplugged) return Promise.reject(USB_ERRORS.disconnected('open'));
    if (this.permissionDenied) return Promise.reject(USB_ERRORS.permission('open'));
    this.opened = true;
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.calls.push('close');
    this.opened = false;
    this.claimed = false;
    return Promise.resolve();
  }

  claimInterface(interfaceNumber: number): Promise<void> {
    this.calls.push(`claimInterface ${interfaceNumber}`);
    if (!this.opened) return Promise.reject(USB_ERRORS.invalidState('claimInterface'));
    if (this.kernelDriverActive || this.claimedElsewhere)
      return Promise.reject(USB_ERRORS.busy('claimInterface'));
    this.claimed = true;
    return Promise.resolve();
  }

  releaseInterface(interfaceNumber: number): Promise<void> {
    this.calls.push(`releaseInterface ${interfaceNumber}`);
    this.claimed = false;
    return Promise.resolve();
  }

  detachKernelDriver(interfaceNumber: number): Promise<void> {
    this.calls.push(`detachKernelDriver ${interfaceNumber}`);
    if (!this.kernelDriverActive) return Promise.reject(USB_ERRORS.noDriver());
    this.kernelDriverActive = false;
    return Promise.resolve();
  }

  transferOut(endpointNumber: number, data: Uint8Array): Promise<{ bytesWritten: number; status: string }> {
    this.calls.push(`transferOut ${endpointNumber} ${data.length}`);
    if (this.unplugged) return Promise.reject(USB_ERRORS.disconnected('transferOut'));
    if (!this.claimed) return Promise.reject(USB_ERRORS.invalidState('transferOut'));
    if (this.stallWrites) return Promise.resolve({ bytesWritten: 0, status: 'stall' });
    for (const answer of this.emulator.receive(this.reception, data)) this.answers.push(answer.bytes);
    return Promise.resolve({ bytesWritten: data.length, status: 'ok' });
  }

  async transferIn(
    endpointNumber: number,
    length: number,
    timeout = 1_000,
  ): Promise<{ data?: DataView; status: string }> {
    this.calls.push(`transferIn ${endpointNumber}`);
    if (this.unplugged) throw USB_ERRORS.disconnected('transferIn');
    const next = this.silent ? undefined : this.answers.shift();
    if (!next) {
      // A real bulk IN read waits for data until its timeout, then is cancelled.
      await new Promise((resolve) => setTimeout(resolve, Math.min(timeout, 50)));
      throw USB_ERRORS.cancelled('transferIn');
    }
    const chunk = next.subarray(0, length);
    return { data: new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength), status: 'ok' };
  }

  /** Unplugs the printer: every transfer now fails as disconnected. */
  unplug(): void {
    this.unplugged = true;
    this.opened = false;
    this.claimed = false;
  }

  /** Plugs it back in; the kernel binds usblp again, as it does on Linux. */
  replug(): void {
    this.unplugged = false;
    this.kernelDriverActive = true;
  }

  /** Ends the stream received so far as one job and returns every job. */
  jobs(): EmulatedJob[] {
    this.emulator.end(this.reception, true);
    this.reception = this.emulator.begin();
    return this.emulator.jobs;
  }
}

export function fakeBus(...devices: UsbPrinterDevice[]): UsbBus {
  return { getDevices: () => Promise.resolve(devices) };
}
