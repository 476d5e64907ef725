import Router from '@koa/router';
import {
  MOBILE_NETWORK_NAMES,
  formatAmount,
  formatBasisPoints,
  formatEastAfricaTime,
  formatQuantity,
  shopDateTime,
  type ReceiptLanguage,
} from '@tz/core';
import type { ReceiptView } from '../../retail/receipt-links.ts';
import type { PipelineDeps, RequestState } from '../../http/pipeline.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';
import { escapeHtml } from './hosted.ts';
import { RECEIPT_PAGE_LABELS, type ReceiptPageLabels } from './receipt-labels.ts';

/** The path the request log and error log show instead of the real one: the token is a capability. */
export const RECEIPT_LOG_PATH = '/receipt/:token';

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const languageOf = (value: unknown): ReceiptLanguage | undefined =>
  value === 'en' || value === 'sw' ? value : undefined;

const STYLE = `
body{font-family:system-ui,sans-serif;max-width:30rem;margin:0 auto;padding:1rem;color:#1b1b1b;background:#f6f7f5;overflow-wrap:anywhere}
.card{background:#fff;border:1px solid #ddd;border-radius:12px;padding:1.1rem;margin-bottom:1rem}
.top{display:flex;justify-content:space-between;align-items:center;gap:1rem;margin-bottom:.75rem}
.lang{font-size:.95rem;color:#0a5c2e;white-space:nowrap;padding:.4rem 0}
h1{font-size:1.25rem;margin:0}.muted{color:#5f5f5f}.small{font-size:.9rem}
.store p{margin:.1rem 0}.store strong{font-size:1.1rem}
.head{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;justify-content:space-between;margin-bottom:.25rem}
.badge{display:inline-block;white-space:nowrap;padding:.2rem .6rem;border-radius:999px;font-size:.85rem;background:#fdf0d5;color:#7a4b00}
.badge.voided{background:#eee;color:#555}
ul{list-style:none;padding:0;margin:.5rem 0}li{padding:.45rem 0;border-bottom:1px solid #eee}
.row{display:flex;justify-content:space-between;gap:1rem}.row>:last-child{text-align:right;white-space:nowrap}
.desc{font-weight:500}.totals .row{padding:.15rem 0}.grand{font-size:1.3rem;font-weight:700;padding-top:.35rem!important}
.test{background:#fff3cd;padding:.4rem .6rem;border-radius:6px;font-size:.85rem}
.notice{background:#eee;padding:.5rem .7rem;border-radius:8px}
h2{font-size:1rem;margin:.2rem 0 .4rem}
.button{display:block;text-align:center;background:#0a7d3b;color:#fff;text-decoration:none;font-weight:600;padding:.75rem;border-radius:8px;margin-top:1rem}
`;

