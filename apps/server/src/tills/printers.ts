import {
  CODE_PAGE_COMMAND_SETS,
  newId,
  parsePrinterConnection,
  type PrinterAllowance,
  type PrinterCodePage,
  type PrinterCommandSet,
  type PrinterPaperWidth,
  type PrinterStatus,
} from '@tz/core';
import { printerConnectionProblem } from '@tz/core/printer-addresses';
import type { Queryable } from '../db/database.ts';
import { findOwned } from '../infra/owned.ts';
import { unixOrNull, unixSeconds } from '../infra/time.ts';
import { invalid } from '../retail/shared.ts';
import { failPendingJobs } from './print-jobs.ts';
import type { Tenant } from '../actor.ts';

export interface PrinterRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  till_id: string;
  name: string;
  connection: string;
  paper_width: PrinterPaperWidth;
  command_set: PrinterCommandSet;
  code_page: PrinterCodePage | null;
  status: PrinterStatus;
  status_at: Date | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

/** What the API and the till's document both show of a printer's set-up. */
const printerSettings = (row: PrinterRow) => ({
  till: row.till_id,
  name: row.name,
  connection: row.connection,
  paper_width: row.paper_width,
  command_set: row.command_set,
  code_page: row.code_page,
});

export const printerObject = (row: PrinterRow) => ({
  id: row.id,
  object: 'printer' as const,
  ...printerSettings(row),
  status: row.status,
  status_since: unixOrNull(row.status_at),
  deleted: row.deleted_at !== null,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  updated: unixSeconds(row.updated_at),
});
export type PrinterObject = ReturnType<typeof printerObject>;

/** The printer as its till pulls it (`printerDoc`); a deleted printer is a deleted document. */
export const printerDocument = (row: PrinterRow) => ({
  id: row.id,
  _deleted: row.deleted_at !== null,
  ...printerSettings(row),
});

export interface PrinterInput {
  till: string;
  name: string;
  connection: string;
  paper_width: PrinterPaperWidth;
  command_set: PrinterCommandSet;
  code_page?: PrinterCodePage | null | undefined;
}
export type PrinterPatch = { [K in Exclude<keyof PrinterInput, 'till'>]?: PrinterInput[K] | undefined };

/** Star Line Mode has no PC850 table: a printer set up so could not print a receipt. */
function assertCodePageFits(codePage: PrinterCodePage | null, commandSet: PrinterCommandSet): void {
  if (codePage !== null && !CODE_PAGE_COMMAND_SETS[codePage].includes(commandSet)) {
    throw invalid('parameter_invalid', 'code_page', `${codePage} is not available on ${commandSet} printers`);
  }
}

/** A connection a till may be sent to (`printerConnectionProblem`, under the server's allowance). */
function assertConnectionAllowed(connection: string, allowance: PrinterAllowance): void {
  const parsed = parsePrinterConnection(connection);
  const problem = parsed && printerConnectionProblem(parsed, allowance);
  if (problem) throw invalid('parameter_invalid', 'connection', problem.message);
}

async function findPrinter(db: Queryable, tenant: Tenant, id: string, lock = false): Promise<PrinterRow> {
  return findOwned<PrinterRow>(db, 'printers', 'printer', tenant, id, { lock });
}

export class PrinterService {
  async create(db: Queryable, tenant: Tenant, input: PrinterInput, allowance: PrinterAllowance) {
    assertConnectionAllowed(input.connection, allowance);
    const tills = await db.query<{ revoked: boolean }>(
      `SELECT revoked_at IS NOT NULL AS revoked FROM tills WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      [input.till, tenant.merchantId, tenant.livemode],
    );
    const till = tills.rows[0];
    if (!till) throw invalid('parameter_invalid', 'till', 'is not a till of this account');
    if (till.revoked) throw invalid('parameter_invalid', 'till', 'was removed (revoked)');
    const codePage = input.code_page ?? null;
    assertCodePageFits(codePage, input.command_set);
    const inserted = await db.query<PrinterRow>(
      `INSERT INTO printers (id, merchant_id, livemode, till_id, name, connection, paper_width, command_set, code_page)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
      [
        newId('printer'),
        tenant.merchantId,
        tenant.livemode,
        input.till,
        input.name,
        input.connection,
        input.paper_width,
        input.command_set,
        codePage,
      ],
    );
    return printerObject(inserted.rows[0]!);
  }

  async retrieve(db: Queryable, tenant: Tenant, id: string) {
    return printerObject(await findPrinter(db, tenant, id));
  }

  listSource(tenant: Tenant, filters: { till?: string | undefined; include_deleted?: boolean | undefined }) {
    const params: unknown[] = [tenant.merchantId, tenant.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (filters.till) where += ` AND till_id = $${params.push(filters.till)}`;
    if (!filters.include_deleted) where += ' AND deleted_at IS NULL';
    return { table: 'printers', where, params };
  }

  async update(db: Queryable, tenant: Tenant, id: string, patch: PrinterPatch, allowance: PrinterAllowance) {
    if (patch.connection !== undefined) assertConnectionAllowed(patch.connection, allowance);
    const row = await findPrinter(db, tenant, id, true);
    if (row.deleted_at) throw invalid('parameter_invalid', 'id', 'is a deleted printer');
    const next = {
      name: patch.name ?? row.name,
      connection: patch.connection ?? row.connection,
      paper_width: patch.paper_width ?? row.paper_width,
      command_set: patch.command_set ?? row.command_set,
      code_page: patch.code_page === undefined ? row.code_page : patch.code_page,
    };
    assertCodePageFits(next.code_page, next.command_set);
    const updated = await db.query<PrinterRow>(
      `UPDATE printers SET name = $2, connection = $3, paper_width = $4, command_set = $5, code_page = $6,
         updated_at = now()
       WHERE id = $1 RETURNING *`,
      [id, next.name, next.connection, next.paper_width, next.command_set, next.code_page],
    );
    return printerObject(updated.rows[0]!);
  }

  /**
   * Deletes a printer (it stays retrievable, marked `deleted`, so its jobs keep
   * naming it). Jobs still waiting for it fail with `offline`. Deleting again
   * changes nothing.
   */
  async delete(db: Queryable, tenant: Tenant, id: string) {
    const row = await findPrinter(db, tenant, id, true);
    if (row.deleted_at) return printerObject(row);
    const updated = await db.query<PrinterRow>(
      `UPDATE printers SET deleted_at = now(), updated_at = now() WHERE id = $1 RETURNING *`,
      [id],
    );
    await failPendingJobs(db, tenant, { printerId: id }, 'offline', 'The printer was deleted');
    return printerObject(updated.rows[0]!);
  }
}
