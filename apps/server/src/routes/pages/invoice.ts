import Router from '@koa/router';
import { eastAfricaDate, formatAmount } from '@tz/core';
import type { HostedView } from '../../invoices/hosted.ts';
import { INVOICE_LABELS, statusLabel, type InvoiceLanguage } from '../../invoices/labels.ts';
import type { PipelineDeps, RequestState } from '../../http/pipeline.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';
import { escapeHtml, hostedPay } from './hosted.ts';

const languageOf = (value: unknown): InvoiceLanguage => (value === 'en' ? 'en' : 'sw');

const PAGE_CSP = "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'";

function invoicePage(view: HostedView, language: InvoiceLanguage): string {
  const t = INVOICE_LABELS[language];
  const other: InvoiceLanguage = language === 'sw' ? 'en' : 'sw';
  const money = (amount: number) => escapeHtml(formatAmount(amount, view.currency));
  const payable = (view.status === 'open' || view.status === 'uncollectible') && view.amount_due > 0;
  const badge = view.overdue ? t.overdue : statusLabel(t, view.status);
  const base = `/invoice/${encodeURIComponent(view.token)}`;
  const lines = view.lines
    .map(
      (line) => `<li><div class="desc">${escapeHtml(line.description)}</div>
<div class="row"><span class="muted">${line.quantity} × ${money(line.unit_amount)}</span><span>${money(line.amount)}</span></div></li>`,
    )
    .join('\n');
  const messages = {
    sending: t.sending,
    approve: t.approve,
    paid: t.paidThanks,
    failed: t.failed,
    cannotPay: t.cannotPay,
  };
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t.invoice)} ${escapeHtml(view.number)} · ${escapeHtml(view.business_name)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:30rem;margin:0 auto;padding:1rem;color:#1b1b1b;background:#f6f7f5}
.card{background:#fff;border:1px solid #ddd;border-radius:12px;padding:1.25rem;margin-bottom:1rem}
.top{display:flex;justify-content:space-between;align-items:center;margin-bottom:.75rem}
.lang{font-size:.95rem;color:#0a5c2e}
h1{font-size:1.25rem;margin:0;white-space:nowrap}.muted{color:#666}
.head{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;justify-content:space-between}
.badge{display:inline-block;white-space:nowrap;padding:.2rem .6rem;border-radius:999px;font-size:.85rem;background:#eef3ff;color:#1f3f8f}
.badge.paid{background:#e3f6e9;color:#0a5c2e}.badge.void{background:#eee;color:#555}.badge.overdue{background:#fdecea;color:#9b1c1c}
ul{list-style:none;padding:0;margin:.5rem 0}li{padding:.5rem 0;border-bottom:1px solid #eee}
.row{display:flex;justify-content:space-between;gap:1rem}.desc{font-weight:500}
.totals .row{padding:.2rem 0}.due{font-size:1.6rem;font-weight:700;margin-bottom:.5rem}
input,button{font-size:1.1rem;width:100%;padding:.75rem;margin-top:.6rem;box-sizing:border-box;border-radius:8px}
input{border:1px solid #bbb}button{background:#0a7d3b;color:#fff;border:0;font-weight:600}
.test{background:#fff3cd;padding:.4rem .6rem;border-radius:6px;font-size:.85rem}
#message{margin-top:1rem;min-height:1.5rem}.docs a{display:block;padding:.4rem 0;color:#0a5c2e}
</style></head><body>
<div class="top"><strong>${escapeHtml(view.business_name)}</strong>
<a class="lang" id="lang" href="${base}?lang=${other}" hreflang="${other}">${escapeHtml(t.language)}</a></div>
${view.livemode ? '' : `<p class="test">${escapeHtml(t.testMode)}</p>`}
<div class="card">
<div class="head"><h1>${escapeHtml(t.invoice)} ${escapeHtml(view.number)}</h1>
<span id="status" class="badge ${view.overdue ? 'overdue' : view.status}">${escapeHtml(badge)}</span></div>
<div class="muted">${escapeHtml(t.due)}: ${eastAfricaDate(view.due_at)}</div>
<ul id="lines">${lines}</ul>
<div class="totals">
<div class="row"><span>${escapeHtml(t.subtotal)}</span><span>${money(view.subtotal)}</span></div>
<div class="row"><span>${escapeHtml(t.vat)}</span><span>${money(view.tax)}</span></div>
<div class="row"><strong>${escapeHtml(t.total)}</strong><strong id="total">${money(view.total)}</strong></div>
</div>
${view.memo ? `<p class="muted" id="memo">${escapeHtml(view.memo)}</p>` : ''}
</div>
<div class="card">
<div class="muted">${escapeHtml(t.amountDue)}</div>
<div class="due" id="amount-due">${money(view.amount_due)}</div>
<form id="pay"${payable && view.payment_status !== 'pending' ? '' : ' hidden'}>
<label for="phone">${escapeHtml(t.phone)}</label>
<input id="phone" name="phone" inputmode="tel" autocomplete="tel" placeholder="07XX XXX XXX" required>
<button id="submit" type="submit">${escapeHtml(t.pay)} ${money(view.amount_due)}</button></form>
<div id="message" role="status">${view.status === 'paid' ? escapeHtml(t.paidThanks) : !payable ? escapeHtml(t.cannotPay) : ''}</div>
</div>
<div class="card docs"><a id="invoice-pdf" href="${base}/pdf?lang=${language}">${escapeHtml(t.downloadInvoice)}</a>
${view.status === 'paid' ? `<a id="receipt-pdf" href="${base}/receipt.pdf?lang=${language}">${escapeHtml(t.downloadReceipt)}</a>` : ''}</div>
<script>
const base = ${JSON.stringify(base)};
const text = ${JSON.stringify(messages)};
const form = document.getElementById('pay');
const message = document.getElementById('message');
const show = (value) => { message.textContent = value; };
async function poll() {
  const res = await fetch(base + '/status');
  const s = await res.json();
  if (s.status === 'paid') { location.reload(); return; }
  if (s.payment_status === 'failed') { form.hidden = false; show(text.failed + (s.failure_message ? ': ' + s.failure_message : '')); return; }
  if (s.status !== 'open' && s.status !== 'uncollectible') { form.hidden = true; show(text.cannotPay); return; }
  setTimeout(poll, 1000);
}
if (${JSON.stringify(view.payment_status === 'pending')}) { show(text.approve); poll(); }
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  show(text.sending);
  // One key per press: a press resent by a flaky network asks the phone once.
  const key = crypto.randomUUID();
  const res = await fetch(base + '/pay', { method: 'POST', headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key }, body: JSON.stringify({ phone: document.getElementById('phone').value }) });
  const body = await res.json();
  if (!res.ok) { show(body.message || text.failed); return; }
  form.hidden = true;
  show(text.approve);
  poll();
});
</script></body></html>`;
}

/**
 * The hosted invoice page at `/invoice/{token}` (no key; the token is the
 * capability): the invoice in Swahili or English, paid by mobile money through
 * the write path, and its PDFs.
 */
export function invoicePageRoutes(deps: PipelineDeps): Router<RequestState> {
  const router = new Router<RequestState>();
  const { services } = deps;
  const hosted = services.hostedInvoices;

  router.get('/invoice/:token', async (ctx) => {
    await enforceRateLimit(ctx, deps.rateLimits.perAddress, ctx.ip);
    const view = await hosted.view(services.database.pool, ctx.params.token!);
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', PAGE_CSP);
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.body = invoicePage(view, languageOf(ctx.query.lang));
  });
  router.get('/invoice/:token/status', async (ctx) => {
    const view = await hosted.view(services.database.pool, ctx.params.token!);
    ctx.body = {
      status: view.status,
      amount_due: view.amount_due,
      payment_status: view.payment_status,
      failure_message: view.failure_message,
    };
  });
  for (const [path, kind] of [
    ['/invoice/:token/pdf', 'invoice'],
    ['/invoice/:token/receipt.pdf', 'receipt'],
  ] as const) {
    router.get(path, async (ctx) => {
      await enforceRateLimit(ctx, deps.rateLimits.perAddress, ctx.ip);
      const { number, pdf } = await hosted.document(
        services.database.pool,
        ctx.params.token!,
        kind,
        languageOf(ctx.query.lang),
      );
      ctx.type = 'application/pdf';
      ctx.set(
        'Content-Disposition',
        `inline; filename="${kind === 'receipt' ? 'receipt-' : ''}${number}.pdf"`,
      );
      ctx.body = pdf;
    });
  }
  router.post('/invoice/:token/pay', (ctx) =>
    hostedPay(deps, ctx, 'invoice', ctx.params.token!, async (db, token, phone, afterCommit) => {
      const { payment } = await hosted.pay(db, token, phone, afterCommit);
      return payment;
    }),
  );
  return router;
}
