/**
 * The till's one window: context isolation, no Node in the page, a sandboxed
 * preload, and no way to navigate or open a window outside the trusted
 * origins. Electron's classes come in as parameters so tests can stand in.
 */
import type { BrowserWindow, BrowserWindowConstructorOptions, WebContents } from 'electron';
import { isTrustedUrl } from './policy.ts';

export function tillWindowOptions(preload: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 800,
    minWidth: 800,
    minHeight: 600,
    title: 'Till',
    show: false,
    autoHideMenuBar: true,
    webPreferences: {
      preload,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

type GuardedContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/**
 * Keeps the window on trusted pages: other navigations are stopped, new
 * windows are refused (an http(s) link opens in the system browser instead),
 * and no `<webview>` may attach.
 */
export function guardContents(
  contents: GuardedContents,
  trustedOrigins: readonly string[],
  openExternal: (url: string) => void,
): void {
  contents.on('will-navigate', (event, url) => {
    if (!isTrustedUrl(url, trustedOrigins)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isTrustedUrl(url, trustedOrigins)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//i.test(url)) openExternal(url);
    return { action: 'deny' };
  });
}

export interface WindowDeps {
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => BrowserWindow;
  openExternal: (url: string) => void;
}

export async function openTillWindow(
  deps: WindowDeps,
  config: { preload: string; startUrl: string; trustedOrigins: readonly string[] },
): Promise<BrowserWindow> {
  const window = new deps.BrowserWindow(tillWindowOptions(config.preload));
  guardContents(window.webContents, config.trustedOrigins, deps.openExternal);
  window.once('ready-to-show', () => window.show());
  await window.loadURL(config.startUrl);
  return window;
}
