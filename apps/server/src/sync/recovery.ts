/**
 * Importing a till's export: the unsynced commands of a till that can no
 * longer sync (revoked, or retired), in a file signed with the till's export
 * key (core's `sync/till-export.ts`). Each command runs through the same write
 * path as a push, keyed by its id, so a command that reached the server before
 * (pushed, or imported already) applies once; a sale applied for the first
 * time here is flagged `recovered`, with an `order.recovered` event.
 */
import {
  AppError,
  tillExportBody,
  verifyTillExport,
  type Command,
  type CommandResult,
  type TillExportFile,
} from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Database, Queryable } from '../db/database.ts';
import { retrieveOrder } from '../retail/orders/read.ts';
import { recordEvent } from '../infra/events.ts';
import { findOwned } from '../infra/owned.ts';
import type { SyncService } from './service.ts';
import { tillActor, tillStatus, type TillRow } from '../tills/tills.ts';

export type RecoveredCommand = {
  id: string;
  type: Command['type'];
  /** True when this import applied it; false when the server had it already. */
  recovered: boolean;
} & (
  | Pick<Extract<CommandResult, { status: 'applied' }>, 'status' | 'result'>
  | Pick<Extract<CommandResult, { status: 'refused' }>, 'status' | 'error'>
  /** The server could not try it now (it is busy or down): import the file again. */
  | { status: 'not_tried' }
);

const invalidExport = (field: string, message: string) =>
  new AppError('till_export_invalid', message, { details: { [field]: message } });

/** Checks the file is this till's, unaltered, and returns its commands. */
export async function openTillExport(row: TillRow, file: TillExportFile): Promise<Command[]> {
  if (file.till !== row.id) throw invalidExport('till', `is not ${row.id}`);
  if (!row.export_key) throw invalidExport('till', 'was never paired, so it signed no export');
  if (!(await verifyTillExport(row.export_key, file.body, file.signature))) {
    throw invalidExport('signature', 'does not match the body and this till’s key');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(file.body);
  } catch {
    throw invalidExport('body', 'is not JSON');
  }
  const body = tillExportBody.safeParse(parsed);
  if (!body.success) throw invalidExport('body', 'is not a till export');
  if (body.data.till !== row.id || body.data.livemode !== row.livemode) {
    throw invalidExport('body', `is not ${row.id}’s, in this mode`);
  }
  return body.data.commands;
}

export class TillRecovery {
  constructor(
    private readonly database: Database,
    private readonly sync: SyncService,
  ) {}

  async recover(tenant: Tenant, id: string, file: TillExportFile) {
    const db = this.database.pool;
    const row = await findOwned<TillRow>(db, 'tills', 'till', tenant, id);
    const status = tillStatus(row);
    if (status === 'paired' || status === 'unpaired') {
      throw new AppError('state_transition_invalid', 'A till still syncing sends its own sales', {
        details: { id: `is ${status}: retire or revoke it first` },
      });
    }
    const commands = await openTillExport(row, file);
    const actor = tillActor(row);
    const results: RecoveredCommand[] = [];
    for (const command of commands) {
      let recovered = false;
      const result = await this.sync.apply(actor, command, async (tx, body) => {
        recovered = body.created !== false;
        if (recovered && command.type === 'order.create') await flagRecovered(tx, tenant, String(body.order));
      });
      const base = { id: command.id, type: command.type, recovered };
      if (!result) {
        // Later commands may depend on this one: none of them is tried either.
        for (const rest of commands.slice(results.length)) {
          results.push({ id: rest.id, type: rest.type, recovered: false, status: 'not_tried' });
        }
        break;
      }
      results.push(
        result.status === 'applied'
          ? { ...base, status: 'applied', result: result.result }
          : { ...base, status: 'refused', error: result.error },
      );
    }
    return {
      object: 'till_recovery' as const,
      till: row.id,
      recovered: results.filter((r) => r.recovered).length,
      already_applied: results.filter((r) => r.status === 'applied' && !r.recovered).length,
      refused: results.filter((r) => r.status === 'refused').length,
      not_tried: results.filter((r) => r.status === 'not_tried').length,
      results,
      livemode: row.livemode,
    };
  }
}

/** Marks a sale that reached the server only through an export, in the transaction that recorded it. */
async function flagRecovered(db: Queryable, tenant: Tenant, orderId: string): Promise<void> {
  await db.query(
    `UPDATE retail_orders SET flags = array_append(flags, 'recovered')
     WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND NOT ('recovered' = ANY (flags))`,
    [orderId, tenant.merchantId, tenant.livemode],
  );
  const object = await retrieveOrder(db, tenant, orderId);
  await recordEvent(db, { ...tenant, type: 'order.recovered', object });
}
