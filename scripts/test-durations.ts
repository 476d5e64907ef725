/**
 * Writes test/durations.json, each test file's seconds in a run, from that run's JSON report
 * (`.ci-results.json`, which `.ci/run` writes): the order the next runs start their files in
 * (test/support/sequencer.ts). Usage: npx tsx scripts/test-durations.ts [report]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const file = path.resolve(process.argv[2] ?? path.join(root, '.ci-results.json'));
const report = JSON.parse(readFileSync(file, 'utf8')) as {
  testResults: Array<{ name: string; startTime: number; endTime: number }>;
};
/**
 * A file's path in the repository. The report names it absolutely, in the clone that ran it
 * (maybe not this one, its report maybe copied elsewhere): the longest tail of the path that
 * names a file here. A key that names no file here would leave the file unordered.
 */
const named = (name: string) => {
  const parts = name.split(path.sep);
  for (let start = 1; start < parts.length; start += 1) {
    const tail = parts.slice(start).join('/');
    if (existsSync(path.join(root, tail))) return tail;
  }
  return path.relative(root, name);
};
const seconds = Object.fromEntries(
  report.testResults
    .map(
      (result) => [named(result.name), Math.round((result.endTime - result.startTime) / 100) / 10] as const,
    )
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(path.join(root, 'test/durations.json'), `${JSON.stringify(seconds, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(seconds).length} files`);
