import {
  type commandPayloads,
  failForRevokedTill,
  newId,
  notFound,
  printJobOutcome,
  PRINT_JOB_STATES,
  type PrintJobFailureReason,
  type PrintJobOutcome,
  type PrintJobStatus,
} from '@tz/core';
import type { z } from 'zod';
import type { Queryable } from '../db/database.ts';
import type { ListSource } from '../db/list-page.ts';
import { recordEvent } from '../infra/events.ts';
import { findOwned } from '../infra/owned.ts';
import { unixOrNull, unixSeconds } from '../infra/time.ts';
import { storedStates, transition } from '../infra/transitions.ts';
import { invalid } from '../retail/shared.ts';
import type { Tenant, TillActor } from '../actor.ts';

export interface PrintJobRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  printer_id: string;
  till_id: string;
  order_id: string | null;
  receipt: unknown;
  text: string | null;
  status: PrintJobStatus;
  failure_reason: PrintJobFailureReason | null;
  failure_message: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

export const printJobObject = (row: PrintJobRow) => ({
  id: row.id,
  object: 'print_job' as const,
  printer: row.printer_id,
  till: row.till_id,
  order: row.order_id,
  text: row.text,
  status: row.status,
  failure_reason: row.failure_reason,
  failure_message: row.failure_message,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  completed_at: unixOrNull(row.completed_at),
});
export type PrintJobObject = ReturnType<typeof printJobObject>;

/** The job as its till pulls it (`printJobDoc`): with the receipt to render. */
export const printJobDocument = (row: PrintJobRow) => ({
  id: row.id,
  _deleted: false,
  printer: row.printer_id,
  status: row.status,
  receipt: row.receipt ?? null,
  text: row.text,
  failure_reason: row.failure_reason,
  created: unixSeconds(row.created_at),
});

const EVENT_OF = { printed: 'print_job.printed', failed: 'print_job.failed' } as const;

const PRINT_JOBS = storedStates(PRINT_JOB_STATES, 'print_jobs');

/** Finishes a job as printed or failed, with its event. */
async function finish(
  db: Queryable,
  tenant: Tenant,
  job: PrintJobRow,
  outcome: PrintJobOutcome,
  message: string | null,
): Promise<PrintJobObject> {
  const finished = await transition(db, PRINT_JOBS, job, outcome.status, {
    set: 'failure_reason = $1, failure_message = $2, completed_at = now(), updated_at = now()',
    params: [outcome.failureReason, outcome.failureReason ? message : null],
  });
  const object = printJobObject(finished);
  await recordEvent(db, { ...tenant, type: EVENT_OF[outcome.status], object });
  return object;
}

export class PrintJobService {
  /**
   * A job for a printer: the stored receipt of an order, or plain text. It waits
   * (`pending`) until the printer's till pulls it and reports the result; a job
   * for a revoked till's printer fails at once with `till_revoked`.
   */
  async create(
    db: Queryable,
    tenant: Tenant,
    input: { printer: string; order?: string | undefined; text?: string | undefined },
  ) {
    const printers = await db.query<{ id: string; till_id: string; revoked: boolean }>(
      `SELECT p.id, p.till_id, t.revoked_at IS NOT NULL AS revoked FROM printers p JOIN tills t ON t.id = p.till_id
       WHERE p.id = $1 AND p.merchant_id = $2 AND p.livemode = $3 AND p.deleted_at IS NULL`,
      [input.printer, tenant.merchantId, tenant.livemode],
    );
    const printer = printers.rows[0];
    if (!printer) throw invalid('parameter_invalid', 'printer', 'is not a printer of this account');
    let receipt: string | null = null;
    if (input.order !== undefined) {
      const orders = await db.query<{ receipt: string }>(
        `SELECT receipt::text AS receipt FROM retail_orders WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
        [input.order, tenant.merchantId, tenant.livemode],
      );
      if (!orders.rows[0]) throw invalid('parameter_invalid', 'order', 'is not an order of this account');
      receipt = orders.rows[0].receipt;
    }
    const inserted = await db.query<PrintJobRow>(
      `INSERT INTO print_jobs (id, merchant_id, livemode, printer_id, till_id, order_id, receipt, text, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending') RETURNING *`,
      [
        newId('printJob'),
        tenant.merchantId,
        tenant.livemode,
        printer.id,
        printer.till_id,
        input.order ?? null,
        receipt,
        input.text ?? null,
      ],
    );
    const row = inserted.rows[0]!;
    await recordEvent(db, { ...tenant, type: 'print_job.created', object: printJobObject(row) });
    if (printer.revoked) {
      return finish(db, tenant, row, failForRevokedTill(row.status), 'The printer’s till was removed');
    }
    return printJobObject(row);
  }

  listSource(
    tenant: Tenant,
    filters: { printer?: string | undefined; status?: PrintJobStatus | undefined },
  ): ListSource {
    const params: unknown[] = [tenant.merchantId, tenant.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (filters.printer) where += ` AND printer_id = $${params.push(filters.printer)}`;
    if (filters.status) where += ` AND status = $${params.push(filters.status)}`;
    return { table: 'print_jobs', where, params };
  }

  async retrieve(db: Queryable, tenant: Tenant, id: string) {
    return printJobObject(await findOwned<PrintJobRow>(db, 'print_jobs', 'print job', tenant, id));
  }

  /**
   * Applies a till's `print_job.result` to one of its own jobs: `pending ->
   * printed | failed`. The same result reported again changes nothing; another
   * result for a finished job is refused.
   */
  async recordResult(db: Queryable, till: TillActor, result: PrintJobResult) {
    const found = await db.query<PrintJobRow>(
      `SELECT * FROM print_jobs WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND till_id = $4 FOR UPDATE`,
      [result.print_job, till.merchantId, till.livemode, till.tillId],
    );
    const row = found.rows[0];
    if (!row) throw notFound('print job', result.print_job);
    const outcome = printJobOutcome(row.status, result);
    if (!outcome) return printJobObject(row);
    return finish(db, till, row, outcome, result.message ?? null);
  }
}

export type PrintJobResult = z.output<(typeof commandPayloads)['print_job.result']>;

/** Fails every job still waiting for a till or a printer that is going away, each with its event. */
export async function failPendingJobs(
  db: Queryable,
  tenant: Tenant,
  of: { tillId: string } | { printerId: string },
  reason: 'till_revoked' | 'offline',
  message: string,
): Promise<void> {
  const column = 'tillId' in of ? 'till_id' : 'printer_id';
  const pending = await db.query<PrintJobRow>(
    `SELECT * FROM print_jobs WHERE ${column} = $1 AND merchant_id = $2 AND livemode = $3
       AND status = 'pending' ORDER BY seq FOR UPDATE`,
    ['tillId' in of ? of.tillId : of.printerId, tenant.merchantId, tenant.livemode],
  );
  for (const job of pending.rows) {
    const outcome =
      reason === 'till_revoked'
        ? failForRevokedTill(job.status)
        : printJobOutcome(job.status, { status: 'failed', failure_reason: reason });
    if (outcome) await finish(db, tenant, job, outcome, message);
  }
}
