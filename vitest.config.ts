import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.ts';

const TESTS = ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'test/**/*.test.ts'];
/**
 * Files that need a module graph of their own: one mocks a module the server
 * imports (`vi.mock`), and the browser and end-to-end files start Chromium and
 * processes, where importing again costs little beside what they run; the PDF pool's measures the
 * event loop, which other files' servers left running in a shared process would keep busy.
 */
const ISOLATED = [
  'test/retail/receipt-page.test.ts',
  'test/invoices/pdf-renderer.test.ts',
  'test/browser/**/*.test.ts',
  'test/e2e/**/*.test.ts',
];

const each = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
  setupFiles: ['test/support/worker-database.ts'],
  // expect.poll gives up after 1 s unless told: far too soon for a page on a busy machine.
  expect: { poll: { timeout: 15_000 } },
};

export default defineConfig({
  test: {
    // Two files at a time even on two cores (the default there is one): most of a file's time is
    // spent waiting on a server, the database, Chromium or a timer, not computing.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // Once for the run, here only: projects would each run it again.
    globalSetup: ['test/support/global-setup.ts'],
    // The longest files first, by a measured run's durations (support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        // The other files share a worker's modules, one file after another: importing the server's
        // modules afresh for each file cost about as much as running most of them.
        test: {
          ...each,
          name: 'shared',
          include: TESTS,
          exclude: [...configDefaults.exclude, ...ISOLATED],
          isolate: false,
        },
      },
      {
        // Chromium on a busy machine: a test's own waits say what they wait for well before these.
        test: { ...each, name: 'isolated', include: ISOLATED, testTimeout: 120_000, hookTimeout: 240_000 },
      },
    ],
  },
});
