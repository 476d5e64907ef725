/**
 * Which way this till reaches its printer: the desktop app's IPC
 * (`window.till`), the local bridge process beside a browser (its URL and
 * token entered in Settings, kept on this device), or none. Detection and the
 * HTTP client are the shared ones (`shared/detect-bridge.ts`, `shared/http-bridge.ts`).
 */
import type { TillBridge } from '../../../shared/bridge.ts';
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

/**
 * The bridge this page uses: IPC inside the desktop app, else the saved local
 * bridge if it answers, else none (the till sells and says it cannot print).
 */
export async function findBridge(): Promise<{
  kind: BridgeKind;
  bridge: TillBridge | null;
  config: BridgeConfig | null;
}> {
  const config = savedBridgeConfig();
  const found = await detectBridge({ bridgeUrl: config?.url, bridgeToken: config?.token });
  return { kind: found.kind, bridge: found.bridge ?? null, config };
}
