/**
 * Which way this till reaches its printer: the desktop app's IPC
 * (`window.till`), the local bridge process beside a browser (its URL and
 * token entered in Settings, kept on this device), or none. The HTTP client
 * speaks the routes of `npm run printers -- bridge` (packages/printers/src/bridge.ts).
 */
import type { PrintOutcome, PrinterState, TillBridge, UsbPrinter } from '../../../shared/bridge.ts';

export type BridgeKind = 'ipc' | 'http' | 'none';
export interface BridgeConfig {
  url: string;
  token: string;
}

const STORAGE_KEY = 'till.bridge';

export function savedBridgeConfig(): BridgeConfig | null {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    if (parsed && typeof parsed === 'object' && 'url' in parsed && 'token' in parsed) {
      const { url, token } = parsed as Record<string, unknown>;
      if (typeof url === 'string' && typeof token === 'string') return { url, token };
    }
  } catch {
    // unreadable: as if none were saved
  }
  return null;
}

export function saveBridgeConfig(config: BridgeConfig | null): void {
  if (config) localStorage.setItem(STORAGE_KEY, JSON.stringify(config));
  else localStorage.removeItem(STORAGE_KEY);
}

/** A bridge over HTTP to the local bridge process: one POST per method, the token on each. */
export function httpBridge({ url, token }: BridgeConfig): TillBridge {
  const base = url.replace(/\/+$/, '');
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const response = await fetch(base + path, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const answer: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const message = (answer as { message?: unknown } | null)?.message;
      throw new Error(typeof message === 'string' ? message : `bridge answered ${response.status}`);
    }
    return answer as T;
  };
  return {
    kind: 'http',
    printReceipt: (printer, receipt, options) =>
      call<PrintOutcome>('POST', '/print-receipt', { printer, receipt, ...(options ? { options } : {}) }),
    printText: (printer, text) => call<PrintOutcome>('POST', '/print-text', { printer, text }),
    openDrawer: (printer) => call<PrintOutcome>('POST', '/open-drawer', { printer }),
    status: (printer) => call<PrinterState>('POST', '/status', { printer }),
    listUsbPrinters: () => call<UsbPrinter[]>('GET', '/usb-printers'),
  };
}

/** Asks the bridge's health check; null when it answers, else why not. */
export async function probeBridge({ url, token }: BridgeConfig): Promise<string | null> {
  try {
    const response = await fetch(`${url.replace(/\/+$/, '')}/health`, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(3000),
    });
    return response.ok ? null : `HTTP ${response.status}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The bridge this page uses: IPC inside the desktop app, else the saved local bridge, else none. */
export function detectBridge(): { kind: BridgeKind; bridge: TillBridge | null; config: BridgeConfig | null } {
  if (window.till) return { kind: 'ipc', bridge: window.till, config: null };
  const config = savedBridgeConfig();
  return config
    ? { kind: 'http', bridge: httpBridge(config), config }
    : { kind: 'none', bridge: null, config: null };
}
