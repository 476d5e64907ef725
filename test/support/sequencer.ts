/**
 * The order the run starts its files in: the isolated project's first, then the shared one's (a
 * shared worker is kept for the next file only while shared files come next, so the two are not
 * mixed), each longest first by the seconds a measured run took (test/durations.json), files it
 * does not know first of all. Two workers that start the longest files first end together; started
 * in order of size, as with no cache of the last run (CI's clean clone), a minute-long file came
 * last and ran alone.
 *
 * `npx tsx scripts/test-durations.ts .ci-results.json` writes the durations from a run's JSON report.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const DURATIONS = path.resolve(import.meta.dirname, '../durations.json');

function durations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(DURATIONS, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export default class LongestFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = durations();
    const root = this.ctx.config.root;
    const known = (spec: TestSpecification) => seconds[path.relative(root, spec.moduleId)] ?? Infinity;
    const isolated = (spec: TestSpecification) => (spec.project.config.isolate === false ? 1 : 0);
    return Promise.resolve([...files].sort((a, b) => isolated(a) - isolated(b) || known(b) - known(a)));
  }
}
