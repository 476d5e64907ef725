/**
 * Which door to the printer this till has: the desktop app's IPC bridge
 * (`window.till`), the local bridge process over HTTP, or none. Runs in the
 * renderer: no Node modules.
 */
import type { TillBridge } from './bridge.ts';
import { bridgeProblem, createHttpBridge } from './http-bridge.ts';

/** The till's own settings for the local bridge (entered once per browser). */
export interface BridgeSettings {
  bridgeUrl?: string | null | undefined;
  bridgeToken?: string | null | undefined;
}

export type DetectedBridge =
  | { kind: 'ipc' | 'http'; bridge: TillBridge; detail: string }
  | { kind: 'none'; bridge?: undefined; detail: string };

export interface DetectOptions {
  /** The preload's bridge; `window.till` by default. */
  ipc?: TillBridge | undefined;
  fetch?: typeof fetch;
  /** How long the local bridge has to answer its health check. */
  timeoutMs?: number;
}

export const HEALTH_TIMEOUT_MS = 300;

export async function detectBridge(
  settings: BridgeSettings,
  options: DetectOptions = {},
): Promise<DetectedBridge> {
  const ipc = 'ipc' in options ? options.ipc : typeof window === 'undefined' ? undefined : window.till;
  if (ipc) return { kind: 'ipc', bridge: ipc, detail: 'Printing through the desktop app.' };

  const url = settings.bridgeUrl?.trim();
  const token = settings.bridgeToken?.trim();
  if (!url || !token) {
    return {
      kind: 'none',
      detail:
        'No printer: this browser has no printer bridge set up (run `npm run printers -- bridge` and enter its address and token).',
    };
  }
  const bridge = createHttpBridge({ url, token, ...(options.fetch ? { fetch: options.fetch } : {}) });
  try {
    await bridge.health(options.timeoutMs ?? HEALTH_TIMEOUT_MS);
  } catch (error) {
    return { kind: 'none', detail: `No printer: ${bridgeProblem(url, error)}` };
  }
  return { kind: 'http', bridge, detail: `Printing through the printer bridge at ${url}.` };
}
