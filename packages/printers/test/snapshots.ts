import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const SNAPSHOT_DIR = join(dirname(fileURLToPath(import.meta.url)), '__snapshots__');

/**
 * Compares `actual` with a checked-in snapshot file. `UPDATE_SNAPSHOTS=1`
 * rewrites the files instead; review the diff before committing.
 */
export function expectSnapshot(name: string, actual: string): void {
  const path = join(SNAPSHOT_DIR, name);
  if (process.env.UPDATE_SNAPSHOTS === '1') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path)) {
    throw new Error(
      `Snapshot ${name} is missing: run UPDATE_SNAPSHOTS=1 npx vitest run packages/printers and review it.`,
    );
  }
  expect(actual, `snapshot ${name} (UPDATE_SNAPSHOTS=1 regenerates it)`).toBe(readFileSync(path, 'utf8'));
}

/** Bytes as an `xxd`-style dump: exact, and readable in a diff. */
export function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += 16) {
    const row = bytes.subarray(offset, offset + 16);
    const hex = [...row].map((b) => b.toString(16).padStart(2, '0'));
    const left = hex.slice(0, 8).join(' ');
    const right = hex.slice(8).join(' ');
    const text = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${left.padEnd(23)}  ${right.padEnd(23)}  |${text}|`);
  }
  return lines.join('\n') + '\n';
}
