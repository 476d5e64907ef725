import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { lockDataDir } from './data-dir-lock.ts';

/** Owner only: the data directory and the socket's directory, as PostgreSQL keeps its own. */
const OWNER_ONLY = 0o700;
/** What pg appends to a socket directory: `<dir>/.s.PGSQL.<port>`. */
const SOCKET_PORT = 5432;
/** The longest Unix socket path every supported system accepts (macOS: 104 bytes with the NUL). */
const LONGEST_SOCKET_PATH = 103;

/** The contrib extensions the migrations create: btree_gist for the rooms' exclusion constraint. */
export const EMBEDDED_EXTENSIONS = { btree_gist };

export interface EmbeddedDatabase {
  /** How the pool reaches the database: a socket no other local user can open, never a TCP port. */
  readonly connection: pg.PoolConfig;
  close(): Promise<void>;
}

/**
 * PGlite served in-process through `pglite-socket`, so the one `pg.Pool` serves
 * both modes. PGlite answers any client without a password, so the socket is the
 * only door: a Unix socket in a directory only the server's user can open (a
 * named pipe with a random name on Windows, whose default access list refuses
 * writes from other users), never a loopback TCP port any local process could
 * reach. `DATA_DIR` itself is made owner-only too, since its files are the
 * database. A `template` (a `PGlite.dumpDataDir` tarball) is loaded instead of
 * creating an empty database: tests start each server from one migrated once.
 */
export async function openEmbedded(dataDir: string, template?: Blob): Promise<EmbeddedDatabase> {
  const onDisk = dataDir !== 'memory://';
  if (onDisk) {
    await mkdir(dataDir, { recursive: true, mode: OWNER_ONLY });
    // A data directory made before (or by hand) may be readable by others.
    await chmod(dataDir, OWNER_ONLY);
  }
  const lock = onDisk ? lockDataDir(dataDir) : undefined;
  const cleanups: Array<() => void | Promise<void>> = [() => lock?.release()];
  const cleanUp = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch {
        // the rest still closes
      }
    }
  };
  try {
    const pglite = await PGlite.create({
      extensions: EMBEDDED_EXTENSIONS,
      ...(onDisk ? { dataDir } : {}),
      ...(template ? { loadDataDir: template } : {}),
    });
    cleanups.push(() => pglite.close());
    const door = await socketDoor(onDisk ? dataDir : undefined);
    cleanups.push(door.remove);
    // Above 1 connection so pool clients do not reset each other; queries are serialised inside.
    const socket = new PGLiteSocketServer({ db: pglite, path: door.path, maxConnections: 8 });
    await socket.start();
    cleanups.push(() => socket.stop());
    return { connection: { ...door.connection, user: 'postgres', database: 'postgres' }, close: cleanUp };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

interface SocketDoor {
  path: string;
  connection: pg.PoolConfig;
  remove: () => Promise<void>;
}

async function socketDoor(dataDir: string | undefined): Promise<SocketDoor> {
  if (process.platform === 'win32') {
    const pipe = `\\\\.\\pipe\\tz-pglite-${randomBytes(16).toString('hex')}`;
    // pg speaks to a path only as `<dir>/.s.PGSQL.<port>`; a pipe is reached through a socket of our own.
    const stream = () => {
      const socket = new net.Socket();
      const connect = socket.connect.bind(socket);
      socket.connect = () => connect(pipe);
      return socket;
    };
    return { path: pipe, connection: { stream }, remove: () => Promise.resolve() };
  }
  const inDataDir = dataDir ? path.resolve(dataDir, 'socket') : undefined;
  const fits = (dir: string) => path.join(dir, `.s.PGSQL.${SOCKET_PORT}`).length <= LONGEST_SOCKET_PATH;
  let dir: string;
  let remove: () => Promise<void>;
  if (inDataDir && fits(inDataDir)) {
    dir = inDataDir;
    await mkdir(dir, { recursive: true, mode: OWNER_ONLY });
    await chmod(dir, OWNER_ONLY);
    remove = () => rm(socketPath(dir), { force: true });
  } else {
    // In memory, or a data directory too deep for a socket path: a private temporary directory.
    dir = await mkdtemp(path.join(os.tmpdir(), 'tz-pglite-')); // created 0700
    if (!fits(dir)) throw new Error(`the temporary directory ${dir} is too deep for a Unix socket`);
    remove = () => rm(dir, { recursive: true, force: true });
  }
  // Left by a process that was killed; the data directory's lock says none is serving it now.
  await rm(socketPath(dir), { force: true });
  return { path: socketPath(dir), connection: { host: dir, port: SOCKET_PORT }, remove };
}

const socketPath = (dir: string) => path.join(dir, `.s.PGSQL.${SOCKET_PORT}`);
