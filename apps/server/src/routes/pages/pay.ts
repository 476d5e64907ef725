/** The hosted checkout page at `/pay/{id}`: a payer with no account pays a checkout by mobile money. */
import Router from '@koa/router';
import { formatAmount, type Currency } from '@tz/core';
import type { PipelineDeps, RequestState } from '../../http/pipeline.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';
import { escapeHtml, hostedPay } from './hosted.ts';
import { setTicketPageHeaders, ticketPageLanguage, ticketsPage } from './tickets.ts';

function checkoutPage(view: {
  id: string;
  business_name: string;
  amount: number;
  currency: Currency;
  description: string | null;
  status: string;
  livemode: boolean;
  /** A ticket order's checkout not yet paid: once paid, the page reloads to show the tickets. */
  reloadWhenPaid: boolean;
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
  if (s.status === 'complete') { form.hidden = true; show('Paid. Thank you! / Malipo yamekamilika.'); if (s.success_url) location.href = s.success_url; else if (${view.reloadWhenPaid}) location.reload(); return; }
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

/**
 * The hosted checkout page, `/pay/{id}`: the page, its status and its pay step.
 * A ticket order's checkout, once paid, shows the order's tickets (`tickets.ts`).
 */
export function payRoutes(deps: PipelineDeps): Router<RequestState> {
  const router = new Router<RequestState>();
  const { services } = deps;

  router.get('/pay/:id', async (ctx) => {
    await enforceRateLimit(ctx, deps.rateLimits.perAddress, ctx.ip);
    const id = ctx.params.id!;
    const view = await services.checkouts.publicView(services.database.pool, id);
    const tickets = await services.ticketPages.ofCheckout(services.database.pool, id);
    if (tickets?.view) {
      setTicketPageHeaders(ctx);
      ctx.body = ticketsPage(
        tickets.view,
        ticketPageLanguage(ctx.query.lang),
        `/pay/${encodeURIComponent(id)}`,
        {
          paidNow: true,
        },
      );
      return;
    }
    ctx.type = 'text/html; charset=utf-8';
    ctx.set(
      'Content-Security-Policy',
      "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'",
    );
    ctx.body = checkoutPage({
      ...view,
      reloadWhenPaid: tickets !== null && view.status !== 'complete',
    });
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
