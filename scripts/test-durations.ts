/**
 * Writes test/durations.json, each test file's seconds in a run, from that run's JSON report
 * (`.ci-results.json`, which `.ci/run` writes): the order the next runs start their files in
 * (test/support/sequencer.ts). Usage: npx tsx scripts/test-durations.ts [report]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const file = path.resolve(process.argv[2] ?? path.join(root, '.ci-results.json'));
const report = JSON.parse(readFileSync(file, 'utf8')) as {
  testResults: Array<{ name: string; startTime: number; endTime: number }>;
};
/** A file's path in the repository: the report names it absolutely, in the clone that ran (the report's own directory, as CI's). */
const named = (name: string) => {
  const inReportClone = path.relative(path.dirname(file), name);
  return inReportClone.startsWith('..') ? path.relative(root, name) : inReportClone;
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
