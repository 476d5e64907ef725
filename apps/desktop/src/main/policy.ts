/**
 * What the desktop window may load and who may call the bridge: the built
 * renderer under `app://till`, and the server's `/till/` when the app is
 * pointed at a server. No Electron here, so it is tested as plain functions.
 */
import { extname, join, normalize, sep } from 'node:path';

export const APP_SCHEME = 'app';
/** The built renderer's origin: a fixed, secure origin (not `file://`) for its storage and for CORS. */
export const APP_ORIGIN = `${APP_SCHEME}://till`;

export interface DesktopConfig {
  /** The server whose `/till/` the window loads, when given. */
  serverUrl: string | undefined;
  /** Where the window starts. */
  startUrl: string;
  /** Origins whose pages may navigate the window and call the hardware bridge. */
  trustedOrigins: string[];
}

/**
 * `--server-url=URL` or `TILL_SERVER_URL` loads the till from that server
 * (`URL/till/`); without either the window loads the renderer built into the app.
 */
export function desktopConfig(
  env: Readonly<Record<string, string | undefined>>,
  argv: readonly string[],
): DesktopConfig {
  const flag = argv.find((arg) => arg.startsWith('--server-url='))?.slice('--server-url='.length);
  const given = (flag ?? env.TILL_SERVER_URL)?.trim();
  if (!given)
    return { serverUrl: undefined, startUrl: `${APP_ORIGIN}/index.html`, trustedOrigins: [APP_ORIGIN] };
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new Error(`TILL_SERVER_URL "${given}" is not a URL such as http://192.168.1.10:4000`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`TILL_SERVER_URL "${given}" must be an http or https address`);
  }
  return { serverUrl: url.origin, startUrl: `${url.origin}/till/`, trustedOrigins: [APP_ORIGIN, url.origin] };
}

/** `scheme://host[:port]`, also for `app:` (whose WHATWG origin is the opaque "null"). */
export function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}`;
  } catch {
    return undefined;
  }
}

export function isTrustedUrl(value: string, trustedOrigins: readonly string[]): boolean {
  const origin = originOf(value);
  return origin !== undefined && trustedOrigins.includes(origin);
}

/**
 * The file under `root` that an `app://till/...` request names, or undefined
 * for another host or a path that climbs out of `root`. Paths without an
 * extension are the renderer's own routes and get `index.html`.
 */
export function rendererFilePath(root: string, requestUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return undefined;
  }
  if (`${url.protocol}//${url.host}` !== APP_ORIGIN) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (path.includes('\0')) return undefined;
  const file = normalize(join(root, path));
  const base = normalize(root + sep);
  if (!file.startsWith(base)) return file === normalize(root) ? join(root, 'index.html') : undefined;
  return extname(file) === '' ? join(root, 'index.html') : file;
}
