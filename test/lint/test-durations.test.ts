import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

describe('test/durations.json, the order the run starts its files in', () => {
  it('names each file by its path in the repository, as the sequencer looks it up', () => {
    const seconds = JSON.parse(readFileSync(path.join(root, 'test/durations.json'), 'utf8')) as Record<
      string,
      number
    >;
    const files = Object.keys(seconds);
    expect(files.length).toBeGreaterThan(100);
    // A key written from a report outside the clone ("tmp.x/repo/test/...") matches no file, and
    // then no file is ordered: the longest ones start last and run alone.
    expect(files.filter((file) => !/^(test|apps|packages|scripts)\//.test(file))).toEqual([]);
  });
});
