import type http from 'node:http';
import type { Logger } from 'pino';
import { AppError, newId } from '@tz/core';
import type { Config } from './config.ts';
import { migrate, openDatabase, type Database } from './db/database.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from './http/errors.ts';

const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 5_000;

/**
 * Opens and migrates the database, retrying with backoff while it cannot be
 * reached (a server may start before its database), and reporting each
 * failure. Only a refusal that waiting cannot cure (another process holds
 * DATA_DIR) ends the attempt.
 */
export async function openDatabaseWithRetry(
  config: Config,
  logger: Logger,
  onProblem: (problem: string) => void,
  embeddedTemplate?: Blob,
): Promise<Database> {
  for (let attempt = 0; ; attempt++) {
    let database: Database | undefined;
    try {
      database = await openDatabase({
        url: config.DATABASE_URL,
        dataDir: config.DATA_DIR,
        embeddedTemplate,
        poolMax: config.DATABASE_POOL_MAX,
        statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
        idleInTransactionTimeoutMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
        logger,
      });
      await migrate(database);
      return database;
    } catch (error) {
      await database?.close().catch(() => undefined);
      if (error instanceof DataDirInUseError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      onProblem(message);
      const delay = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
      logger.warn({ err: error, retryInMs: delay }, 'database unreachable at start; retrying');
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/**
 * What the server answers until its database is ready: `/healthz` 503 naming
 * the problem, everything else the error object with 503 and Retry-After.
 */
export function unavailableWhileStarting(problem: () => string): http.RequestListener {
  return (req, res) => {
    const health = (req.url ?? '').split('?')[0] === '/healthz';
    const body = health
      ? { status: 'starting', database: `unreachable: ${problem()}` }
      : new AppError('service_unavailable', 'The service is starting; retry shortly', {
          retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS,
        }).toBody();
    res.writeHead(503, {
      'Content-Type': 'application/json; charset=utf-8',
      'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
      'X-Request-Id': newId('request'),
    });
    res.end(JSON.stringify(body));
  };
}
