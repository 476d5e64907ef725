import type Koa from 'koa';
import { AppError } from '@tz/core';
import type { Quota } from '../infra/rate-limits.ts';

/** Consumes one point and sets the RateLimit-* headers; throws a 429 when the quota is spent. */
export async function enforceRateLimit(ctx: Koa.Context, quota: Quota, key: string): Promise<void> {
  const { limited, remaining, msBeforeNext } = await quota.consume(key);
  const resetSeconds = Math.ceil(msBeforeNext / 1000);
  ctx.set('RateLimit-Limit', String(quota.points));
  ctx.set('RateLimit-Remaining', String(Math.max(0, remaining)));
  ctx.set('RateLimit-Reset', String(Math.ceil((Date.now() + msBeforeNext) / 1000)));
  if (limited) {
    throw new AppError('rate_limited', `Too many requests; retry after ${Math.max(1, resetSeconds)} s`, {
      retryAfter: Math.max(1, resetSeconds),
    });
  }
}
