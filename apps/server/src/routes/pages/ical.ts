import Router from '@koa/router';
import { AppError } from '@tz/core';
import type { PipelineDeps, RequestState } from '../../http/pipeline.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';

/** The path logs show instead of the real one: the token is the calendar's only secret. */
export const ICAL_LOG_PATH = '/ical/:token.ics';

/**
 * A room type's calendar for channels at `/ical/{token}.ics`: no key, the token
 * is the capability. Read from the database on each request, so a booking is
 * in it from its commit; a rotated or revoked token answers 404.
 */
export function icalRoutes(deps: PipelineDeps): Router<RequestState> {
  const router = new Router<RequestState>();
  const { services } = deps;
  router.get('/ical/:file', async (ctx) => {
    ctx.state.loggedPath = ICAL_LOG_PATH;
    await enforceRateLimit(ctx, deps.rateLimits.perAddress, ctx.ip);
    const file = ctx.params.file!;
    const calendar = file.endsWith('.ics')
      ? await services.channels.calendar(services.database.pool, file.slice(0, -'.ics'.length))
      : null;
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Robots-Tag', 'noindex');
    if (calendar === null) throw new AppError('resource_missing', 'No calendar at this address');
    ctx.type = 'text/calendar; charset=utf-8';
    ctx.body = calendar;
  });
  return router;
}
