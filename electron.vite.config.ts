/**
 * Build of the desktop till with electron-vite: main process, preload and
 * renderer into apps/desktop/out (`npm run build:desktop`). The renderer also
 * builds with plain Vite for browsers (apps/desktop/vite.config.ts); the two
 * share the React plugin and the renderer's sources.
 */
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const desktop = resolve(import.meta.dirname, 'apps/desktop');
const out = (part: string): string => resolve(desktop, 'out', part);

export default defineConfig({
  main: {
    build: {
      outDir: out('main'),
      // Workspace packages are TypeScript source, so they are bundled; only the
      // native USB module stays outside, loaded from node_modules at run time.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(desktop, 'src/main/index.ts') },
        external: ['usb', /^usb\//],
      },
    },
  },
  preload: {
    build: {
      outDir: out('preload'),
      externalizeDeps: false,
      // A sandboxed preload is a classic script: CommonJS, one file, nothing but `electron` required.
      rolldownOptions: {
        input: { index: resolve(desktop, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(desktop, 'src/renderer'),
    plugins: [react()],
    build: {
      outDir: out('renderer'),
      rolldownOptions: { input: resolve(desktop, 'src/renderer/index.html') },
    },
  },
});
