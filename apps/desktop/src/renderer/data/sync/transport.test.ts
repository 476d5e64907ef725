/**
 * The tRPC transport against a real tRPC server over HTTP and SSE, built to
 * the protocol's procedure names, inputs and revocation answer.
 */
import { initTRPC, TRPCError, tracked } from '@trpc/server';
import { createHTTPServer } from '@trpc/server/adapters/standalone';
import { EventSource } from 'eventsource';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { pullInput, pushInput, reportInput } from '@tz/core';
import type { ChangeHint, commandSchema } from '@tz/core';
import { z } from 'zod';
import { classifyFailure, trpcTransport } from './transport.ts';
import { PAIRING, settle } from '../../../../test/till-data.ts';

interface Context {
  credential: string | null;
}

const t = initTRPC.context<Context>().create({
  sse: { ping: { enabled: false } },
  // The server's answer to a revoked till: UNAUTHORIZED with data.code 'till_revoked'.
  errorFormatter: ({ shape, error }) =>
    error.message === 'till_revoked' ? { ...shape, data: { ...shape.data, code: 'till_revoked' } } : shape,
});

const seen: { credentials: Array<string | null>; inputs: unknown[] } = { credentials: [], inputs: [] };
let revoked = false;

const authed = t.procedure.use(({ ctx, next }) => {
  seen.credentials.push(ctx.credential);
  if (revoked) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'till_revoked' });
  return next();
});

const router = t.router({
  sync: t.router({
    pair: t.procedure.input(z.object({ code: z.string() })).mutation(({ input }) => {
      if (input.code !== 'GOOD-CODE') throw new TRPCError({ code: 'NOT_FOUND', message: 'no such code' });
      return PAIRING;
    }),
    pull: authed.input(pullInput).query(({ input }) => {
      seen.inputs.push(input);
      return { documents: [], checkpoint: input.checkpoint };
    }),
    push: authed.input(pushInput).mutation(({ input }) => ({
      results: input.commands.map((c: z.infer<typeof commandSchema>) => ({
        id: c.id,
        status: 'applied',
        result: {},
      })),
    })),
    report: authed.input(reportInput).mutation(({ input }) => {
      seen.inputs.push(input);
      return { ok: true };
    }),
    changes: authed.input(z.object({ lastEventId: z.string().nullish() })).subscription(async function* ({
      input,
    }) {
      seen.inputs.push(input);
      const hint: ChangeHint = { collections: ['products'] };
      yield tracked('41', hint);
      yield tracked('42', { collections: ['orders'], payments: ['pay_1'] } satisfies ChangeHint);
      await new Promise((resolve) => setTimeout(resolve, 60_000));
    }),
  }),
});

let close: (() => void) | null = null;
afterEach(() => {
  close?.();
  close = null;
  revoked = false;
  seen.credentials = [];
  seen.inputs = [];
});

async function serve(): Promise<string> {
  const server = createHTTPServer({
    basePath: '/trpc/',
    router,
    createContext: ({ req, info }) => {
      const header = req.headers.authorization;
      const fromParams = info.connectionParams?.credential;
      return { credential: header?.replace(/^Bearer /, '') ?? fromParams ?? null };
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => server.close();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('trpcTransport', () => {
  it('pairs without a credential, then sends the credential as a bearer token on every call', async () => {
    const transport = trpcTransport({ serverUrl: await serve(), credential: () => 'tcred_abc' });
    await expect(transport.pair({ code: 'GOOD-CODE' })).resolves.toEqual(PAIRING);
    await transport.pull({ collection: 'products', checkpoint: { seq: 3, id: 'prod_3' }, limit: 1000 });
    await transport.push({
      commands: [{ id: 'cmd_01JDTESTTESTTESTTESTTESTTE', type: 'shift.open', created_at: 1, payload: {} }],
    });
    await transport.report({ app_version: '0.1.0', backlog: 0 });
    expect(seen.credentials).toEqual(['tcred_abc', 'tcred_abc', 'tcred_abc']);
    expect(seen.inputs).toEqual([
      { collection: 'products', checkpoint: { seq: 3, id: 'prod_3' }, limit: 1000 },
      { app_version: '0.1.0', backlog: 0 },
    ]);
  });

  it('tells a refusal from a revoked till and from a server that cannot be reached', async () => {
    const url = await serve();
    const transport = trpcTransport({ serverUrl: url, credential: () => 'tcred_abc' });
    const wrongCode = await transport.pair({ code: 'BAD-CODE' }).catch((error: unknown) => error);
    expect(classifyFailure(wrongCode)).toBe('rejected');
    const malformed = await transport.push({ commands: [] }).catch((error: unknown) => error);
    expect(classifyFailure(malformed)).toBe('rejected');
    revoked = true;
    const pulled = await transport
      .pull({ collection: 'products', checkpoint: null, limit: 10 })
      .catch((e: unknown) => e);
    expect(classifyFailure(pulled)).toBe('revoked');
    close?.();
    close = null;
    const nobody = trpcTransport({ serverUrl: 'http://127.0.0.1:9', credential: () => 'x' });
    const down = await nobody.report({ app_version: '0', backlog: 0 }).catch((error: unknown) => error);
    expect(classifyFailure(down)).toBe('unreachable');
  });

  it('streams change hints over SSE with the credential in connectionParams', async () => {
    const transport = trpcTransport({
      serverUrl: await serve(),
      credential: () => 'tcred_sse',
      EventSource: EventSource,
    });
    const hints: ChangeHint[] = [];
    let started = 0;
    const stop = transport.changes({
      onHint: (hint) => hints.push(hint),
      onStarted: () => (started += 1),
      onError: () => undefined,
    });
    await settle(() => expect(hints).toHaveLength(2));
    stop();
    expect(started).toBe(1);
    expect(hints).toEqual([{ collections: ['products'] }, { collections: ['orders'], payments: ['pay_1'] }]);
    expect(seen.credentials).toEqual(['tcred_sse']);
  });
});
