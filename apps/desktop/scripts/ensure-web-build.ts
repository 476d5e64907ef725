/**
 * Builds the till's browser bundle (apps/desktop/dist/web) when it is missing
 * or older than anything it is built from, so `npm start` on a fresh clone
 * serves `/till/` with no manual step. Run by `npm start` (prestart) and by the
 * browser tests; does nothing when the build is current.
 *
 * Always a production build, in a process of its own: Vite takes the bundle's
 * NODE_ENV from the environment, and the test runner sets it to `test`, which
 * built React's development copy (several times slower) that `npm start` then
 * found current and served.
 *
 * One build at a time: processes starting together (test files run side by
 * side, two `npm start`) take a lock, and whoever waited finds the build
 * current. A build interrupted half-way leaves it stale, so it is built again.
 */
import { execFile } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tryLock } from 'fs-native-extensions';

const desktop = fileURLToPath(new URL('..', import.meta.url));
const repo = path.resolve(desktop, '../..');
const SOURCES = [
  path.join(desktop, 'src/renderer'),
  path.join(desktop, 'src/shared'),
  path.join(desktop, 'vite.config.ts'),
  path.join(desktop, 'package.json'),
  path.join(repo, 'packages/core/src'),
  path.join(repo, 'package-lock.json'),
  // How it builds: a build made the way this file did before is made again.
  fileURLToPath(import.meta.url),
];
const BUILT = path.join(desktop, 'dist/web/index.html');
/** Beside the build, not in it (the build empties its directory); released by the system if the process dies. */
const LOCK = path.join(desktop, 'dist/web-build.lock');

async function newestChange(entry: string): Promise<number> {
  const info = await stat(entry).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const child of await readdir(entry)) {
    if (child === 'node_modules') continue;
    newest = Math.max(newest, await newestChange(path.join(entry, child)));
  }
  return newest;
}

/** True when it built; false when the build was already current. */
export async function ensureWebBuild(log: (line: string) => void = () => undefined): Promise<boolean> {
  await mkdir(path.dirname(LOCK), { recursive: true });
  const fd = openSync(LOCK, 'w');
  try {
    while (!tryLock(fd)) await new Promise((resolve) => setTimeout(resolve, 200));
    return await buildIfStale(log);
  } finally {
    closeSync(fd); // releases the lock
  }
}

async function buildIfStale(log: (line: string) => void): Promise<boolean> {
  const built = (await stat(BUILT).catch(() => null))?.mtimeMs ?? 0;
  const sources = Math.max(...(await Promise.all(SOURCES.map(newestChange))));
  if (built > sources) return false;
  log(built === 0 ? 'Building the till (first start)…' : 'The till changed: rebuilding…');
  const vite = path.join(
    path.dirname(createRequire(import.meta.url).resolve('vite/package.json')),
    'bin/vite.js',
  );
  await promisify(execFile)(
    process.execPath,
    [vite, 'build', '--config', path.join(desktop, 'vite.config.ts'), '--logLevel', 'warn'],
    { cwd: repo, env: { ...process.env, NODE_ENV: 'production' }, maxBuffer: 16 * 1024 * 1024 },
  );
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  if (await ensureWebBuild((line) => console.log(line))) {
    console.log(`Till built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}
