import { newId } from '@tz/core';
import type { Queryable } from '../db/database.ts';
import type { Principal } from '../http/route.ts';
import { unixSeconds } from './time.ts';

export interface RequestLogEntry {
  principal: Principal;
  requestId: string;
  method: string;
  /** Path without the query string: query values may carry personal data. */
  path: string;
  status: number;
  durationMs: number;
  ip: string;
  errorCode: string | null;
}

/** Bodies and headers are never logged, so secrets and passwords cannot leak into the log. */
export async function writeRequestLog(db: Queryable, entry: RequestLogEntry): Promise<void> {
  await db.query(
    `INSERT INTO request_logs (id, merchant_id, livemode, api_key_id, request_id, method, path, status, duration_ms, ip, error_code)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      newId('requestLog'),
      entry.principal.merchantId,
      entry.principal.livemode,
      entry.principal.credentialId,
      entry.requestId,
      entry.method,
      entry.path,
      entry.status,
      Math.round(entry.durationMs),
      entry.ip,
      entry.errorCode,
    ],
  );
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

export function requestLogsSource(principal: Principal, filters: LogFilters) {
  const params: unknown[] = [principal.merchantId, principal.livemode];
  let where = 'merchant_id = $1 AND livemode = $2';
  if (filters.method) where += ` AND method = $${params.push(filters.method.toUpperCase())}`;
  if (filters.status) where += ` AND status = $${params.push(filters.status)}`;
  if (filters.status_class) {
    const low = Number(filters.status_class[0]) * 100;
    where += ` AND status >= $${params.push(low)} AND status < $${params.push(low + 100)}`;
  }
  if (filters.path) where += ` AND path LIKE $${params.push(`${filters.path.replace(/[\\%_]/g, '\\$&')}%`)}`;
  if (filters.request_id) where += ` AND request_id = $${params.push(filters.request_id)}`;
  if (filters.api_key) where += ` AND api_key_id = $${params.push(filters.api_key)}`;
  if (filters.created_gte) where += ` AND created_at >= to_timestamp($${params.push(filters.created_gte)})`;
  if (filters.created_lte) where += ` AND created_at <= to_timestamp($${params.push(filters.created_lte)})`;
  return { table: 'request_logs', where, params };
}
