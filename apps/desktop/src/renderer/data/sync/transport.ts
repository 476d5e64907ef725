/**
 * How the till reaches the server: the `sync.*` tRPC procedures of
 * `@tz/core`'s protocol, over HTTP (queries and mutations) and SSE (the live
 * change stream). The engine takes a `SyncTransport`, so tests give it one
 * that records calls; the page gives it `trpcTransport`.
 */
import {
  createTRPCUntypedClient,
  httpLink,
  httpSubscriptionLink,
  splitLink,
  TRPCClientError,
} from '@trpc/client';
import type {
  ChangeHint,
  CheckinVerdict,
  Command,
  DoorCheckinInput,
  DoorJudgement,
  ErrorCode,
  PairResult,
  PullInput,
  PullResult,
  PushResult,
  ReportResult,
  TillPayment,
} from '@tz/core';
import { asServerCode } from '../api.ts';

export interface ChangeHandlers {
  onHint(hint: ChangeHint): void;
  /** The stream (re)connected: anything missed while it was down must be pulled. */
  onStarted(): void;
  /** The stream is in trouble (an error, or silence past the server's pings); it reconnects by itself. */
  onError(error: unknown): void;
  /** The stream stopped for good (the server refused it): open a new one to hear more. */
  onEnded?(error: unknown): void;
}

export interface SyncTransport {
  pair(input: { code: string }): Promise<PairResult>;
  pull(input: PullInput): Promise<PullResult>;
  push(input: { commands: Command[] }): Promise<PushResult>;
  /** Also says whether the till may still sell (`retiring`: no; `retired`: its backlog arrived). */
  report(input: { app_version: string; backlog: number }): Promise<ReportResult>;
  startPayment(input: { id: string; amount: number; currency: string; phone: string }): Promise<TillPayment>;
  getPayment(input: { payment: string }): Promise<TillPayment>;
  /** The door's question (`sync.doorCheckin`): the server's verdict, its holder admitted on `ok`. */
  doorCheckin(input: DoorCheckinInput): Promise<DoorCheckinAnswer>;
  /** Subscribes to `sync.changes`; returns what stops it. */
  changes(handlers: ChangeHandlers): () => void;
}

/** The server's check-in object, as `POST /v1/events/checkin` answers. */
export interface DoorCheckinAnswer extends DoorJudgement {
  object: 'checkin';
  verdict: CheckinVerdict;
  event: string;
  door: string;
  order: string | null;
}

/**
 * Why a call failed. `unreachable`: no answer, or the server could not try
 * (5xx): send again later. `revoked`: this device may no longer sync.
 * `retired`: the till was retired and its backlog arrived; it has nothing to do.
 * `rejected`: the server answered no (4xx) for a reason the message gives.
 */
export type FailureKind = 'unreachable' | 'revoked' | 'retired' | 'rejected';

export function classifyFailure(error: unknown): FailureKind {
  if (error instanceof TRPCClientError) {
    const code = failureCode(error);
    if (code === 'till_revoked') return 'revoked';
    if (code === 'till_retired') return 'retired';
    const status = ((error as TRPCClientError<never>).data as { httpStatus?: number } | undefined)
      ?.httpStatus;
    if (status === undefined || status >= 500 || status === 429 || status === 408) return 'unreachable';
    return 'rejected';
  }
  const marked = error as { kind?: FailureKind } | null;
  if (marked?.kind === 'revoked' || marked?.kind === 'retired' || marked?.kind === 'rejected')
    return marked.kind;
  return 'unreachable';
}

/**
 * The server's error code (`data.code`, its closed set) of a failure; no
 * answer, or a code this till does not know (a newer server's), reads as `unknown`.
 */
export function failureCode(error: unknown): ErrorCode | 'unknown' {
  const data = error instanceof TRPCClientError ? (error as TRPCClientError<never>).data : undefined;
  return asServerCode((data as { code?: unknown } | undefined)?.code);
}

export function failureMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function trpcTransport(options: {
  serverUrl: string;
  credential: () => string | null;
  /** For runtimes without a global `EventSource` (Node before 22). */
  EventSource?: typeof globalThis.EventSource;
}): SyncTransport {
  const url = `${options.serverUrl.replace(/\/$/, '')}/trpc`;
  const headers = (): Record<string, string> => {
    const credential = options.credential();
    return credential ? { authorization: `Bearer ${credential}` } : {};
  };
  const client = createTRPCUntypedClient({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({
          url,
          ...(options.EventSource ? { EventSource: options.EventSource } : {}),
          connectionParams: () => ({ credential: options.credential() ?? '' }),
        }),
        // One request per call: a big push is never held behind a pull.
        false: httpLink({ url, headers }),
      }),
    ],
  });

  return {
    pair: (input) => client.mutation('sync.pair', input) as Promise<PairResult>,
    pull: (input) => client.query('sync.pull', input) as Promise<PullResult>,
    push: (input) => client.mutation('sync.push', input) as Promise<PushResult>,
    report: (input) => client.mutation('sync.report', input) as Promise<ReportResult>,
    startPayment: (input) => client.mutation('sync.startPayment', input) as Promise<TillPayment>,
    getPayment: (input) => client.query('sync.getPayment', input) as Promise<TillPayment>,
    doorCheckin: (input) => client.mutation('sync.doorCheckin', input) as Promise<DoorCheckinAnswer>,
    changes(handlers) {
      // The link resends the last tracked id on reconnect, so the server resumes after it.
      const subscription = client.subscription(
        'sync.changes',
        { lastEventId: null },
        {
          onStarted: () => handlers.onStarted(),
          onData: (event: unknown) => {
            const tracked = event as { data?: ChangeHint } | ChangeHint;
            const hint = 'data' in tracked && tracked.data ? tracked.data : (tracked as ChangeHint);
            handlers.onHint(hint);
          },
          // Only a stream that will not reconnect by itself ends here.
          onError: (error: unknown) => (handlers.onEnded ?? handlers.onError)(error),
          onConnectionStateChange: (state: { state: string; error?: unknown }) => {
            if (state.state === 'connecting' && state.error) handlers.onError(state.error);
          },
        },
      );
      return () => subscription.unsubscribe();
    },
  };
}
