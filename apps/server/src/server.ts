import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import pino from 'pino';
import { ID_PREFIXES } from '@tz/core';
import { loadConfig, type Config } from './config.ts';
import type { Database } from './db/database.ts';
import { openDatabaseWithRetry, unavailableWhileStarting } from './startup.ts';
import { createApp } from './http/app.ts';
import { createHttpServer } from './http/http-server.ts';
import { createRateLimits, type RateLimits } from './services/rate-limits.ts';
import { purgeExpiredIdempotencyKeys } from './services/idempotency.ts';
import { ClickPesaProvider, clickPesaOptionsFrom } from './providers/clickpesa.ts';
import { clickPesaCallbackRouter } from './http/clickpesa-callback.ts';
import { trpcRoutes } from './http/trpc.ts';
import { startClickPesaReconciler } from './providers/clickpesa-reconciler.ts';
import type { OutcomeSink, PayoutOutcomeSink } from './providers/provider.ts';
import { v1Routes } from './routes/v1/index.ts';
import { createServices, type Services } from './services/index.ts';
import { webhookCatalog } from './http/webhook-catalog.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';
import { ReferralEarner } from './referrals/earner.ts';
import { OverdueInvoices } from './invoices/overdue.ts';
import { systemClock, type Clock } from './services/clock.ts';
import { openSecretBox, type SecretBox } from './services/secrets-at-rest.ts';

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
  const clickPesaOptions = clickPesaOptionsFrom(config);
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
  const log = (error: unknown, message: string) => logger.error({ err: error }, message);
  // The live provider reports outcomes to the payment and payout services, which are built with it.
  const sink: OutcomeSink & PayoutOutcomeSink = {
    applyOutcome: (id, outcome) => services.payments.applyOutcome(id, outcome),
    // Escrow transfers to phones go out as payouts named by their split and attempt (docs/ESCROW.md).
    applyPayoutOutcome: (id, outcome) =>
      id.startsWith(`${ID_PREFIXES.escrowSplit}_`)
        ? services.escrowTransfers.applyProviderOutcome(id, outcome)
        : services.payouts.applyPayoutOutcome(id, outcome),
  };
  const clickPesa = clickPesaOptions ? new ClickPesaProvider(clickPesaOptions, sink, log) : undefined;
  const services = createServices(config, database, rateLimits, secretBox, log, clickPesa, clock);
  const app = createApp({
    services,
    rateLimits,
    logger,
    routes: v1Routes,
    openApiExtras: { webhooks: webhookCatalog(v1Routes) },
    extraRouters: [
      trpcRoutes(services),
      ...(clickPesaOptions ? [clickPesaCallbackRouter(services, clickPesaOptions.checksumKey, logger)] : []),
    ],
  });

  handle = app.callback();

  // Test payments settle when due, including those a stopped process left due.
  services.sandbox.start();
  // Test transfers from escrow that a stopped process left sending (live ones: the ClickPesa reconciler).
  const resumingTransfers = services.escrowTransfers.resume();
  // Invoices past their due date are announced once, by whichever process sees them first.
  const overdue = new OverdueInvoices(database, services.invoices, clock, (error) =>
    log(error, 'overdue invoice check failed'),
  );
  overdue.start();
  const janitor = setInterval(() => {
    purgeExpiredIdempotencyKeys(database.pool, config.IDEMPOTENCY_TTL_HOURS).catch((error: unknown) =>
      logger.warn({ err: error }, 'idempotency purge failed'),
    );
  }, 3_600_000);
  janitor.unref();
  // Referral earnings: cross-merchant work, credited in the background (docs/APPS.md).
  const referralEarner = new ReferralEarner(database, (error) => log(error, 'referral earning failed'));
  referralEarner.start();
  const dispatcher = new WebhookDispatcher(database, config, secretBox, logger);
  if (config.WEBHOOK_DISPATCH) dispatcher.start();
  if (config.SUBSCRIPTION_SCHEDULER) services.subscriptionScheduler.start();
  const reconciler = clickPesa
    ? startClickPesaReconciler(
        database,
        clickPesa,
        sink,
        services.escrowTransfers,
        log,
        config.PROVIDER_RECONCILE_INTERVAL_MS,
      )
    : undefined;

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
      clearInterval(janitor);
      reconciler?.stop();
      await services.subscriptionScheduler.stop();
      await services.sandbox.stop();
      await referralEarner.stop();
      await resumingTransfers;
      await overdue.stop();
      await dispatcher.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.pdfRenderer.close();
      await services.requestLogs.flush();
      await rateLimits.close();
      await database.close();
    },
  };
}
