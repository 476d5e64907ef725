/**
 * Which way this till reaches its printer: the desktop app's IPC
 * (`window.till`), the local bridge process beside a browser (its URL and
 * token entered in Settings, kept on this device), or none. Detection and the
 * HTTP client are the shared ones (`shared/detect-bridge.ts`, `shared/http-bridge.ts`);
 * a bridge missed at start is looked for again (`shared/bridge-watch.ts`).
 */
import { useSyncExternalStore } from 'react';
import { BridgeWatch } from '../../../shared/bridge-watch.ts';
import { detectBridge } from '../../../shared/detect-bridge.ts';
import { bridgeProblem, createHttpBridge } from '../../../shared/http-bridge.ts';

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

/** Asks the bridge's health check; null when it answers, else why not. */
export async function probeBridge(config: BridgeConfig): Promise<string | null> {
  try {
    await createHttpBridge(config).health(3000);
    return null;
  } catch (error) {
    return bridgeProblem(config.url, error);
  }
}

/** The page's way to its printer: what was found (and is looked for again), and the saved bridge. */
export interface Hardware {
  watch: BridgeWatch;
  config: BridgeConfig | null;
}

/**
 * The bridge this page uses: IPC inside the desktop app, else the saved local
 * bridge if it answers, else none (the till sells and says it cannot print).
 * A saved bridge that did not answer at once is looked for again, with
 * backoff, and whenever a receipt is printed.
 */
export async function findBridge(): Promise<Hardware> {
  const config = savedBridgeConfig();
  const look = (timeoutMs?: number) =>
    detectBridge({ bridgeUrl: config?.url, bridgeToken: config?.token }, timeoutMs ? { timeoutMs } : {});
  const first = await look();
  const watch = new BridgeWatch(first, { look, retry: first.kind === 'none' && config !== null });
  watch.start();
  return { watch, config };
}

/** Which way receipts print now; re-renders when a bridge is found (or lost). */
export function useBridgeKind(watch: BridgeWatch): BridgeKind {
  return useSyncExternalStore(
    (changed) => watch.subscribe(changed),
    () => watch.state.kind,
  );
}
