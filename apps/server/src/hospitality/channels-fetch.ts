/**
 * Fetches a channel's iCal feed under the rules webhooks go by: no private,
 * loopback or metadata address (checked again at connect time, so DNS
 * rebinding is refused), no redirect followed, and a limit on time and size.
 */
import http from 'node:http';
import https from 'node:https';
import { guardedLookup, literalAddressRefusal } from '../webhooks/ssrf.ts';

/** The largest feed read: a year of bookings is a few hundred kilobytes. */
export const FEED_MAX_BYTES = 2 * 1024 * 1024;
export const FEED_TIMEOUT_MS = 15_000;

export type FeedFetch = { ok: true; text: string } | { ok: false; error: string };

export interface FeedFetchOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

export function fetchFeed(url: string, options: FeedFetchOptions): Promise<FeedFetch> {
  const timeoutMs = options.timeoutMs ?? FEED_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? FEED_MAX_BYTES;
  return new Promise<FeedFetch>((resolve) => {
    let settled = false;
    const live: { request?: http.ClientRequest; timer?: NodeJS.Timeout } = {};
    const finish = (outcome: FeedFetch) => {
      if (settled) return;
      settled = true;
      clearTimeout(live.timer);
      live.request?.destroy();
      resolve(outcome);
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return finish({ ok: false, error: 'invalid URL' });
    }
    if (!options.allowPrivate) {
      const refusal = literalAddressRefusal(target);
      if (refusal) return finish({ ok: false, error: refusal.message });
    }
    const secure = target.protocol === 'https:';
    const request = (secure ? https : http).request(target, {
      method: 'GET',
      headers: { accept: 'text/calendar, */*;q=0.5', 'user-agent': 'tz-merchant-platform channels' },
      ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
    });
    live.request = request;
    live.timer = setTimeout(() => finish({ ok: false, error: `timed out after ${timeoutMs} ms` }), timeoutMs);
    request.on('error', (error) => finish({ ok: false, error: error.message.slice(0, 300) }));
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        return finish({
          ok: false,
          error: status >= 300 && status < 400 ? `redirect not followed (HTTP ${status})` : `HTTP ${status}`,
        });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return finish({ ok: false, error: `larger than ${maxBytes} bytes` });
        chunks.push(chunk);
      });
      response.on('end', () => finish({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', (error) => finish({ ok: false, error: error.message.slice(0, 300) }));
    });
    request.end();
  });
}
