// The part of fs-native-extensions (no bundled types) the data directory lock uses.
declare module 'fs-native-extensions' {
  /** An exclusive lock on the open file, released when it is closed or the process dies; false when held elsewhere. */
  export function tryLock(fd: number): boolean;
}
