import type { Logger } from 'pino';
import { newId } from '@tz/core';
import type { Database } from '../db/database.ts';
import { createdWithin } from '../db/list-page.ts';
import type { Actor } from '../actor.ts';
import { unixSeconds } from './time.ts';

export interface RequestLogEntry {
  actor: Actor;
  requestId: string;
  method: string;
  /** Path without the query string: query values may carry personal data. */
  path: string;
  status: number;
  durationMs: number;
  ip: string;
  errorCode: string | null;
}

/**
 * Buffers request log rows and writes them in batches, off the request path:
 * the log must never slow or fail a request. Bodies and headers are never
 * logged, so secrets and passwords cannot leak into it. A crash loses at most
 * one flush interval of log rows (never money or events).
 */
export class RequestLogs {
  private buffer: RequestLogEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly flushMs = 200,
    private readonly maxBatch = 200,
  ) {}

  add(entry: RequestLogEntry): void {
    this.buffer.push(entry);
    if (this.buffer.length >= this.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
  }

  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length === 0) return this.flushing;
    this.flushing = this.flushing
      .then(() => this.write(batch))
      .catch((error: unknown) => this.logger.error({ err: error }, 'request log write failed'));
    return this.flushing;
  }

  private async write(batch: RequestLogEntry[]): Promise<void> {
    const values: unknown[] = [];
    const rows = batch.map((entry) => {
      const base = values.length;
      values.push(
        newId('requestLog'),
        entry.actor.merchantId,
        entry.actor.livemode,
        entry.actor.credentialId,
        entry.requestId,
        entry.method,
        entry.path,
        entry.status,
        Math.round(entry.durationMs),
        entry.ip,
        entry.errorCode,
      );
      return `(${Array.from({ length: 11 }, (_, i) => `$${base + i + 1}`).join(', ')})`;
    });
    // A lazy commit: a crash may lose the last rows of the log, never anything else.
    await this.database.lazyTransaction((tx) =>
      tx.query(
        `INSERT INTO request_logs (id, merchant_id, livemode, api_key_id, request_id, method, path, status, duration_ms, ip, error_code)
       VALUES ${rows.join(', ')}`,
        values,
      ),
    );
  }

  listSource(actor: Actor, filters: LogFilters) {
    const params: unknown[] = [actor.merchantId, actor.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (filters.method) where += ` AND method = $${params.push(filters.method.toUpperCase())}`;
    if (filters.status) where += ` AND status = $${params.push(filters.status)}`;
    if (filters.status_class) {
      const low = Number(filters.status_class[0]) * 100;
      where += ` AND status >= $${params.push(low)} AND status < $${params.push(low + 100)}`;
    }
    if (filters.path)
      where += ` AND path LIKE $${params.push(`${filters.path.replace(/[\\%_]/g, '\\$&')}%`)}`;
    if (filters.request_id) where += ` AND request_id = $${params.push(filters.request_id)}`;
    if (filters.api_key) where += ` AND api_key_id = $${params.push(filters.api_key)}`;
    where += createdWithin(params, filters);
    return { table: 'request_logs', where, params };
  }
}

interface RequestLogRow {
  id: string;
  livemode: boolean;
  api_key_id: string | null;
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  ip: string | null;
  error_code: string | null;
  created_at: Date;
}

export const requestLogObject = (row: RequestLogRow) => ({
  id: row.id,
  object: 'request_log' as const,
  request_id: row.request_id,
  method: row.method,
  path: row.path,
  status: row.status,
  duration_ms: row.duration_ms,
  api_key: row.api_key_id,
  ip: row.ip,
  error_code: row.error_code,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
});

export interface LogFilters {
  method?: string | undefined;
  status?: number | undefined;
  status_class?: '2xx' | '4xx' | '5xx' | undefined;
  path?: string | undefined;
  request_id?: string | undefined;
  api_key?: string | undefined;
  created_gte?: number | undefined;
  created_lte?: number | undefined;
}
