/**
 * Builds the browser bundles the server serves, the till's (apps/desktop/dist/web,
 * at `/till/`) and the back office's (apps/server/dist/office, at `/office/`),
 * each when it is missing or older than anything it is built from, so `npm
 * start` on a fresh clone serves both with no manual step. Run by `npm start`
 * (prestart) and by the browser tests; does nothing when a build is current.
 *
 * Always a production build, in a process of its own: Vite takes the bundle's
 * NODE_ENV from the environment, and the test runner sets it to `test`, which
 * built React's development copy (several times slower) that `npm start` then
 * found current and served.
 *
 * One build of each at a time: processes starting together (test files run
 * side by side, two `npm start`) take the build's lock, and whoever waited
 * finds the build current. A build interrupted half-way leaves it stale, so it
 * is built again.
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
const office = path.join(repo, 'apps/server/office');
const COMMON = [
  path.join(repo, 'packages/core/src'),
  path.join(repo, 'package-lock.json'),
  // How it builds: a build made the way this file did before is made again.
  fileURLToPath(import.meta.url),
];

export type WebApp = 'till' | 'office';
interface Build {
  name: string;
  sources: string[];
  built: string;
  config: string;
  /** Beside the build, not in it (the build empties its directory); released by the system if the process dies. */
  lock: string;
}
const BUILDS: Record<WebApp, Build> = {
  till: {
    name: 'the till',
    sources: [
      path.join(desktop, 'src/renderer'),
      path.join(desktop, 'src/shared'),
      path.join(desktop, 'vite.config.ts'),
      path.join(desktop, 'package.json'),
      ...COMMON,
    ],
    built: path.join(desktop, 'dist/web/index.html'),
    config: path.join(desktop, 'vite.config.ts'),
    lock: path.join(desktop, 'dist/web-build.lock'),
  },
  office: {
    name: 'the back office',
    // Its own files, and the pieces it shares with the till (which live under the till's renderer).
    sources: [office, path.join(desktop, 'src/renderer/ui'), ...COMMON],
    built: path.join(repo, 'apps/server/dist/office/index.html'),
    config: path.join(office, 'vite.config.ts'),
    lock: path.join(repo, 'apps/server/dist/office-build.lock'),
  },
};

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
export async function ensureWebBuild(
  log: (line: string) => void = () => undefined,
  app: WebApp = 'till',
): Promise<boolean> {
  const build = BUILDS[app];
  await mkdir(path.dirname(build.lock), { recursive: true });
  const fd = openSync(build.lock, 'w');
  try {
    while (!tryLock(fd)) await new Promise((resolve) => setTimeout(resolve, 200));
    return await buildIfStale(build, log);
  } finally {
    closeSync(fd); // releases the lock
  }
}

async function buildIfStale(build: Build, log: (line: string) => void): Promise<boolean> {
  const built = (await stat(build.built).catch(() => null))?.mtimeMs ?? 0;
  const sources = Math.max(...(await Promise.all(build.sources.map(newestChange))));
  if (built > sources) return false;
  log(built === 0 ? `Building ${build.name} (first start)…` : `Rebuilding ${build.name}: it changed…`);
  const vite = path.join(
    path.dirname(createRequire(import.meta.url).resolve('vite/package.json')),
    'bin/vite.js',
  );
  await promisify(execFile)(
    process.execPath,
    [vite, 'build', '--config', build.config, '--logLevel', 'warn'],
    { cwd: repo, env: { ...process.env, NODE_ENV: 'production' }, maxBuffer: 16 * 1024 * 1024 },
  );
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const app of Object.keys(BUILDS) as WebApp[]) {
    const started = Date.now();
    if (await ensureWebBuild((line) => console.log(line), app)) {
      console.log(`Built ${BUILDS[app].name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  }
}
