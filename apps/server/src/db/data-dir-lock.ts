import { closeSync, constants, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { tryLock } from 'fs-native-extensions';

export class DataDirInUseError extends Error {}

/**
 * The embedded database serves one process: a second server on the same
 * DATA_DIR would lose and corrupt data. This holds an exclusive lock on
 * `DATA_DIR/server.lock` (an open-file-description lock on Linux, flock on
 * macOS, LockFileEx on Windows) for as long as the database is open. The
 * operating system releases it when the process ends, however it ends, so a
 * `kill -9` leaves nothing to clean up. The file's text (the holder's pid) is
 * only for the message.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  const file = path.resolve(dataDir, 'server.lock');
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o600);
  if (!tryLock(fd)) {
    closeSync(fd);
    const holder = readFileSync(file, 'utf8').trim();
    throw new DataDirInUseError(
      `DATA_DIR ${path.resolve(dataDir)} is in use by another server process${holder ? ` (pid ${holder})` : ''}. ` +
        'The embedded database serves one process: stop the other one, give this one its own DATA_DIR, ' +
        'or set DATABASE_URL to share a PostgreSQL database between processes.',
    );
  }
  ftruncateSync(fd, 0);
  writeSync(fd, `${process.pid}\n`, 0);
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      closeSync(fd); // closing the file releases the lock
    },
  };
}
