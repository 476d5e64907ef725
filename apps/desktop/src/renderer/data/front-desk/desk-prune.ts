/**
 * The stays that left the desk's window (core's `leftDeskWindow`: holding no
 * room, ended more than a week ago) are dropped from the till: the feed sends
 * them no more, and they never come back into it, so the till would keep them
 * for ever. A stay a command of this till still names (waiting to sync, or
 * refused and shown as a conflict) stays until that is done with.
 */
import { leftDeskWindow } from '@tz/core';
import type { Context } from '../store/context.ts';
import type { TillDatabase } from '../store/database.ts';
import type { ReservationDoc } from './desk-state.ts';

/** How often the leader tab looks, while the till runs (and once as it starts). */
export const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** Drops the stays that left the window by `nowMs`; answers how many. */
export async function pruneStays(db: TillDatabase, nowMs: number): Promise<number> {
  const stays = await db.records.find({ selector: { kind: 'reservations' } }).exec();
  const gone = stays.filter((doc) => leftDeskWindow(doc.toJSON() as unknown as ReservationDoc, nowMs));
  if (gone.length === 0) return 0;
  const open = await db.commands.find({ selector: { status: { $in: ['pending', 'refused'] } } }).exec();
  const named = new Set(open.map((command) => (command.payload as { reservation?: unknown }).reservation));
  const drop = gone.map((doc) => doc.primary).filter((id) => !named.has(id));
  if (drop.length > 0) await db.records.bulkRemove(drop);
  return drop.length;
}

/** Prunes now and then every `PRUNE_EVERY_MS`; the answer stops it. */
export function startPruning(ctx: Context): () => void {
  // A prune that fails (the till closing under it) drops nothing, and the next one tries again.
  const run = () => void pruneStays(ctx.db, ctx.now()).catch(() => undefined);
  run();
  const timer = setInterval(run, PRUNE_EVERY_MS);
  return () => clearInterval(timer);
}
