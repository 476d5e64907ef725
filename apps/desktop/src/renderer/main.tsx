/**
 * The till page: registers the service worker (browser only), opens the
 * device's store and renders the app. Opening does no work proportional to
 * the catalogue, so the till is ready to sell at once.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { openTillStore } from './data/index.ts';
import { App } from './app/App.tsx';
import { findBridge } from './app/hardware/bridge.ts';
import { I18nProvider } from './i18n/index.tsx';
import { tillServerUrl } from './app/server-address.ts';
import './styles.css';

function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !location.protocol.startsWith('http')) return;
  // sw.js sits beside index.html, so its scope is the till's folder (`/till/`).
  const base = import.meta.env.BASE_URL;
  navigator.serviceWorker
    .register(`${base}sw.js`, { scope: base })
    .catch((error: unknown) => console.warn('service worker not registered', error));
}

async function start(): Promise<void> {
  registerServiceWorker();
  const hardware = await findBridge();
  const store = await openTillStore({
    serverUrl: tillServerUrl(),
    bridge: hardware.watch,
    appVersion: import.meta.env.VITE_TILL_VERSION ?? '0.1.0',
  });
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root in index.html');
  createRoot(root).render(
    <StrictMode>
      <I18nProvider>
        <App store={store} hardware={hardware} />
      </I18nProvider>
    </StrictMode>,
  );
}

void start();
