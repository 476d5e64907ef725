import Koa from 'koa';
import Router from '@koa/router';
import { AppError } from '@tz/core';
import type { AnyRoute } from './route.ts';
import {
  presentedCredential,
  requestEnvelope,
  routeHandler,
  type PipelineDeps,
  type RequestState,
} from './pipeline.ts';
import { enforceRateLimit } from './rate-limit.ts';
import { buildOpenApi, type OpenApiExtras } from './openapi.ts';
import { pageRoutes } from './pages.ts';
import { invoicePageRoutes } from './invoice-page.ts';
import { receiptPageRoutes } from './receipt-page.ts';
import { officeStaticRouter, tillStaticRouter } from './till-static.ts';
import { officeSessionRoutes } from './office-session.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from './errors.ts';
import { urlProblem } from './input.ts';

export interface AppOptions extends PipelineDeps {
  routes: AnyRoute[];
  openApiExtras?: OpenApiExtras;
  /** Extra routers mounted outside /v1 (provider callbacks, the till's files). */
  extraRouters?: Router<RequestState>[];
}

/** `/payments/{id}` -> `/payments/:id` for the router. */
const routerPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

export function createApp(options: AppOptions): Koa<RequestState> {
  const app = new Koa<RequestState>();
  const { services } = options;
  app.use(requestEnvelope(options));
  const pathTemplates = options.routes.map((route) => `/v1${route.path}`);
  app.use(async (ctx, next) => {
    const problem = urlProblem(ctx.url, () => ctx.query, pathTemplates);
    if (problem) throw problem;
    await next();
  });

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
  app.use(health.routes());

  const v1 = new Router<RequestState>({ prefix: '/v1' });
  // Built once per public URL: converting every route's schemas takes tens of milliseconds.
  let openApi: { url: string; document: unknown } | undefined;
  v1.get('/openapi.json', (ctx) => {
    const url = services.publicUrl();
    if (openApi?.url !== url)
      openApi = { url, document: buildOpenApi(options.routes, url, options.openApiExtras) };
    ctx.body = openApi.document;
  });
  for (const route of options.routes) {
    v1.register(routerPath(route.path), [route.method], routeHandler(route, options));
  }
  app.use(v1.routes());
  app.use(pageRoutes(options).routes());
  app.use(invoicePageRoutes(options).routes());
  app.use(receiptPageRoutes(options).routes());
  app.use(tillStaticRouter().routes());
  app.use(officeSessionRoutes(options).routes());
  app.use(officeStaticRouter().routes());
  for (const router of options.extraRouters ?? []) app.use(router.routes());

  // Unknown /v1 routes still answer with rate-limit headers and the error object.
  app.use(async (ctx) => {
    if (ctx.path.startsWith('/v1')) await chargeUnknownRoute(ctx, options);
    throw new AppError('route_not_found', `Unrecognized request URL (${ctx.method} ${ctx.path})`);
  });
  return app;
}

/**
 * A request to an unknown route counts against the key it carries, when the key
 * is valid (and shows in that merchant's request log): a merchant's misconfigured
 * client must not spend the address quota that sign-up and the hosted checkout
 * page share with everyone behind the address.
 */
async function chargeUnknownRoute(ctx: Koa.ParameterizedContext<RequestState>, options: AppOptions) {
  let presented: string | undefined;
  try {
    presented = presentedCredential(ctx);
  } catch {
    presented = undefined; // a malformed header is no key: the address pays
  }
  const actor = presented
    ? await options.services.merchants.authenticate(options.services.database.pool, presented)
    : null;
  if (!actor) return enforceRateLimit(ctx, options.rateLimits.perAddress, ctx.ip);
  ctx.state.actor = actor;
  return enforceRateLimit(ctx, options.rateLimits.perCredential, actor.credentialId);
}
