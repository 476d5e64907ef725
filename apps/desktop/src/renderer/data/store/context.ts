/**
 * What every part of the store shares: the database, the clock, ids, the
 * transport and the bridge. Built once by `openTillStore`.
 */
import { AppError, bareStore } from '@tz/core';
import type { PullDocument, StoreSettings } from '@tz/core';
import type { TillBridge } from '../../../shared/bridge.ts';
import { TillRefusal } from '../api.ts';
import type { TillIdentity } from '../api.ts';
import type { CatalogueIndex } from '../catalogue/catalogue-index.ts';
import type { ScaleFormat } from '../catalogue/scale-labels.ts';
import type { TillDatabase } from './database.ts';
import type { EditJournal } from '../cart/edit-journal.ts';
import type { Ids } from './ids.ts';
import { KV } from './kv.ts';
import type { Kv } from './kv.ts';
import type { SyncTransport } from '../sync/transport.ts';

export interface Device {
  till: TillIdentity;
  /** Made at each pairing: a new pairing pulls everything afresh. */
  pairing: string;
  revoked: boolean;
  /** The merchant retired this till: `retiring` while it sends its backlog, `done` once it arrived. */
  retired?: 'retiring' | 'done';
}

/** The till syncs no more: revoked, or retired with everything sent. */
export const hasEnded = (current: Device | null): boolean =>
  current !== null && (current.revoked || current.retired === 'done');

export interface Context {
  db: TillDatabase;
  kv: Kv;
  /** Barcodes and products with variants in memory, once built. */
  catalogue: CatalogueIndex;
  /** How the store's scale labels read, kept current. */
  scale: ScaleFormat;
  /** Cart edits shown but not yet written, kept across a reload. */
  journal: EditJournal;
  ids: Ids;
  now: () => number;
  transport: SyncTransport;
  bridge: () => TillBridge | null;
  /** The bridge, looked for again first when there is none (a print about to say "no printer"). */
  recheckBridge?: () => Promise<TillBridge | null>;
  appVersion: string;
  /** The server's address as this till reaches it (receipt links use the public one when paired with it). */
  serverUrl?: string;
  /** False when the browser knows it has no network. */
  online: () => boolean;
}

export async function device(ctx: Context): Promise<Device | null> {
  return ctx.kv.get<Device>(KV.device);
}

export async function requireDevice(ctx: Context): Promise<Device> {
  const current = await device(ctx);
  if (!current) throw new TillRefusal('not_paired', 'This till is not paired yet');
  return current;
}

/** Commands the server has not yet applied or refused. */
export async function unsyncedCount(ctx: Context): Promise<number> {
  return ctx.db.commands.count({ selector: { status: 'pending' } }).exec();
}

export async function refuseWhileUnsynced(ctx: Context, what: string): Promise<void> {
  const count = await unsyncedCount(ctx);
  if (count > 0 && hasEnded(await device(ctx))) {
    // Waiting would never help: they leave in an export, or are given up.
    throw new TillRefusal('ended_unsynced', `${count} unsynced changes: export or abandon them first`, {
      count,
    });
  }
  if (count > 0) {
    throw new TillRefusal(
      'unsynced_commands',
      `${count} unsynced ${count === 1 ? 'change' : 'changes'} must reach the server before ${what}`,
      { count },
    );
  }
}

/** The till's store as pulled or, until it has synced, a bare store named after the business. */
export const sellingStore = (doc: { toJSON(): unknown } | null, current: Device | null): StoreSettings =>
  doc ? (doc.toJSON() as PullDocument<'stores'>) : bareStore(current?.till.merchant.businessName ?? '');

/** What the till sells and prints under now (`sellingStore`). */
export async function currentStore(ctx: Context): Promise<StoreSettings> {
  const current = await device(ctx);
  const doc = current ? await ctx.db.stores.findOne(current.till.store).exec() : null;
  return sellingStore(doc, current);
}

/** Core's pricing and tender errors become refusals the screens can name. */
export function asRefusal(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  const code =
    error.code === 'tender_insufficient' || error.code === 'tender_exceeds_due' ? error.code : 'invalid';
  const details: Record<string, string> = { core: error.code, ...error.details };
  return new TillRefusal(code, error.message, details);
}

export async function withRefusals<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asRefusal(error);
  }
}
