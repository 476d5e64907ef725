/**
 * The buyer's tickets page at `/t/{token}` (no key; the token is the
 * capability), also shown by the hosted checkout once a ticket order's
 * checkout is paid (`pay.ts`). Each ticket that admits is a QR code drawn here
 * as SVG; a void one shows as void, never as a code. The logs see `/t/:token`.
 */
import Router from '@koa/router';
import encodeQR from '@paulmillr/qr';
import type { ReceiptLanguage } from '@tz/core';
import { TICKETS_LOG_PATH, TICKETS_PATH, type TicketPageView } from '../../events/ticket-page.ts';
import type { PipelineDeps, RequestState } from '../../http/pipeline.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';
import { escapeHtml } from './hosted.ts';
import { TICKET_PAGE_LABELS, type TicketPageLabels } from './ticket-labels.ts';

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

export const ticketPageLanguage = (value: unknown): ReceiptLanguage => (value === 'en' ? 'en' : 'sw');

const STYLE = `
body{font-family:system-ui,sans-serif;max-width:30rem;margin:0 auto;padding:1rem;color:#1b1b1b;background:#f6f7f5;overflow-wrap:anywhere}
.card{background:#fff;border:1px solid #ddd;border-radius:12px;padding:1.1rem;margin-bottom:1rem}
.top{display:flex;justify-content:space-between;align-items:center;gap:1rem;margin-bottom:.75rem}
.lang{font-size:.95rem;color:#0a5c2e;white-space:nowrap;padding:.4rem 0}
h1{font-size:1.3rem;margin:0 0 .3rem}h2{font-size:1.05rem;margin:1.2rem 0 .6rem}
p{margin:.2rem 0}.muted{color:#5f5f5f}.small{font-size:.9rem}
.test{background:#fff3cd;padding:.4rem .6rem;border-radius:6px;font-size:.85rem}
.paid{background:#e3f3e8;color:#0a5c2e;padding:.6rem .75rem;border-radius:8px;font-weight:600}
.notice{background:#eee;padding:.5rem .7rem;border-radius:8px;margin-top:.6rem}
ol{list-style:none;padding:0;margin:0}
.ticket .head{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:baseline;gap:.25rem .75rem}
.tier{font-size:1.15rem;font-weight:700}
.qr{display:block;width:100%;max-width:18rem;aspect-ratio:1;height:auto;margin:.75rem auto}
.void{margin:.75rem auto;max-width:18rem;padding:2.5rem .75rem;text-align:center;border:2px dashed #999;border-radius:8px;color:#555;background:#f2f2f2}
.void strong{display:block;font-size:1.35rem;letter-spacing:.04em;text-transform:uppercase;overflow-wrap:normal}
.nowrap{white-space:nowrap}
.ref{font-family:ui-monospace,monospace;font-size:.8rem}
@media print{body{background:#fff;max-width:none}.lang,.paid,.hint{display:none}.card{break-inside:avoid;border-color:#000}}
`;

