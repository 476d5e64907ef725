import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');
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
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(20),
  REDIS_URL: z.string().optional(),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(100),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(1),
  RATE_LIMIT_KEY_PREFIX: z.string().regex(/^[a-z0-9_]{1,40}$/).default('rl'),
  PUBLIC_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(30),
  PUBLIC_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  FEE_BASIS_POINTS: z.coerce.number().int().min(0).max(10_000).default(150),
  FEE_FIXED: z.coerce.number().int().min(0).default(0),
  SANDBOX_SETTLE_MS: z.coerce.number().int().min(0).default(800),
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).default(12),
  CHECKOUT_TTL_MINUTES: z.coerce.number().int().min(1).default(60),
  IDEMPOTENCY_TTL_HOURS: z.coerce.number().int().min(24).default(24),
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(100_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  VALIDATE_RESPONSES: bool.default(false),
  WEBHOOK_RETRY_DELAYS_MS: msList.default([0, 60_000, 300_000]),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  WEBHOOK_ALLOW_PRIVATE_URLS: bool.default(false),
  // Live provider (ClickPesa-style adapter); unset means live payments are refused as unavailable.
  PROVIDER_BASE_URL: z.string().url().optional(),
  PROVIDER_CLIENT_ID: z.string().optional(),
  PROVIDER_API_KEY: z.string().optional(),
  PROVIDER_CHECKSUM_KEY: z.string().optional(),
});

export type Config = z.infer<typeof configSchema> & { publicUrl: string };

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== '')),
  );
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const config = parsed.data;
  return { ...config, publicUrl: (config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`).replace(/\/$/, '') };
}
