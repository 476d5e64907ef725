/**
 * Each worker's own PostgreSQL database (support/global-setup.ts) is the
 * TEST_DATABASE_URL of the test files it runs, one after another.
 */
const run = process.env.TEST_DATABASES_URL;
if (run) {
  const url = new URL(run);
  url.pathname += `_w${process.env.VITEST_POOL_ID ?? '1'}`;
  process.env.TEST_DATABASE_URL = url.toString();
}