function page(language: ReceiptLanguage, title: string, body: string): string {
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body>
${body}
</body></html>`;
}

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));

/** The QR code as one SVG path of its dark modules, with the quiet zone of four scanners expect. */
function qrSvg(code: string, label: string): string {
  const modules = encodeQR(code, 'raw', { ecc: 'medium', border: 4 });
  let path = '';
  modules.forEach((row, y) => row.forEach((dark, x) => dark && (path += `M${x} ${y}h1v1h-1z`)));
  const size = modules.length;
  return `<svg class="qr" role="img" aria-label="${escapeHtml(label)}" data-code="${escapeHtml(code)}" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges" xmlns="http://www.w3.org/2000/svg"><rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}

function languageSwitch(t: TicketPageLabels, base: string, language: ReceiptLanguage): string {
  const other: ReceiptLanguage = language === 'sw' ? 'en' : 'sw';
  return `<a class="lang" id="lang" href="${escapeHtml(base)}?lang=${other}" hreflang="${other}">${escapeHtml(t.language)}</a>`;
}

/** The page of a paid order's tickets; `paidNow` on the checkout the buyer just paid. */
export function ticketsPage(
  view: TicketPageView,
  language: ReceiptLanguage,
  base: string,
  options: { paidNow?: boolean } = {},
): string {
  const t = TICKET_PAGE_LABELS[language];
  const { event } = view;
  const date = new Intl.DateTimeFormat(t.locale, {
    timeZone: event.time_zone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone: event.time_zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const eat = `<abbr title="${escapeHtml(t.eat)}">EAT</abbr>`;
  const count = view.tickets.length;
  const admits = view.tickets.some((ticket) => ticket.code !== null);
  const tickets = view.tickets
    .map((ticket, index) => {
      const n = index + 1;
      const face = ticket.code
        ? qrSvg(ticket.code, fill(t.qr, { n, tier: ticket.tier }))
        : `<div class="void"><strong>${escapeHtml(t.void)}</strong>${escapeHtml(t.voidTicket)}</div>`;
      return `<li class="card ticket" data-ticket="${escapeHtml(ticket.id)}" data-status="${ticket.code ? 'valid' : 'void'}">
<div class="head"><span class="tier">${escapeHtml(ticket.tier)}</span><span class="muted small">${escapeHtml(fill(t.ticketOf, { n, count }))}</span></div>
<p class="small">${escapeHtml(event.name)}</p>
<p class="holder">${escapeHtml(t.holder)}: <strong>${escapeHtml(ticket.holder)}</strong></p>
${face}
<p class="muted ref">${escapeHtml(t.number)} ${escapeHtml(ticket.id)}</p></li>`;
    })
    .join('\n');
  const notice =
    event.status === 'canceled' ? t.canceled : view.order.status === 'refunded' ? t.refunded : null;
  const body = `<div class="top"><strong>${escapeHtml(view.organizer)}</strong>
${languageSwitch(t, base, language)}</div>
${view.livemode ? '' : `<p class="test">${escapeHtml(t.testMode)}</p>`}
${options.paidNow && !notice ? `<p class="paid card" id="paid">${escapeHtml(t.paid)}</p>` : ''}
<div class="card" id="event"><h1>${escapeHtml(event.name)}</h1>
<p>${escapeHtml(event.venue)}</p>
<p id="when">${escapeHtml(date.format(event.starts_at))} · <span class="nowrap">${time.format(event.starts_at)}–${time.format(event.ends_at)} ${eat}</span></p>
${event.doors_open_at ? `<p class="muted small">${escapeHtml(t.doorsOpen)} ${time.format(event.doors_open_at)} ${eat}</p>` : ''}
${notice ? `<p class="notice" id="notice">${escapeHtml(notice)}</p>` : ''}</div>
<h2>${escapeHtml(t.tickets)} (${count})</h2>
<ol id="tickets">${tickets}</ol>
<div class="muted small hint">${admits ? `<p>${escapeHtml(t.show)}</p>` : ''}<p>${escapeHtml(t.keep)}</p></div>`;
  return page(language, `${t.tickets} · ${event.name}`, body);
}

function notFoundPage(language: ReceiptLanguage, base: string): string {
  const t = TICKET_PAGE_LABELS[language];
  const body = `<div class="top"><span></span>${languageSwitch(t, base, language)}</div>
<div class="card" id="not-found"><h1>${escapeHtml(t.notFoundTitle)}</h1><p>${escapeHtml(t.notFound)}</p></div>`;
  return page(language, t.notFoundTitle, body);
}

/** Headers every tickets page answers with: the codes are the buyer's, kept out of caches and referrers. */
export function setTicketPageHeaders(ctx: { set(field: string, value: string): void; type: string }): void {
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Robots-Tag', 'noindex');
  ctx.set('Cache-Control', 'no-store');
}

/** `/t/{token}`: the short link of a paid order's tickets, in Swahili unless `?lang=en`. */
export function ticketPageRoutes(deps: PipelineDeps): Router<RequestState> {
  const router = new Router<RequestState>();
  const { services } = deps;
  router.get(`${TICKETS_PATH}/:token`, async (ctx) => {
    ctx.state.loggedPath = TICKETS_LOG_PATH;
    await enforceRateLimit(ctx, deps.rateLimits.perAddress, ctx.ip);
    const token = ctx.params.token!;
    const view = await services.ticketPages.byToken(services.database.pool, token);
    const language = ticketPageLanguage(ctx.query.lang);
    const base = `${TICKETS_PATH}/${encodeURIComponent(token)}`;
    setTicketPageHeaders(ctx);
    if (!view) {
      ctx.status = 404;
      ctx.body = notFoundPage(language, base);
      return;
    }
    ctx.body = ticketsPage(view, language, base);
  });
  return router;
}
