import { mkdir, mkdtemp, readFile, readdir, readlink, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Database } from '../../apps/server/src/db/database.ts';
import { embeddedTemplate } from '../support/server.ts';

let database: Database | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  await database?.close();
  database = undefined;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

/** The TCP ports this process listens on, as the kernel lists them (what `ss -ltnp` shows). */
async function listeningTcpPorts(): Promise<Set<number>> {
  const inodes = new Set<string>();
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    const socket = /^socket:\[(\d+)\]$/.exec(target);
    if (socket) inodes.add(socket[1]!);
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1);
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      // local_address is field 1 (hex ip:port), st is field 3 (0A = LISTEN), inode is field 9.
      if (fields[3] === '0A' && inodes.has(fields[9] ?? '')) {
        ports.add(parseInt(fields[1]!.split(':')[1]!, 16));
      }
    }
  }
  return ports;
}

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe('the embedded database’s door', () => {
  it('listens on no TCP port: a local client connecting as psql did finds nothing to read merchants from', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tz-door-'));
    const before = await listeningTcpPorts();
    database = await openDatabase({ dataDir, poolMax: 2, embeddedTemplate: await embeddedTemplate() });
    await migrate(database);

    const opened = [...(await listeningTcpPorts())].filter((port) => !before.has(port));
    for (const port of opened) {
      // What `psql -h 127.0.0.1 -p <port> -U postgres` did: no password was asked.
      const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
      const read = await client
        .connect()
        .then(() => client.query('SELECT email FROM merchants'))
        .then(
          (result) => result.rows,
          () => undefined,
        );
      await client.end().catch(() => undefined);
      expect(read, `port ${port} served the merchants table`).toBeUndefined();
    }
    expect(opened).toEqual([]);
  }, 180_000);

  it('serves the server through a Unix socket in an owner-only directory, in an owner-only data directory', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tz-door-'));
    const nested = path.join(dataDir, 'data');
    // A data directory made readable by others (the default umask) is tightened.
    await mkdir(nested, { mode: 0o755 });
    database = await openDatabase({
      dataDir: nested,
      poolMax: 2,
      embeddedTemplate: await embeddedTemplate(),
    });
    await migrate(database);

    expect(await modeOf(nested)).toBe(0o700);
    expect(await modeOf(path.join(nested, 'socket'))).toBe(0o700);
    expect((await stat(path.join(nested, 'socket', '.s.PGSQL.5432'))).isSocket()).toBe(true);
    expect((await database.pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);

    // A restart after a kill leaves the old socket file behind; the next start replaces it.
    await database.close();
    database = undefined;
    database = await openDatabase({ dataDir: nested, poolMax: 2 });
    expect((await database.pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  }, 180_000);

  it('keeps an in-memory database’s socket in a private temporary directory, removed at close', async () => {
    database = await openDatabase({ dataDir: 'memory://', poolMax: 2 });
    const dir = database.pool.options.host!;
    expect(path.dirname(dir)).toBe(os.tmpdir());
    expect(await modeOf(dir)).toBe(0o700);
    expect((await database.pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await database.close();
    database = undefined;
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  }, 180_000);
});
