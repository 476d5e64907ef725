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
import { urlProblem } from './input.ts';

export interface AppOptions extends PipelineDeps {
  routes: AnyRoute[];
  openApiExtras?: OpenApiExtras;
  /** The routers outside /v1, mounted after it in this order (routes/index.ts). */
  routers: Router<RequestState>[];
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

  const v1 = new Router<RequestState>({ prefix: '/v1' });
  // Built once per public URL: converting every route's schemas takes tens of milliseconds.
  let openApi: { url: string; document: unknown } | undefined;
  v1.get('/openapi.json', (ctx) => {
    const url = services.publicUrl;
    if (openApi?.url !== url)
      openApi = { url, document: buildOpenApi(options.routes, url, options.openApiExtras) };
    ctx.body = openApi.document;
  });
  for (const route of options.routes) {
    v1.register(routerPath(route.path), [route.method], routeHandler(route, options));
  }
  app.use(v1.routes());
  for (const router of options.routers) app.use(router.routes());

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
