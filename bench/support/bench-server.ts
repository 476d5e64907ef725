import { startServer } from '../../apps/server/src/server.ts';
import { BENCH_SECRETS_KEY } from './harness.ts';

/**
 * The server in this process on a bench's own database: quiet logs and no rate limits, so the
 * numbers measure the work and not the limiter. `env` adds or overrides (SANDBOX_SETTLE_MS, HOST).
 */
export function startBenchServer(databaseUrl: string, env: Record<string, string> = {}) {
  return startServer({
    ...process.env,
    PORT: '0',
    DATABASE_URL: databaseUrl,
    SECRETS_KEY: BENCH_SECRETS_KEY,
    LOG_LEVEL: 'fatal',
    RATE_LIMIT_MAX: '100000000',
    PUBLIC_RATE_LIMIT_MAX: '100000000',
    RATE_LIMIT_KEY_PREFIX: `bench${process.pid}`,
    ...env,
  });
}
