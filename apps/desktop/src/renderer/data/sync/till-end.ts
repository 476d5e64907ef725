/**
 * A till that can no longer sync (revoked, or retired before its backlog
 * left) still holds sales that are real money in its drawer. They leave it in
 * an export: a file signed with the till's key (core's `sync/till-export.ts`)
 * that the merchant imports with `POST /v1/tills/{id}/recover`, where each
 * applies once. Or a manager gives them up. Either way the device can then be
 * paired again.
 */
import { makeTillExport, tillExportKey, TILL_EXPORT_MAX_COMMANDS, type Command } from '@tz/core';
import { TillRefusal, type TillExportDownload } from '../api.ts';
import { hasEnded, requireDevice, unsyncedCount, type Context } from '../store/context.ts';
import { KV } from '../store/kv.ts';
import { approveByManager, loadCredential } from '../session/session.ts';

/** Only an ended till exports or abandons: a working one sends its own. */
async function requireEnded(ctx: Context) {
  const current = await requireDevice(ctx);
  if (!hasEnded(current)) {
    throw new TillRefusal('unsynced_commands', 'This till still syncs: its changes are sent, not exported');
  }
  return current;
}

const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');

export async function exportUnsynced(ctx: Context): Promise<TillExportDownload> {
  const { till } = await requireEnded(ctx);
  const docs = await ctx.db.commands
    .find({
      selector: { status: 'pending' },
      sort: [{ status: 'asc' }, { id: 'asc' }],
      limit: TILL_EXPORT_MAX_COMMANDS,
    })
    .exec();
  if (docs.length === 0) {
    const last = await ctx.kv.get<TillExportDownload>(KV.tillExport);
    if (last) return last;
    throw new TillRefusal('nothing_to_export', 'Nothing on this till is unsynced');
  }
  const credential = await loadCredential(ctx);
  if (!credential) throw new TillRefusal('not_paired', 'This till holds no key to sign with');
  const commands: Command[] = docs.map((doc) => ({
    id: doc.id,
    type: doc.type,
    created_at: doc.created_at,
    payload: doc.toJSON().payload,
  }));
  const file = await makeTillExport(await tillExportKey(credential), {
    till: till.id,
    livemode: till.livemode,
    exported_at: ctx.now(),
    commands,
  });
  const download: TillExportDownload = {
    filename: `${till.id}-unsynced-${stamp(ctx.now())}.json`,
    text: `${JSON.stringify(file, null, 2)}\n`,
    count: commands.length,
  };
  // Kept first, so a file made is never lost with its commands marked exported.
  await ctx.kv.set(KV.tillExport, download);
  await Promise.all(docs.map((doc) => doc.incrementalPatch({ status: 'exported' })));
  void tellBacklog(ctx);
  return download;
}

/**
 * The commands the server refused, with its reasons, as a file a manager can
 * keep or send on: a refused sale is money taken that the server could not
 * record, so it is never dropped from the till, and leaves it whole this way.
 */
export async function exportRefused(ctx: Context): Promise<TillExportDownload> {
  const { till } = await requireDevice(ctx);
  const docs = await ctx.db.commands
    .find({ selector: { status: 'refused' }, sort: [{ status: 'asc' }, { id: 'asc' }] })
    .exec();
  if (docs.length === 0)
    throw new TillRefusal('nothing_to_export', 'The server refused nothing from this till');
  const commands = docs.map((doc) => {
    const command = doc.toJSON();
    return {
      id: command.id,
      type: command.type,
      created_at: command.created_at,
      receipt_number: command.receipt_number,
      payload: command.payload,
      error: command.error,
    };
  });
  const file = {
    object: 'till_refused_commands',
    till: till.id,
    livemode: till.livemode,
    exported_at: ctx.now(),
    commands,
  };
  return {
    filename: `${till.id}-refused-${stamp(ctx.now())}.json`,
    text: `${JSON.stringify(file, null, 2)}\n`,
    count: commands.length,
  };
}

export async function abandonUnsynced(ctx: Context, managerPin: string): Promise<number> {
  await requireEnded(ctx);
  await approveByManager(ctx, managerPin);
  const pending = await ctx.db.commands.find({ selector: { status: 'pending' } }).exec();
  await Promise.all(pending.map((doc) => doc.incrementalPatch({ status: 'abandoned' })));
  void tellBacklog(ctx);
  return pending.length;
}

/** The server shows each till's backlog as it last reported, a removed till's too: best effort. */
export async function tellBacklog(ctx: Context): Promise<void> {
  if (!ctx.online()) return;
  const backlog = await unsyncedCount(ctx);
  await ctx.transport.report({ app_version: ctx.appVersion, backlog }).catch(() => undefined);
}
