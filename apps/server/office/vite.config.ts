/**
 * The back office's browser build, served by the server at `/office/`
 * (`npm run build:office`; `npm start` builds it when it is missing or stale).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));
export const OFFICE_OUT_DIR = fileURLToPath(new URL('../dist/office', import.meta.url));

export default defineConfig({
  root,
  base: '/office/',
  publicDir: false,
  plugins: [react()],
  build: { outDir: OFFICE_OUT_DIR, emptyOutDir: true, target: 'es2022' },
});
