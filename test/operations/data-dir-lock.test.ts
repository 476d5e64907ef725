import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, signUp } from '../support/server.ts';
import { health, spawnServer, type ServerProcess } from '../support/process.ts';

const started: ServerProcess[] = [];
let dataDir: string | undefined;

afterEach(async () => {
  for (const server of started.splice(0)) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function start(env: Record<string, string>) {
  const server = await spawnServer(env);
  started.push(server);
  return server;
}

describe('the embedded database’s data directory', () => {
  it('serves one process: a second refuses to start, and a kill -9 of the first frees it', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tz-lock-'));
    // The embedded database: no DATABASE_URL.
    const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    const first = await start(env);
    await eventually(async () => (await health(first.url)) === 200, 60_000);
    const merchant = await signUp(first.url);

    const second = await start(env);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(
      `DATA_DIR ${dataDir} is in use by another server process (pid ${first.child.pid})`,
    );
    expect(await health(first.url)).toBe(200); // the first one is untouched

    first.child.kill('SIGKILL');
    await first.exited;
    const third = await start(env);
    await eventually(async () => (await health(third.url)) === 200, 60_000);
    // The data the first process committed is there.
    const login = await fetch(`${third.url}/v1/merchants/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: merchant.email, password: merchant.password }),
    });
    expect(login.status).toBe(200);
  }, 180_000);
});
