/**
 * The tills' door: tRPC at `/trpc`, mounted in Koa through tRPC's node HTTP
 * handler (queries, mutations and the SSE subscription). Every procedure but
 * `pair` acts as the till its device credential names; each calls the sync
 * service, which calls the same services as the REST routes.
 */
import Router from '@koa/router';
import { initTRPC, tracked } from '@trpc/server';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import {
  AppError,
  changesInput,
  doorCheckinInput,
  getPaymentInput,
  pairInput,
  pullInput,
  pushInput,
  reportInput,
  startPaymentInput,
  type ChangeHint,
} from '@tz/core';
import type { Services } from '../services.ts';
import type { RequestState } from '../http/pipeline.ts';
import { admitTillCall, type TillCall } from '../http/trpc-boundary.ts';
import { toAppError } from '../http/errors.ts';
import { appErrorOf } from '../http/trpc-errors.ts';

interface Context {
  sync: Services['sync'];
  /** What the boundary admitted, or why it refused the call. */
  call: TillCall | { refused: AppError };
}

/** How often the live stream pings a till, and how long a till waits through silence. */
export const SSE_PING_MS = 2000;
export const SSE_SILENCE_MS = 5000;

const t = initTRPC.context<Context>().create({
  // The live stream pings a quiet till; a till that hears nothing for longer
  // than a few pings reconnects and checks whether the server is still there.
  sse: {
    ping: { enabled: true, intervalMs: SSE_PING_MS },
    client: { reconnectAfterInactivityMs: SSE_SILENCE_MS },
  },
  // The same words, codes and statuses as the REST API's error object (ERROR_KINDS); no stack, ever.
  errorFormatter({ shape, error }) {
    const appError = appErrorOf(error);
    const { status, trpc } = appError.kind;
    return {
      code: TRPC_ERROR_CODES_BY_KEY[trpc],
      message: appError.message,
      data: {
        code: appError.code,
        // tRPC answers with this status.
        httpStatus: status,
        path: shape.data.path,
        ...(appError.details ? { details: appError.details } : {}),
      },
    };
  },
});

/**
 * A call the boundary refused goes no further: every procedure starts here.
 * Procedures throw AppErrors as they are; the error formatter answers them.
 */
const admitted = t.procedure.use(({ ctx, next }) => {
  if ('refused' in ctx.call) throw ctx.call.refused;
  return next({ ctx: { call: ctx.call } });
});

const tillProcedure = admitted.use(({ ctx, next }) => {
  if (!ctx.call.till) throw new AppError('till_credential_invalid', 'Send the till’s device credential');
  return next({ ctx: { till: ctx.call.till } });
});

const syncRouter = t.router({
  pair: admitted.input(pairInput).mutation(({ ctx, input }) => ctx.sync.pair(input.code)),
  pull: tillProcedure.input(pullInput).query(({ ctx, input }) => ctx.sync.pull(ctx.till, input)),
  push: tillProcedure.input(pushInput).mutation(async ({ ctx, input }) => ({
    results: await ctx.sync.push(ctx.till, input.commands, ctx.call.refusedCommands),
  })),
  report: tillProcedure.input(reportInput).mutation(({ ctx, input }) => ctx.sync.report(ctx.till, input)),
  startPayment: tillProcedure
    .input(startPaymentInput)
    .mutation(({ ctx, input }) => ctx.sync.startPayment(ctx.till, input)),
  getPayment: tillProcedure
    .input(getPaymentInput)
    .query(({ ctx, input }) => ctx.sync.getPayment(ctx.till, input.payment)),
  doorCheckin: tillProcedure
    .input(doorCheckinInput)
    .mutation(({ ctx, input }) => ctx.sync.doorCheckin(ctx.till, input)),
  // A failure ends the stream with the error object (a revoked till: `till_revoked`).
  changes: tillProcedure.input(changesInput).subscription(async function* ({ ctx, input, signal }) {
    const since = Number(input.lastEventId ?? 0);
    for await (const change of ctx.sync.changes(ctx.till, since, signal ?? new AbortController().signal)) {
      const hint: ChangeHint = { collections: change.collections };
      yield tracked(String(change.seq), hint);
    }
  }),
});

export const tillRouter = t.router({ sync: syncRouter });
export type TillRouter = typeof tillRouter;

/** Origins besides the server's own that may call `/trpc`: the desktop app's. */
const DESKTOP_ORIGIN = 'app://till';

/**
 * Mounts `/trpc` in Koa: the boundary admits the call (trpc-boundary.ts), then
 * tRPC answers it, refusals included, in its own shape.
 */
export function trpcRoutes(services: Services): Router<RequestState> {
  const { sync } = services;
  const router = new Router<RequestState>();
  router.all('/trpc/:path', async (ctx) => {
    if (ctx.get('Origin') === DESKTOP_ORIGIN) {
      ctx.set('Access-Control-Allow-Origin', DESKTOP_ORIGIN);
      ctx.set('Access-Control-Allow-Headers', 'authorization, content-type, trpc-accept, last-event-id');
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      ctx.set('Vary', 'Origin');
      if (ctx.method === 'OPTIONS') {
        ctx.status = 204;
        return;
      }
    }
    const path = ctx.params.path!;
    let call: Context['call'];
    try {
      call = await admitTillCall(ctx, services, sync, path);
    } catch (error) {
      // A database out of reach is a 503 the till retries; the cause goes to the log.
      if (!(error instanceof AppError))
        services.logger.error({ err: error }, `till call ${path} failed at the door`);
      call = { refused: toAppError(error) };
      // The body was not read (or not all of it): the connection closes after the answer.
      if (!ctx.req.complete) ctx.set('Connection', 'close');
    }
    // tRPC never reads the socket: it takes the body the boundary read, if any.
    (ctx.req as { body?: string | undefined }).body = 'refused' in call ? '{}' : call.body;
    // Koa must not answer after tRPC did: headers set above go out with tRPC's answer.
    ctx.status = 200;
    ctx.respond = false;
    for (const [name, value] of Object.entries(ctx.response.headers)) {
      if (value !== undefined) ctx.res.setHeader(name, value);
    }
    await nodeHTTPRequestHandler({
      router: tillRouter,
      req: ctx.req,
      res: ctx.res,
      path,
      // One procedure per request, so the boundary knows which it admits.
      allowBatching: false,
      // A failure no code names (a fault of ours, the database out of reach) goes to the log.
      onError: ({ error }) => {
        if (!(error.cause instanceof AppError) && error.code === 'INTERNAL_SERVER_ERROR')
          services.logger.error({ err: error.cause ?? error }, `till call ${path} failed`);
      },
      createContext: () => ({ sync, call }),
    });
  });
  return router;
}
