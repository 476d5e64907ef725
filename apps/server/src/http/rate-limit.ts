import type Koa from 'koa';
import { Redis } from 'ioredis';
import {
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { AppError } from '@tz/core';
import type { Database } from '../db/database.ts';

export interface RateLimits {
  /** Per API key or session. */
  perCredential: RateLimiterAbstract;
  /** Per client address, for routes without a key (sign-up, login, hosted checkout) and failed auth. */
  perAddress: RateLimiterAbstract;
  /** Failed logins per email, against password guessing spread over addresses. */
  loginFailures: RateLimiterAbstract;
  /** Settles once Redis is connected (or after a short wait; the database counts until then). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface RateLimitSettings {
  redisUrl?: string | undefined;
  max: number;
  windowSeconds: number;
  publicMax: number;
  publicWindowSeconds: number;
  /** Namespace of the counters, for deployments (or test runs) sharing one store. */
  keyPrefix: string;
}

/**
 * Counters live in Redis when REDIS_URL is set, otherwise in the database, so
 * every server process enforces one shared quota.
 */
export function createRateLimits(database: Database, settings: RateLimitSettings): RateLimits {
  const redis = settings.redisUrl
    ? new Redis(settings.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 })
    : undefined;
  redis?.on('error', () => undefined); // reconnects by itself; the database counters stand in meanwhile
  const make = (name: string, points: number, duration: number): RateLimiterAbstract => {
    const keyPrefix = `${settings.keyPrefix}_${name}`;
    const inDatabase = new RateLimiterPostgres({
      storeClient: unnamedStatements(database),
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      clearExpiredByTimeout: false,
      keyPrefix,
      points,
      duration,
    });
    if (!redis) return inDatabase;
    // While Redis is unreachable, the database keeps counting, so limits hold through its outage.
    return new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points,
      duration,
      rejectIfRedisNotReady: true,
      insuranceLimiter: inDatabase,
    });
  };
  return {
    perCredential: make('key', settings.max, settings.windowSeconds),
    perAddress: make('addr', settings.publicMax, settings.publicWindowSeconds),
    loginFailures: make('login', 10, 15 * 60),
    ready: redis
      ? new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 2_000);
          redis.once('ready', () => {
            clearTimeout(timer);
            resolve();
          });
        })
      : Promise.resolve(),
    close() {
      redis?.disconnect();
      return Promise.resolve();
    },
  };
}

/**
 * The limiter names its prepared statements; on the embedded database every
 * connection shares one session, where a name made on one connection collides
 * on the next. Unnamed statements work on both.
 */
function unnamedStatements(database: Database) {
  return {
    query: (config: { text: string; values?: unknown[] }) => database.pool.query(config.text, config.values),
  };
}

/** Consumes one point and sets the RateLimit-* headers; throws a 429 when the quota is spent. */
export async function enforceRateLimit(ctx: Koa.Context, limiter: RateLimiterAbstract, key: string): Promise<void> {
  let result: RateLimiterRes;
  let limited = false;
  try {
    result = await limiter.consume(key);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    result = error;
    limited = true;
  }
  const resetSeconds = Math.ceil(result.msBeforeNext / 1000);
  ctx.set('RateLimit-Limit', String(limiter.points));
  ctx.set('RateLimit-Remaining', String(Math.max(0, result.remainingPoints)));
  ctx.set('RateLimit-Reset', String(Math.ceil((Date.now() + result.msBeforeNext) / 1000)));
  if (limited) {
    throw new AppError('rate_limited', `Too many requests; retry after ${Math.max(1, resetSeconds)} s`, {
      retryAfter: Math.max(1, resetSeconds),
    });
  }
}

/** Read-only look at a quota, for counting failures without charging successes. */
export async function isBlocked(limiter: RateLimiterAbstract, key: string): Promise<number | null> {
  const current = await limiter.get(key);
  if (current && current.consumedPoints >= limiter.points) return Math.max(1, Math.ceil(current.msBeforeNext / 1000));
  return null;
}
