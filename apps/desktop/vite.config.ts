/**
 * The till's renderer as a plain browser build, served by the server at
 * `/till/` (the desktop app builds the same renderer with electron-vite).
 * The service worker is its own entry, `sw.js`, beside index.html so its scope
 * is `/till/`; the precache list of this build's files is written into it, so
 * every build changes sw.js and the browser installs the new shell.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const renderer = fileURLToPath(new URL('./src/renderer', import.meta.url));
export const WEB_OUT_DIR = fileURLToPath(new URL('./dist/web', import.meta.url));
const SW_ENTRY = 'sw';
const PRECACHE_TOKEN = '__TILL_PRECACHE__';

/** Writes the names of every emitted file (except sw.js) into the service worker. */
function precacheManifest(): Plugin {
  return {
    name: 'till-precache-manifest',
    apply: 'build',
    // After the HTML plugin, so index.html is in the bundle too.
    enforce: 'post',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((name) => name !== 'sw.js' && !name.endsWith('.map'))
        .sort();
      const worker = bundle['sw.js'];
      if (worker?.type !== 'chunk' || !worker.code.includes(PRECACHE_TOKEN)) {
        this.error('sw.js or its precache placeholder is missing from the build');
      }
      worker.code = worker.code.replace(PRECACHE_TOKEN, files.join(','));
    },
  };
}

export default defineConfig({
  root: renderer,
  base: '/till/',
  publicDir: false,
  plugins: [react(), precacheManifest()],
  build: {
    outDir: WEB_OUT_DIR,
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: { index: `${renderer}/index.html`, [SW_ENTRY]: `${renderer}/sw/sw.ts` },
      output: {
        entryFileNames: (chunk) => (chunk.name === SW_ENTRY ? 'sw.js' : 'assets/[name]-[hash].js'),
      },
    },
  },
});
