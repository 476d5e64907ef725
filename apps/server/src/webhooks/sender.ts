import http from 'node:http';
import https from 'node:https';
import { guardedLookup, literalAddressRefusal } from './ssrf.ts';

/** What one HTTP attempt did; stored in the delivery log. */
export interface AttemptResult {
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  succeeded: boolean;
  error: string | null;
  /** The first bytes of the response body. */
  responseBody: string | null;
  /** Stopped by a shutdown: not an attempt to record, the delivery is released instead. */
  aborted: boolean;
}

/** How much of a response body the log keeps. */
export const RESPONSE_BODY_BYTES = 1024;
// Read a little past what is kept so small bodies end cleanly and the connection can be reused.
const READ_LIMIT_BYTES = 16 * 1024;

export interface SenderOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'connection failed';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code)
    ? `${code}: ${error.message}`
    : error.message;
}

/**
 * Makes webhook POSTs. It follows no redirects (a 3xx is a failed attempt),
 * bounds each attempt by `timeoutMs` from start to the end of the response,
 * and, unless private URLs are allowed, refuses non-public addresses at
 * connect time.
 */
export class WebhookSender {
  private readonly agents: { http: http.Agent; https: https.Agent };

  constructor(private readonly options: SenderOptions) {
    const agentOptions = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 60_000 };
    this.agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  }

  send(
    url: string,
    body: string,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<AttemptResult> {
    const startedAt = new Date();
    const started = performance.now();
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      // Set once the request starts; finish() and the abort handler may run before that.
      const live: { request?: http.ClientRequest; timer?: NodeJS.Timeout } = {};
      const finish = (outcome: Partial<AttemptResult>) => {
        if (settled) return;
        settled = true;
        clearTimeout(live.timer);
        signal?.removeEventListener('abort', onAbort);
        const statusCode = outcome.statusCode ?? null;
        resolve({
          startedAt,
          durationMs: Math.max(0, Math.round(performance.now() - started)),
          statusCode,
          succeeded: outcome.error == null && statusCode !== null && statusCode >= 200 && statusCode < 300,
          error: outcome.error ?? null,
          responseBody: outcome.responseBody ?? null,
          aborted: outcome.aborted ?? false,
        });
      };
      const onAbort = () => {
        live.request?.destroy();
        finish({ error: 'aborted', aborted: true });
      };
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return finish({ error: 'invalid URL' });
      }
      if (!this.options.allowPrivate) {
        const refusal = literalAddressRefusal(target);
        if (refusal) return finish({ error: refusal.message });
      }
      const secure = target.protocol === 'https:';
      if (!secure && target.protocol !== 'http:')
        return finish({ error: `unsupported protocol ${target.protocol}` });
      if (signal?.aborted) return finish({ error: 'aborted', aborted: true });
      signal?.addEventListener('abort', onAbort);
      const payload = Buffer.from(body, 'utf8');
      const requestOptions: https.RequestOptions = {
        method: 'POST',
        headers: { ...headers, 'content-length': String(payload.length) },
        agent: secure ? this.agents.https : this.agents.http,
        ...(this.options.allowPrivate ? {} : { lookup: guardedLookup }),
      };
      const request = (secure ? https : http).request(target, requestOptions);
      live.request = request;
      live.timer = setTimeout(() => {
        request.destroy();
        finish({ error: `timed out after ${this.options.timeoutMs} ms` });
      }, this.options.timeoutMs);
      request.on('error', (error) => finish({ error: describe(error) }));
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const status = response.statusCode ?? 0;
        const done = () =>
          finish({
            statusCode: status,
            // PostgreSQL cannot store NUL in text: an endpoint's answer holding one must still be recorded.
            responseBody: Buffer.concat(chunks)
              .subarray(0, RESPONSE_BODY_BYTES)
              .toString('utf8')
              .replaceAll('\0', '\uFFFD'),
            error:
              status >= 300 && status < 400
                ? `redirect not followed (HTTP ${status})`
                : status >= 200 && status < 300
                  ? null
                  : `HTTP ${status}`,
          });
        response.on('data', (chunk: Buffer) => {
          if (size >= READ_LIMIT_BYTES) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= READ_LIMIT_BYTES) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      });
      request.end(payload);
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
