/**
 * Which server the till talks to. A page served by the server (`/till/`) uses
 * its own origin; the desktop app's built-in renderer (`app://till`) has none,
 * so the pairing screen asks for it and the device remembers it here.
 */

const STORAGE_KEY = 'till.server';

/** True when the page came from the server itself (then the server is its origin). */
export function servedByServer(): boolean {
  return location.protocol === 'http:' || location.protocol === 'https:';
}

/** The server this page uses: its origin, else the one remembered on the device, else the build's default. */
export function tillServerUrl(): string {
  if (servedByServer()) return location.origin;
  return localStorage.getItem(STORAGE_KEY) ?? import.meta.env.VITE_TILL_SERVER_URL ?? '';
}

export function rememberServer(server: string): void {
  localStorage.setItem(STORAGE_KEY, server);
}

/**
 * A server address as typed: `192.168.1.10:4000` or `http://192.168.1.10:4000/`
 * become `http://192.168.1.10:4000`; a path prefix is kept. Null when it is not
 * an http(s) address.
 */
export function normaliseServer(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * What a person typed or pasted into the pairing code field: a code, or the
 * pairing URL from the dashboard (`SERVER/till/?pair=CODE`), which carries
 * both the server and the code.
 */
export function parsePairingInput(text: string): { server: string | null; code: string } {
  const trimmed = text.trim();
  if (!/[/?]/.test(trimmed)) return { server: null, code: trimmed.toUpperCase() };
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`);
  } catch {
    return { server: null, code: trimmed.toUpperCase() };
  }
  const code = (url.searchParams.get('pair') ?? '').trim().toUpperCase();
  // The till page sits at `/till/` under the server (after any path prefix).
  const prefix = url.pathname.replace(/\/till(\/.*)?$/, '');
  return { server: normaliseServer(`${url.origin}${prefix}`), code };
}
