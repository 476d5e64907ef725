import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import type Koa from 'koa';
import { z } from 'zod';
import { AppError, formatAmount, tanzanianMobileSchema, type Currency } from '@tz/core';
import { IDEMPOTENCY_HEADER, parseIdempotencyKey } from './idempotency-header.ts';
import type { PipelineDeps, RequestState } from './pipeline.ts';
import { enforceRateLimit } from './rate-limit.ts';
import { readJsonBody } from './body.ts';
import { validationError } from './errors.ts';
import type { Queryable } from '../db/database.ts';

const require = createRequire(import.meta.url);
const swaggerDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

export const escapeHtml = (value: string): string =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Merchant API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="docs"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#docs' });</script></body></html>`;

function checkoutPage(view: {
  id: string;
  business_name: string;
  amount: number;
  currency: Currency;
  description: string | null;
  status: string;
  livemode: boolean;
}): string {
  return `<!doctype html>
<html lang="sw"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pay ${escapeHtml(view.business_name)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:26rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
.card{border:1px solid #ddd;border-radius:12px;padding:1.5rem}
.amount{font-size:2rem;font-weight:700;margin:.5rem 0}
input,button{font-size:1.1rem;width:100%;padding:.7rem;margin-top:.6rem;box-sizing:border-box;border-radius:8px}
button{background:#0a7d3b;color:#fff;border:0}
.test{background:#fff3cd;padding:.4rem .6rem;border-radius:6px;font-size:.85rem}
#message{margin-top:1rem;min-height:1.5rem}
</style></head><body><div class="card">
${view.livemode ? '' : '<p class="test">Test mode: no real money moves. Use 0700000001 to succeed, 0700000002 to fail.</p>'}
<div>${escapeHtml(view.business_name)}</div>
<div class="amount" id="amount">${escapeHtml(formatAmount(view.amount, view.currency))}</div>
${view.description ? `<div>${escapeHtml(view.description)}</div>` : ''}
<form id="pay"><label for="phone">Mobile money number / Namba ya simu</label>
<input id="phone" name="phone" inputmode="tel" autocomplete="tel" placeholder="0XXX XXX XXX" required>
<button id="submit" type="submit">Pay / Lipa</button></form>
<div id="message" role="status"></div></div>
<script>
const id = ${JSON.stringify(view.id)};
const form = document.getElementById('pay');
const message = document.getElementById('message');
const show = (text) => { message.textContent = text; };
async function poll() {
  const res = await fetch('/pay/' + id + '/status');
  const s = await res.json();
  if (s.status === 'complete') { form.hidden = true; show('Paid. Thank you! / Malipo yamekamilika.'); if (s.success_url) location.href = s.success_url; return; }
  if (s.payment_status === 'failed') { form.hidden = false; show('Payment failed: ' + (s.failure_message || 'try again')); return; }
  if (s.status === 'expired') { form.hidden = true; show('This checkout has expired.'); return; }
  setTimeout(poll, 1000);
}
if (${JSON.stringify(view.status)} !== 'open') poll();
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  show('Sending request to your phone…');
  // One key per press: a press resent by a flaky network asks the phone once.
  const key = crypto.randomUUID();
  const res = await fetch('/pay/' + id, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key }, body: JSON.stringify({ phone: document.getElementById('phone').value }) });
  const body = await res.json();
  if (!res.ok) { show(body.message || 'Could not start the payment'); return; }
  form.hidden = true;
  show('Approve the payment on your phone. / Thibitisha malipo kwenye simu yako.');
  poll();
});
</script></body></html>`;
}

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
          scope: {
            merchantId: `${page}:${id}`,
            livemode: false,
            operation: page === 'checkout' ? 'POST /pay' : 'POST /invoice/pay',
            key,
          },
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

/** Pages served outside /v1: the API reference and the hosted checkout page. */
export function pageRoutes(deps: PipelineDeps): Router<RequestState> {
  const router = new Router<RequestState>();
  const { services } = deps;

  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = DOCS_HTML;
  });
  router.get('/docs/assets/:file', async (ctx) => {
    const type = SWAGGER_FILES[ctx.params.file ?? ''];
    if (!type) throw new AppError('route_not_found', 'No such file');
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = await readFile(path.join(swaggerDir, ctx.params.file!));
  });

  router.get('/pay/:id', async (ctx) => {
    await enforceRateLimit(ctx, deps.rateLimits.perAddress, ctx.ip);
    const view = await services.checkouts.publicView(services.database.pool, ctx.params.id!);
    ctx.type = 'text/html; charset=utf-8';
    ctx.set(
      'Content-Security-Policy',
      "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'",
    );
    ctx.body = checkoutPage(view);
  });
  router.get('/pay/:id/status', async (ctx) => {
    ctx.body = await services.checkouts.publicView(services.database.pool, ctx.params.id!);
  });
  router.post('/pay/:id', (ctx) =>
    hostedPay(deps, ctx, 'checkout', ctx.params.id!, (db, id, phone, afterCommit) =>
      services.checkouts.pay(db, id, phone, afterCommit),
    ),
  );
  return router;
}
