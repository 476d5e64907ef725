/**
 * Build of the desktop till (main, preload, renderer) with electron-vite.
 * The till's renderer also builds with plain Vite so it runs in any Chromium;
 * see apps/desktop once the till lands. Until then there is nothing to build.
 */
export default {};
