/** `/healthz`: whether this process can reach its database, within seconds; 503 when it cannot. */
import Router from '@koa/router';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../http/errors.ts';
import type { RequestState } from '../http/pipeline.ts';
import type { Services } from '../services.ts';

export function healthRoutes(services: Services): Router<RequestState> {
  const health = new Router<RequestState>();
  health.get('/healthz', async (ctx) => {
    try {
      // Its own short wait: an unreachable database is reported within seconds.
      let timer: NodeJS.Timeout | undefined;
      const silent = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer within 2 s')), 2_000);
      });
      await Promise.race([services.database.pool.query('SELECT 1'), silent]).finally(() =>
        clearTimeout(timer),
      );
      ctx.body = { status: 'ok', database: 'ok', database_kind: services.database.kind };
    } catch (error) {
      ctx.status = 503;
      ctx.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      ctx.body = {
        status: 'unavailable',
        database: `unreachable: ${error instanceof Error ? error.message : 'unknown error'}`,
        database_kind: services.database.kind,
      };
    }
  });
  return health;
}
