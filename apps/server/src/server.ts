import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import pino from 'pino';
import { loadConfig, type Config } from './config.ts';
import type { Database } from './db/database.ts';
import { openDatabaseWithRetry, unavailableWhileStarting } from './startup.ts';
import { createApp } from './http/app.ts';
import { createHttpServer } from './http/http-server.ts';
import { createRateLimits, type RateLimits } from './infra/rate-limits.ts';
import { routersOutsideV1 } from './routes/index.ts';
import { v1Routes } from './routes/v1/index.ts';
import { createServices, type Services } from './services.ts';
import { webhookCatalog } from './http/webhook-catalog.ts';
import { systemClock, type Clock } from './infra/clock.ts';
import { openSecretBox, type SecretBox } from './infra/secrets-at-rest.ts';

export interface RunningServer {
  url: string;
  config: Config;
  services: Services;
  database: Database;
  close(): Promise<void>;
}

/**
 * Serves HTTP at once (503 until ready), opens the database (PostgreSQL with
 * DATABASE_URL, embedded PGlite otherwise; retried with backoff while it cannot
 * be reached), applies migrations, and resolves when the server is ready. Used
 * by `npm start` and by tests.
 */
export async function startServer(
  env: Record<string, string | undefined> = process.env,
  options: {
    clock?: Clock;
    /** The embedded database starts from this dump (`PGlite.dumpDataDir`) rather than empty. */
    embeddedTemplate?: Blob;
  } = {},
): Promise<RunningServer> {
  const clock = options.clock ?? systemClock;
  const config = loadConfig(env);
  const logger = pino({
    level: config.LOG_LEVEL,
    redact: ['req.headers.authorization', 'req.headers["x-api-key"]'],
  });
  // Listening before the database is ready: until then every request is answered 503.
  let problem = 'connecting';
  let handle: (req: http.IncomingMessage, res: http.ServerResponse) => unknown = unavailableWhileStarting(
    () => problem,
  );
  const server = createHttpServer(async (req, res) => {
    await handle(req, res);
  }, config);
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  const { port } = server.address() as AddressInfo;
  if (!config.PUBLIC_URL) config.publicUrl = `http://${config.HOST}:${port}`;
  let database: Database | undefined;
  let secretBox: SecretBox;
  try {
    database = await openDatabaseWithRetry(
      config,
      logger,
      (message) => {
        problem = message;
      },
      options.embeddedTemplate,
    );
    // Secrets are sealed with a key kept outside the database: a key that does not fit refuses to start.
    secretBox = await openSecretBox(config, database);
  } catch (error) {
    await database?.close().catch(() => undefined);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw error;
  }
  const rateLimits: RateLimits = createRateLimits(database, {
    redisUrl: config.REDIS_URL,
    max: config.RATE_LIMIT_MAX,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    publicMax: config.PUBLIC_RATE_LIMIT_MAX,
    publicWindowSeconds: config.PUBLIC_RATE_LIMIT_WINDOW_SECONDS,
    keyPrefix: config.RATE_LIMIT_KEY_PREFIX,
    login: {
      perAddressEmail: config.LOGIN_ATTEMPTS_PER_ADDRESS_EMAIL,
      perEmail: config.LOGIN_ATTEMPTS_PER_EMAIL,
      perAddress: config.LOGIN_ATTEMPTS_PER_ADDRESS,
      windowSeconds: config.LOGIN_WINDOW_SECONDS,
    },
  });
  await rateLimits.ready;
  const services = createServices(config, database, rateLimits, secretBox, logger, clock);
  const deps = { services, rateLimits, logger };
  const app = createApp({
    ...deps,
    routes: v1Routes,
    openApiExtras: { webhooks: webhookCatalog(v1Routes) },
    routers: routersOutsideV1(deps),
  });

  handle = app.callback();
  services.background.start();

  logger.info({ url: config.publicUrl, database: database.kind }, 'server listening');
  let closed = false;
  return {
    url: `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`,
    config,
    services,
    database,
    async close() {
      if (closed) return;
      closed = true;
      await services.background.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.pdfRenderer.close();
      await services.requestLogs.flush();
      await rateLimits.close();
      await database.close();
    },
  };
}
