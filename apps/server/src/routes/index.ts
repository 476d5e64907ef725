/**
 * Every URL the server answers outside `/v1`, each in the file its path names,
 * mounted after `/v1` in this order. `/v1` is `v1/index.ts`: a route's file is
 * named by its URL's first segment (`/v1/payments/{id}` in `v1/payments.ts`),
 * and under `/v1/retail/` by the second (`v1/retail/stores.ts`).
 */
import type Router from '@koa/router';
import type { PipelineDeps, RequestState } from '../http/pipeline.ts';
import { clickPesaCallbackRouter } from './callbacks/clickpesa.ts';
import { healthRoutes } from './healthz.ts';
import { icalRoutes } from './pages/ical.ts';
import { officeSessionRoutes } from './office/session.ts';
import { docsRoutes } from './pages/docs.ts';
import { invoicePageRoutes } from './pages/invoice.ts';
import { officeStaticRouter } from './pages/office.ts';
import { payRoutes } from './pages/pay.ts';
import { receiptPageRoutes } from './pages/receipt.ts';
import { ticketPageRoutes } from './pages/tickets.ts';
import { tillStaticRouter } from './pages/till.ts';
import { trpcRoutes } from './trpc.ts';

export function routersOutsideV1(deps: PipelineDeps): Router<RequestState>[] {
  const { services } = deps;
  const live = services.liveProvider;
  return [
    healthRoutes(services), // /healthz
    docsRoutes(), // /docs
    payRoutes(deps), // /pay/{id}
    invoicePageRoutes(deps), // /invoice/{token}
    receiptPageRoutes(deps), // /receipt/{token}
    ticketPageRoutes(deps), // /t/{token}, a ticket order's short link
    icalRoutes(deps), // /ical/{token}.ics
    tillStaticRouter(), // /till/
    officeSessionRoutes(deps), // /office/session
    officeStaticRouter(), // /office/
    trpcRoutes(services), // /trpc
    // /callbacks/clickpesa, when live payments are configured
    ...(live ? [clickPesaCallbackRouter(services, live.options.checksumKey, deps.logger)] : []),
  ];
}
