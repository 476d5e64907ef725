import type { z } from 'zod';
import type { AppSlug } from '@tz/core';
import type { Actor } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { Services } from '../services.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * - `secret`: secret keys and login sessions only.
 * - `publishable`: also publishable keys (checkout creation and retrieval).
 * - `none`: no key; rate limited per client address instead.
 */
export type RouteAuth = 'secret' | 'publishable' | 'none';

export interface HandlerInput<B, Q, P, A extends RouteAuth> {
  body: B;
  query: Q;
  params: P;
  auth: A extends 'none' ? undefined : Actor;
  /** The request's transaction for writes, the pool for reads. */
  db: Queryable;
  services: Services;
  /** Runs after the transaction commits (e.g. asking a provider to start a payment). */
  afterCommit: (task: () => Promise<void>) => void;
  /** Answers with another success status than the route's, e.g. 200 when a create finds its object already made. */
  respondWith: (status: 200 | 201) => void;
  requestId: string;
  ip: string;
}

export interface RouteSpec<
  B = unknown,
  Q = unknown,
  P = unknown,
  R = unknown,
  A extends RouteAuth = RouteAuth,
> {
  method: HttpMethod;
  /** OpenAPI-style path relative to /v1, e.g. `/payments/{id}`. */
  path: string;
  summary: string;
  tag: string;
  auth: A;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  response: z.ZodType<R>;
  status?: 200 | 201;
  /** The app the route belongs to: while the merchant has it removed, the route answers 403 `app_not_installed`. */
  app?: AppSlug;
  /** A response that is a file rather than JSON (the handler returns its bytes). */
  contentType?: 'application/pdf' | 'text/csv';
  /** A larger body than `MAX_BODY_BYTES` allows, for a route that takes a file (a till's export). */
  maxBodyBytes?: number;
  /** Writes run in one transaction by default; a route that must persist across its own failure opts out. */
  transactional?: boolean;
  /**
   * A read of an object kept in several tables (an escrow and its splits): its
   * statements share one snapshot, so it never shows half of a change.
   */
  snapshotRead?: boolean;
  description?: string;
  /**
   * What an Idempotency-Key stores for replay, for a response holding a secret
   * shown once (API keys, session tokens, webhook secrets): the stored copy, and
   * so every replay, carries it masked or not at all. Default: the response.
   */
  storedResponse?(output: R): unknown;
  handler(input: HandlerInput<B, Q, P, A>): Promise<R>;
}

// `any` in the erased registry type only: each spec is checked where it is defined.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteSpec<any, any, any, any, RouteAuth>;

/** Declares a route; types flow from the schemas to the handler. */
export function defineRoute<
  B = undefined,
  Q = undefined,
  P = undefined,
  R = unknown,
  A extends RouteAuth = 'secret',
>(spec: RouteSpec<B, Q, P, R, A>): AnyRoute {
  return spec as AnyRoute;
}

/** The response as an Idempotency-Key stores and replays it (see `storedResponse`). */
export const responseForReplay = (route: AnyRoute, output: unknown): unknown =>
  route.storedResponse ? route.storedResponse(output) : output;
