import { Redis } from 'ioredis';
import {
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Database } from '../db/database.ts';
import { DEFAULT_LOGIN_LIMITS, type LoginCounters, type LoginLimits } from './login-throttle.ts';

/** The answer to one request's charge against a quota. */
export interface QuotaCheck {
  limited: boolean;
  /** Points left in the window (0 when limited). */
  remaining: number;
  /** Until the window ends and the quota is whole again. */
  msBeforeNext: number;
}

/** A quota that `enforceRateLimit` charges one point per request. */
export interface Quota {
  readonly points: number;
  /** Charges one point; rejects only when the store fails. */
  consume(key: string): Promise<QuotaCheck>;
}

export interface RateLimits {
  /** Per API key or session. */
  perCredential: Quota;
  /** Per client address, for routes without a key (sign-up, login, hosted checkout) and failed auth. */
  perAddress: Quota;
  /** Login attempts per address, per address and email, and per email (see `LoginThrottle`). */
  login: LoginCounters;
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
  /** `DEFAULT_LOGIN_LIMITS` when absent. */
  login?: LoginLimits | undefined;
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
  const login = settings.login ?? DEFAULT_LOGIN_LIMITS;
  const make = (name: string, points: number, duration: number): RateLimiterAbstract => {
    const keyPrefix = `${settings.keyPrefix}_${name}`;
    const inDatabase = new RateLimiterPostgres({
      storeClient: database.pool,
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
    perCredential: new LeasedQuota(make('key', settings.max, settings.windowSeconds)),
    perAddress: new LeasedQuota(make('addr', settings.publicMax, settings.publicWindowSeconds)),
    login: {
      perAddress: make('login_addr', login.perAddress, login.windowSeconds),
      perAddressEmail: make('login_pair', login.perAddressEmail, login.windowSeconds),
      perEmail: make('login', login.perEmail, login.windowSeconds),
    },
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
 * Points taken from the shared store at once: an eighth of what the store has
 * left, at most a tenth of the quota, at least one. Far from the limit a busy
 * key costs the store one write per many requests; near it, one per request,
 * so the limit holds exactly. Points a process took but did not use lapse with
 * the window, so a key shared by several processes may be refused a few
 * requests early (at most an eighth of what was left, per process).
 */
export function leaseSize(points: number, storeRemaining: number): number {
  return Math.max(1, Math.min(Math.floor(storeRemaining / 8), Math.ceil(points / 10)));
}

interface Lease {
  /** Points taken from the store and not yet used here. */
  granted: number;
  /** What the store had left after the last lease. */
  storeRemaining: number;
  /** When the store's window ends (the lease lapses with it). */
  endsAt: number;
  /** A lease being taken, which concurrent requests for the key wait for. */
  pending?: Promise<void> | undefined;
  /** Set when the store refused: the key is spent until `endsAt`. */
  spent?: boolean;
}

const SWEEP_EVERY = 1024;

/** A shared quota consumed through leases: see `leaseSize`. */
export class LeasedQuota implements Quota {
  private readonly leases = new Map<string, Lease>();
  private takenSinceSweep = 0;

  constructor(private readonly store: RateLimiterAbstract) {}

  get points(): number {
    return this.store.points;
  }

  async consume(key: string): Promise<QuotaCheck> {
    for (;;) {
      const now = Date.now();
      let lease = this.leases.get(key);
      if (lease && lease.endsAt <= now) {
        this.leases.delete(key);
        lease = undefined;
      }
      if (lease?.pending) {
        await lease.pending;
        continue;
      }
      if (lease?.spent) return { limited: true, remaining: 0, msBeforeNext: lease.endsAt - now };
      if (lease && lease.granted > 0) {
        lease.granted -= 1;
        return {
          limited: false,
          remaining: lease.storeRemaining + lease.granted,
          msBeforeNext: lease.endsAt - now,
        };
      }
      await this.take(key, lease);
    }
  }

  private take(key: string, previous: Lease | undefined): Promise<void> {
    const size = leaseSize(this.points, previous?.storeRemaining ?? this.points);
    const lease: Lease = previous ?? {
      granted: 0,
      storeRemaining: this.points,
      endsAt: Number.POSITIVE_INFINITY,
    };
    this.leases.set(key, lease);
    this.sweep();
    lease.pending = this.store
      .consume(key, size)
      .then(
        (result) => {
          lease.granted += size;
          lease.storeRemaining = result.remainingPoints;
          lease.endsAt = Date.now() + result.msBeforeNext;
        },
        (error: unknown) => {
          if (!(error instanceof RateLimiterRes)) {
            this.leases.delete(key); // the store failed: the next request asks again
            throw error;
          }
          lease.spent = true;
          lease.endsAt = Date.now() + error.msBeforeNext;
        },
      )
      .finally(() => {
        lease.pending = undefined;
      });
    return lease.pending;
  }

  /** Drops lapsed leases now and then, so keys seen once do not pile up. */
  private sweep(): void {
    if (++this.takenSinceSweep < SWEEP_EVERY) return;
    this.takenSinceSweep = 0;
    const now = Date.now();
    for (const [key, lease] of this.leases)
      if (lease.endsAt <= now && !lease.pending) this.leases.delete(key);
  }
}