function page(language: ReceiptLanguage, title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">${head}
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body>
${body}
</body></html>`;
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

/** "25/11/2026" and "14:03" in East Africa Time. */
const localDateTime = (instant: Date) => shopDateTime(formatEastAfricaTime(instant))!;

function tenderLabel(tender: ReceiptView['tenders'][number], t: ReceiptPageLabels): string {
  if (tender.method === 'cash') return t.cash;
  if (tender.method === 'card') return t.card;
  if (tender.method === 'room') return t.room;
  return (tender.network ? MOBILE_NETWORK_NAMES[tender.network] : undefined) ?? t.mobileMoney;
}

const discountLabel = (word: string, rule: ReceiptView['order_discount_rule']) =>
  rule?.type === 'percent' ? `${word} ${formatBasisPoints(rule.basis_points)}` : word;

export function receiptPage(view: ReceiptView, language: ReceiptLanguage, base: string): string {
  const t = RECEIPT_PAGE_LABELS[language];
  const other: ReceiptLanguage = language === 'sw' ? 'en' : 'sw';
  const money = (amount: number) => escapeHtml(formatAmount(amount, view.currency));
  const row = (label: string, value: string, kind = '') =>
    `<div class="row${kind ? ` ${kind}` : ''}"><span>${label}</span><span>${value}</span></div>`;
  const when = localDateTime(view.sold_at);
  const store = view.store;
  const storeLines = [
    ...store.address_lines,
    ...(store.phone ? [store.phone] : []),
    ...(store.tin ? [`${t.tin}: ${store.tin}`] : []),
    ...(store.vrn ? [`${t.vrn}: ${store.vrn}`] : []),
    ...store.receipt_header,
  ];
  const lines = view.lines
    .map((line) => {
      const quantity = formatQuantity(line.quantity_milli, line.unit, language);
      const discount =
        line.line_discount > 0
          ? row(
              `<span class="muted">${escapeHtml(discountLabel(t.lineDiscount, line.discount))}</span>`,
              `-${money(line.line_discount)}`,
            )
          : '';
      return `<li><div class="desc">${escapeHtml(line.description)}</div>
${row(`<span class="muted">${escapeHtml(quantity)} × ${money(line.unit_price)}</span>`, money(line.gross))}${discount}</li>`;
    })
    .join('\n');
  const taxes = view.tax_breakdown
    .filter((group) => group.tax > 0)
    .map((group) =>
      row(
        `${escapeHtml(t.vat)} ${formatBasisPoints(group.rate_basis_points)} ${escapeHtml(fill(t.taxOn, { net: formatAmount(group.net, view.currency) }))}`,
        money(group.tax),
        'muted small',
      ),
    )
    .join('');
  const tenders = view.tenders
    .map((tender) => {
      const reference = tender.provider_reference ?? tender.reference;
      return `${row(escapeHtml(tenderLabel(tender, t)), money(tender.amount))}${
        reference ? `<div class="muted small">${escapeHtml(t.reference)} ${escapeHtml(reference)}</div>` : ''
      }`;
    })
    .join('');
  const refunds = view.refunds
    .map((refund) => {
      const at = localDateTime(new Date(refund.created * 1000));
      return row(
        `${escapeHtml(t.refunded)} <span class="muted small">${at.date} ${at.time}</span>`,
        `-${money(refund.amount)}`,
      );
    })
    .join('');
  const badge = {
    open: '',
    paid: '',
    partially_refunded: t.status_partially_refunded,
    refunded: t.status_refunded,
    voided: t.status_voided,
  }[view.status];
  const body = `<div class="top"><strong>${escapeHtml(view.business_name)}</strong>
<a class="lang" id="lang" href="${base}?lang=${other}" hreflang="${other}">${escapeHtml(t.language)}</a></div>
${view.livemode ? '' : `<p class="test">${escapeHtml(t.testMode)}</p>`}
<div class="card">
<div class="head"><h1>${escapeHtml(t.receipt)} <span id="number">${escapeHtml(view.receipt_number)}</span></h1>
${badge ? `<span id="status" class="badge ${view.status}">${escapeHtml(badge)}</span>` : ''}</div>
<div class="muted" id="when">${escapeHtml(t.date)} ${when.date} · ${escapeHtml(t.time)} ${when.time} <abbr title="${escapeHtml(t.eat)}">EAT</abbr></div>
<div class="store" id="store"><p><strong>${escapeHtml(store.name)}</strong></p>
${storeLines.map((line) => `<p class="muted small">${escapeHtml(line)}</p>`).join('\n')}</div>
${view.cashier ? `<div class="small">${escapeHtml(t.cashier)}: ${escapeHtml(view.cashier)}</div>` : ''}
${view.customer ? `<div class="small">${escapeHtml(t.customer)}: ${escapeHtml(view.customer)}</div>` : ''}
<ul id="lines">${lines}</ul>
<div class="totals" id="totals">
${row(escapeHtml(t.subtotal), money(view.subtotal))}
${view.order_discount > 0 ? row(escapeHtml(discountLabel(t.orderDiscount, view.order_discount_rule)), `-${money(view.order_discount)}`) : ''}
${row(`<strong>${escapeHtml(t.total)}</strong>`, `<strong id="total">${money(view.total)}</strong>`, 'grand')}
${taxes}
</div></div>
<div class="card" id="tenders"><h2>${escapeHtml(t.paidWith)}</h2>
${tenders}
${view.change_due > 0 ? row(escapeHtml(t.change), money(view.change_due)) : ''}</div>
${
  view.voided_at
    ? `<p class="notice" id="voided">${escapeHtml(t.voided)}</p>`
    : refunds
      ? `<div class="card" id="refunds"><h2>${escapeHtml(t.refunds)}</h2>${refunds}${row(`<strong>${escapeHtml(t.refundedTotal)}</strong>`, `<strong>-${money(view.refunded_amount)}</strong>`)}</div>`
      : ''
}
<div class="muted small">${[...store.receipt_footer, t.thanks].map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</div>`;
  return page(language, `${t.receipt} ${view.receipt_number} · ${store.name}`, body);
}

/** Before the till's sale has reached the server: not a bare 404, and the page looks again. */
export function onTheWayPage(language: ReceiptLanguage, base: string): string {
  const t = RECEIPT_PAGE_LABELS[language];
  const other: ReceiptLanguage = language === 'sw' ? 'en' : 'sw';
  const here = `${base}?lang=${language}`;
  const body = `<div class="top"><span></span>
<a class="lang" id="lang" href="${base}?lang=${other}" hreflang="${other}">${escapeHtml(t.language)}</a></div>
<div class="card" id="on-the-way"><h1>${escapeHtml(t.onTheWayTitle)}</h1>
<p>${escapeHtml(t.onTheWay)}</p>
<p class="muted small">${escapeHtml(t.autoRefresh)}</p>
<a class="button" href="${here}">${escapeHtml(t.tryAgain)}</a></div>`;
  return page(language, t.onTheWayTitle, body, `<meta http-equiv="refresh" content="30; url=${here}">`);
}

/**
 * The digital receipt at `/receipt/{token}` (no key; the token is the
 * capability), in the store's receipt language unless `?lang=` asks for the
 * other. The logs see `/receipt/:token`, never the token.
 */
export function receiptPageRoutes(deps: PipelineDeps): Router<RequestState> {
  const router = new Router<RequestState>();
  const { services } = deps;
  router.get('/receipt/:token', async (ctx) => {
    ctx.state.loggedPath = RECEIPT_LOG_PATH;
    await enforceRateLimit(ctx, deps.rateLimits.perAddress, ctx.ip);
    const token = ctx.params.token!;
    const view = await services.receipts.view(services.database.pool, token);
    const asked = languageOf(ctx.query.lang);
    const base = `/receipt/${encodeURIComponent(token)}`;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', PAGE_CSP);
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Robots-Tag', 'noindex');
    ctx.set('Cache-Control', 'no-store');
    if (!view) {
      ctx.status = 404;
      ctx.body = onTheWayPage(asked ?? 'sw', base);
      return;
    }
    ctx.body = receiptPage(view, asked ?? view.store.receipt_language, base);
  });
  return router;
}
