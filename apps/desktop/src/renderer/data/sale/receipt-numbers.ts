/**
 * Receipt numbers, unique and gapless per till (`T01-000123`).
 *
 * A number is given by the sale's one write: the `order.create` command
 * carries `receipt_number`, and nothing else has to be written first. The
 * tab that holds the sale lock keeps the last number in memory; the number is
 * remembered as used only once the command is written, so a sale that fails
 * or a crash before the write leaves no gap, and a crash after it leaves the
 * number on its sale.
 *
 * Whenever the lock's turn changes (this tab gained the lock, and another tab
 * may have sold meanwhile, or the till was just opened) the last number is
 * read from storage as the larger of the `counter:receipt:<prefix>` document
 * and the numbers on the newest sales. The counter is written after each sale
 * (off the sale's path, but before the lock is given up), so it lags only
 * when a tab died between its sale and that write: the newest sales cover
 * that one. The reads go to the storage itself, not RxDB's caches, which hear
 * of another tab's writes only some time later.
 */
import { normalizeMangoQuery, prepareQuery } from 'rxdb';
import { formatReceiptNumber, parseReceiptNumber } from '@tz/core';
import type { Context } from '../store/context.ts';
import { KV } from '../store/kv.ts';

export const receiptCounterKey = (prefix: string) => `${KV.receiptCounter}:${prefix}`;

/** How many of the newest sales are read for their numbers: far more than could lag the counter. */
const NEWEST_SALES = 50;

interface Remembered {
  turn: number;
  prefix: string;
  last: number;
}

const remembered = new WeakMap<Context, Remembered>();

/** The largest sequence with this prefix the till has used, read from storage. */
export async function lastUsedSequence(ctx: Context, prefix: string): Promise<number> {
  const kv = ctx.db.kv;
  const commands = ctx.db.commands;
  const newest = prepareQuery(
    commands.schema.jsonSchema,
    normalizeMangoQuery(commands.schema.jsonSchema, {
      selector: { type: 'order.create' },
      sort: [{ id: 'desc' }],
      limit: NEWEST_SALES,
    }),
  );
  const [counters, sales] = await Promise.all([
    kv.storageInstance.findDocumentsById([receiptCounterKey(prefix)], false),
    commands.storageInstance.query(newest),
  ]);
  let last = 0;
  const counter = counters[0]?.value;
  if (typeof counter === 'number' && Number.isSafeInteger(counter)) last = counter;
  for (const sale of sales.documents) {
    const parts = sale.receipt_number ? parseReceiptNumber(sale.receipt_number) : null;
    if (parts?.tillPrefix === prefix) last = Math.max(last, parts.sequence);
  }
  return last;
}

/**
 * The number the next sale would take, under the sale lock's `turn`. Taking
 * it uses nothing up: `numberUsed` does, once the sale is written.
 */
export async function nextReceiptNumber(ctx: Context, prefix: string, turn: number): Promise<string> {
  let known = remembered.get(ctx);
  if (known?.turn !== turn || known.prefix !== prefix) {
    known = { turn, prefix, last: await lastUsedSequence(ctx, prefix) };
    remembered.set(ctx, known);
  }
  return formatReceiptNumber(prefix, known.last + 1);
}

/** The sale carrying `receiptNumber` is written: the next sale takes the one after. */
export function numberUsed(ctx: Context, receiptNumber: string, turn: number): Promise<unknown> {
  const parts = parseReceiptNumber(receiptNumber);
  if (!parts) return Promise.resolve();
  const known = remembered.get(ctx);
  if (known?.turn === turn && known.prefix === parts.tillPrefix) known.last = parts.sequence;
  // For the next holder of the lock; it never goes down, so an older write cannot undo a newer one.
  return ctx.kv.update<number>(receiptCounterKey(parts.tillPrefix), 0, (last) =>
    Math.max(last, parts.sequence),
  );
}

/** Forget what was remembered (the till is closing). */
export function forgetNumbers(ctx: Context): void {
  remembered.delete(ctx);
}
