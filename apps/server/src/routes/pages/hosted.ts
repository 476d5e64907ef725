/** What the hosted pages share: HTML escaping, and the pay step through the write path. */
import type Koa from 'koa';
import { z } from 'zod';
import { tanzanianMobileSchema } from '@tz/core';
import { IDEMPOTENCY_HEADER, parseIdempotencyKey } from '../../http/idempotency-header.ts';
import type { PipelineDeps, RequestState } from '../../http/pipeline.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';
import { readJsonBody } from '../../http/body.ts';
import { validationError } from '../../http/errors.ts';
import type { Queryable } from '../../db/database.ts';
import { idempotencyScope } from '../../infra/idempotency.ts';

export const escapeHtml = (value: string): string =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const payBody = z.strictObject({ phone: tanzanianMobileSchema });

/**
 * A hosted page's pay step (`POST /pay/{id}`, `POST /invoice/{token}/pay`): the
 * payer's phone, through the write path. The payer has no account, so an
 * Idempotency-Key is scoped to the page's object.
 */
export async function hostedPay(
  deps: PipelineDeps,
  ctx: Koa.ParameterizedContext<RequestState>,
  page: 'checkout' | 'invoice',
  id: string,
  pay: (
    db: Queryable,
    id: string,
    phone: string,
    afterCommit: (task: () => Promise<void>) => void,
  ) => Promise<{ id: string; status: string }>,
): Promise<void> {
  const { services } = deps;
  await enforceRateLimit(ctx, deps.rateLimits.perAddress, ctx.ip);
  const { value } = await readJsonBody(ctx, { ...services.config, MAX_BODY_BYTES: 10_000 });
  const parsed = payBody.safeParse(value ?? {});
  if (!parsed.success) throw validationError(parsed.error, 'body', value ?? {});
  const key = parseIdempotencyKey(ctx.headers[IDEMPOTENCY_HEADER]);
  const outcome = await services.writes.run({
    idempotency: key
      ? {
          scope: idempotencyScope({ page, id }, page === 'checkout' ? 'POST /pay' : 'POST /invoice/pay', key),
          body: value ?? null,
        }
      : undefined,
    token: ctx.state.requestId,
    work: async ({ db, afterCommit }) => {
      const payment = await pay(db, id, parsed.data.phone, afterCommit);
      return { status: 201, body: { payment: payment.id, status: payment.status } };
    },
  });
  if (outcome.kind === 'replay') ctx.set('Idempotent-Replayed', 'true');
  ctx.status = outcome.status;
  ctx.body = outcome.body;
}
