/** The till's screens over sample state (see sample-store.ts); `window.preview` drives the state. */
import { createRoot } from 'react-dom/client';
import { App } from '../../../apps/desktop/src/renderer/app/App.tsx';
import { BridgeWatch } from '../../../apps/desktop/src/shared/bridge-watch.ts';
import { I18nProvider } from '../../../apps/desktop/src/renderer/i18n/index.tsx';
import '../../../apps/desktop/src/renderer/styles.css';
import { sampleStore, type SampleControls } from './sample-store.ts';

declare global {
  interface Window {
    preview?: SampleControls;
  }
}

const { store, controls } = sampleStore();
window.preview = controls;
const language = new URL(location.href).searchParams.get('lang') === 'en' ? 'en' : 'sw';
createRoot(document.getElementById('root')!).render(
  <I18nProvider initial={language}>
    <App store={store} hardware={{ watch: BridgeWatch.fixed({ kind: 'none', detail: '' }), config: null }} />
  </I18nProvider>,
);
