/**
 * The hardware bridge for a till in a plain browser: the same `TillBridge` as
 * the desktop app's `window.till`, over HTTP to the local bridge process
 * (`npm run printers -- bridge`) on this machine's loopback. Runs in the
 * renderer: fetch only, no Node modules.
 */
import type { PrintOutcome, PrinterState, TillBridge, UsbPrinter } from './bridge.ts';

export interface HttpBridgeSettings {
  /** `http://127.0.0.1:9101`, as the bridge prints at start. */
  url: string;
  /** The token the bridge prints at start. */
  token: string;
  /** For tests; the page's fetch by default. */
  fetch?: typeof fetch;
}

export interface HttpTillBridge extends TillBridge {
  readonly kind: 'http';
  /** Resolves once the bridge answered with this token; rejects with the reason it did not. */
  health(timeoutMs: number): Promise<void>;
}

/** A job can take a while: connect, status, a long receipt printing, the acknowledgement. */
const JOB_TIMEOUT_MS = 30_000;
const QUERY_TIMEOUT_MS = 10_000;

/** The bridge answered, but not with what was asked (wrong token, refused origin, bad request). */
export class BridgeRefusal extends Error {
  override readonly name = 'BridgeRefusal';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function createHttpBridge(settings: HttpBridgeSettings): HttpTillBridge {
  const base = settings.url.replace(/\/+$/, '');
  const doFetch = settings.fetch ?? ((input, init) => fetch(input, init));

  async function call<T>(path: string, body: unknown, timeoutMs: number): Promise<T> {
    const response = await doFetch(`${base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        Authorization: `Bearer ${settings.token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const answer: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const message =
        typeof answer === 'object' &&
        answer !== null &&
        'message' in answer &&
        typeof answer.message === 'string'
          ? answer.message
          : `The printer bridge answered HTTP ${response.status}`;
      throw new BridgeRefusal(response.status, message);
    }
    return answer as T;
  }

  /** A job the bridge did not answer: say so as the outcome a cashier acts on. */
  async function job(path: string, body: unknown): Promise<PrintOutcome> {
    try {
      return await call<PrintOutcome>(path, body, JOB_TIMEOUT_MS);
    } catch (error) {
      if (error instanceof BridgeRefusal && error.status !== 401 && error.status !== 403) throw error;
      // Refused before anything printed; or a timeout, after which the job may have gone through.
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      return {
        ok: false,
        reason: timedOut ? 'timeout' : 'offline',
        message: bridgeProblem(base, error),
        mayHaveReachedPrinter: timedOut,
      };
    }
  }

  return {
    kind: 'http',
    printReceipt: (printer, receipt, options) =>
      job('/print-receipt', { printer, receipt, ...(options ? { options } : {}) }),
    printText: (printer, text) => job('/print-text', { printer, text }),
    openDrawer: (printer) => job('/open-drawer', { printer }),
    async status(printer): Promise<PrinterState> {
      try {
        return await call<PrinterState>('/status', { printer }, QUERY_TIMEOUT_MS);
      } catch (error) {
        return {
          online: false,
          coverOpen: false,
          paperOut: false,
          paperNearEnd: false,
          detail: bridgeProblem(base, error),
        };
      }
    },
    listUsbPrinters: () => call<UsbPrinter[]>('/usb-printers', undefined, QUERY_TIMEOUT_MS),
    async health(timeoutMs) {
      await call('/health', undefined, timeoutMs);
    },
  };
}

/** One sentence on why the bridge did not do what was asked. */
export function bridgeProblem(url: string, error: unknown): string {
  if (error instanceof BridgeRefusal) {
    return error.status === 401
      ? `The printer bridge at ${url} refused this till's token: enter the token it printed at start.`
      : error.status === 403
        ? `The printer bridge at ${url} does not accept this page's address: start it with --origin ${pageOrigin()}.`
        : error.message;
  }
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return `The printer bridge at ${url} did not answer in time.`;
  }
  return `The printer bridge at ${url} is not answering: is \`npm run printers -- bridge\` running on this computer?`;
}

function pageOrigin(): string {
  return typeof window === 'undefined' ? 'THE_TILL_ADDRESS' : window.location.origin;
}
