import { z } from 'zod';
import { DEFAULT_FEE_SCHEDULE, DEFAULT_RETRY_DAYS, parsePortRanges, type PortRange } from '@tz/core';
import { DEFAULT_LOGIN_LIMITS } from './infra/login-throttle.ts';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const msList = z
  .string()
  .regex(/^\d+(,\d+)*$/, 'comma-separated milliseconds')
  .transform((v) => v.split(',').map(Number));

/** Every setting the server reads, with its default. Documented in the README. */
const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('./.data'),
  // The key webhook secrets are sealed with at rest (base64 of 32 bytes), or a file holding it (README).
  SECRETS_KEY: z.string().optional(),
  SECRETS_KEY_FILE: z.string().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(20),
  // PostgreSQL sessions: the longest statement, and the longest a session may idle inside a transaction.
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3_500),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  REDIS_URL: z.string().optional(),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(100),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(1),
  RATE_LIMIT_KEY_PREFIX: z
    .string()
    .regex(/^[a-z0-9_]{1,40}$/)
    .default('rl'),
  PUBLIC_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(30),
  PUBLIC_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  // Password checks per window, counted before each check (services/login-throttle.ts).
  LOGIN_ATTEMPTS_PER_ADDRESS_EMAIL: z.coerce
    .number()
    .int()
    .min(1)
    .default(DEFAULT_LOGIN_LIMITS.perAddressEmail),
  LOGIN_ATTEMPTS_PER_EMAIL: z.coerce.number().int().min(1).default(DEFAULT_LOGIN_LIMITS.perEmail),
  LOGIN_ATTEMPTS_PER_ADDRESS: z.coerce.number().int().min(1).default(DEFAULT_LOGIN_LIMITS.perAddress),
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(DEFAULT_LOGIN_LIMITS.windowSeconds),
  FEE_BASIS_POINTS: z.coerce.number().int().min(0).max(10_000).default(DEFAULT_FEE_SCHEDULE.basisPoints),
  FEE_FIXED: z.coerce.number().int().min(0).default(DEFAULT_FEE_SCHEDULE.fixed),
  SANDBOX_SETTLE_MS: z.coerce.number().int().min(0).default(800),
  AUTH_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).default(12),
  CHECKOUT_TTL_MINUTES: z.coerce.number().int().min(1).default(60),
  TILL_PAIRING_TTL_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  IDEMPOTENCY_TTL_HOURS: z.coerce.number().int().min(24).default(24),
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(100_000),
  // A request's headers must arrive within HEADERS_TIMEOUT_MS, its body within BODY_TIMEOUT_MS of being read.
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  VALIDATE_RESPONSES: bool.default(false),
  WEBHOOK_RETRY_DELAYS_MS: msList.default([0, 60_000, 300_000]),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  WEBHOOK_ALLOW_PRIVATE_URLS: bool.default(false),
  // Printers a till may be sent to (docs/PRINTERS.md "Where a till may print"): ports besides 9100-9109,
  // and printers on the till's own machine (a developer's virtual printer).
  PRINTER_ALLOWED_PORTS: z
    .string()
    .transform(
      (text, ctx): PortRange[] =>
        parsePortRanges(text) ??
        (ctx.addIssue({ code: 'custom', message: 'ports or ranges, e.g. 9200,9300-9310' }), z.NEVER),
    )
    .default([]),
  PRINTER_ALLOW_LOOPBACK: bool.default(false),
  // Webhook dispatch (docs/WEBHOOKS.md): polling backs up the in-process wake-up and serves other processes.
  WEBHOOK_DISPATCH: bool.default(true),
  WEBHOOK_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  WEBHOOK_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(5_000).default(256),
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: z.coerce.number().int().min(1).max(5_000).default(32),
  WEBHOOK_ROTATION_GRACE_SECONDS: z.coerce.number().int().min(0).default(86_400),
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).default(20),
  // Hospitality channels (docs/HOSPITALITY.md "Channels"): how often each iCal feed is fetched, and
  // feeds on private or loopback addresses (local development only, as for webhooks).
  CHANNEL_IMPORT_INTERVAL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  CHANNEL_ALLOW_PRIVATE_URLS: bool.default(false),
  // Subscriptions (docs/SUBSCRIPTIONS.md): retries of a failed charge, in days after the first failure;
  // empty: none, the first failure is the last.
  SUBSCRIPTION_RETRY_DAYS: z
    .string()
    .regex(/^(\d+(,\d+)*)?$/, 'comma-separated days')
    .transform((v) => (v ? v.split(',').map(Number) : []))
    .refine((days) => days.every((d, i) => d >= 1 && (i === 0 || d > days[i - 1]!)), 'increasing, from 1')
    .default([...DEFAULT_RETRY_DAYS]),
  SUBSCRIPTION_SCHEDULER: bool.default(true),
  SUBSCRIPTION_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(600_000).default(1_000),
  // Hospitality's night audit (docs/HOSPITALITY.md "Folio and night audit"): run here, and how often it looks.
  NIGHT_AUDIT: bool.default(true),
  NIGHT_AUDIT_INTERVAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(60_000),
  // Ticket orders (docs/EVENTS.md "Holds"): how long an order holds its tickets, and how often expired holds are released.
  EVENT_HOLD_MINUTES: z.coerce.number().int().min(1).max(60).default(10),
  EVENT_HOLD_RELEASE: bool.default(true),
  EVENT_HOLD_INTERVAL_MS: z.coerce.number().int().min(10).max(600_000).default(15_000),
  // Invoice PDFs (docs/INVOICES.md "PDFs"): worker threads, renders that may wait for one, one render's limit.
  PDF_WORKERS: z.coerce.number().int().min(1).max(16).default(1),
  PDF_QUEUE_MAX: z.coerce.number().int().min(0).max(1_000).default(16),
  PDF_RENDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  // Live provider (ClickPesa, docs/PROVIDERS.md); unset means live payments are refused as unavailable.
  PROVIDER_BASE_URL: z.string().url().optional(),
  PROVIDER_CLIENT_ID: z.string().optional(),
  PROVIDER_API_KEY: z.string().optional(),
  PROVIDER_CHECKSUM_KEY: z.string().optional(),
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  // How often pending live payments are checked against the provider (0 turns it off).
  PROVIDER_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(0).default(300_000),
});

export type Config = z.infer<typeof configSchema> & { publicUrl: string };

/** Settings whose empty value means something (none at all), rather than "use the default". */
const EMPTY_MEANS_NONE = new Set(['SUBSCRIPTION_RETRY_DAYS']);

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(
    Object.fromEntries(
      Object.entries(env).filter(
        ([name, value]) => value !== undefined && (value !== '' || EMPTY_MEANS_NONE.has(name)),
      ),
    ),
  );
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const config = parsed.data;
  return {
    ...config,
    publicUrl: (config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`).replace(/\/$/, ''),
  };
}
