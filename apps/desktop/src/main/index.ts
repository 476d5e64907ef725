/**
 * The desktop till's main process: one window, one instance, the hardware
 * bridge over IPC and the device credential in safeStorage. This file is the
 * only one that imports Electron's runtime; the modules it wires take
 * Electron's objects as parameters and are tested without it.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, net, protocol, safeStorage, shell } from 'electron';
import { printerAllowanceFrom } from '@tz/printers';
import { CREDENTIAL_FILE, createCredentialStore } from './credentials.ts';
import { registerBridgeHandlers } from './ipc.ts';
import { APP_SCHEME, desktopConfig, rendererFilePath } from './policy.ts';
import { openTillWindow } from './window.ts';

// The built renderer is served as app://till, a secure standard origin (fetch, storage, CORS) instead of file://.
protocol.registerSchemesAsPrivileged([
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true },
  },
]);

const outDir = join(import.meta.dirname, '..');
let window: BrowserWindow | undefined;

async function start(): Promise<void> {
  const config = desktopConfig(process.env, process.argv);
  const rendererRoot = join(outDir, 'renderer');
  protocol.handle(APP_SCHEME, (request) => {
    const file = rendererFilePath(rendererRoot, request.url);
    return file ? net.fetch(pathToFileURL(file).toString()) : new Response('Not found', { status: 404 });
  });
  registerBridgeHandlers(ipcMain, {
    credentials: createCredentialStore({ safeStorage, file: join(app.getPath('userData'), CREDENTIAL_FILE) }),
    trustedOrigins: config.trustedOrigins,
    // The till operator's settings: where the till may print besides printer ports on the shop's network.
    tuning: {
      allowance: printerAllowanceFrom({
        ports: process.env.PRINTER_ALLOWED_PORTS,
        loopback: process.env.PRINTER_ALLOW_LOOPBACK,
      }),
    },
  });
  try {
    window = await openTillWindow(
      { BrowserWindow, openExternal: (url) => void shell.openExternal(url) },
      {
        preload: join(outDir, 'preload', 'index.cjs'),
        startUrl: config.startUrl,
        trustedOrigins: config.trustedOrigins,
      },
    );
  } catch (error) {
    dialog.showErrorBox('The till could not start', error instanceof Error ? error.message : String(error));
  }
}

// A second launch focuses the running till instead of opening another on the same printer and data.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.whenReady().then(start, (error: unknown) => {
    console.error(error);
    app.exit(1);
  });
}
