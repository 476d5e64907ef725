/**
 * Cash taken at the desk (a deposit, a payment at check-out): in shillings, or
 * in a currency the property takes (`deskCurrencies`: dollars at its
 * `usd_rate`), kept beside its shillings on the folio. Shillings go into the
 * open shift's drawer count; foreign cash is counted apart.
 */
import { deskCurrencies, shillingsOf, type ForeignTender } from '@tz/core';
import { TillRefusal, type ForeignCash } from '../api.ts';
import type { Context } from '../store/context.ts';
import { openShiftId, queueCommand } from '../shifts/shifts.ts';
import type { PropertyDoc } from './desk-state.ts';

/** What the desk took: shillings, a foreign payment at the property's rate, and its worth in shillings. */
export interface DeskCash {
  shillings: number;
  foreign: ForeignTender | null;
  /** `shillings` plus the foreign payment's worth. */
  worth: number;
}

/** Checks what the cashier typed against the currencies the property takes. */
export function deskCash(
  property: PropertyDoc,
  shillings: number | undefined,
  foreign: ForeignCash | undefined,
  field: string,
): DeskCash {
  const amount = shillings ?? 0;
  if (!Number.isInteger(amount) || amount < 0)
    throw new TillRefusal('invalid', 'Whole shillings, not below zero', { field });
  if (!foreign || foreign.amount === 0) return { shillings: amount, foreign: null, worth: amount };
  const accepted = deskCurrencies(property).find((one) => one.currency === foreign.currency);
  if (!accepted)
    throw new TillRefusal('invalid', `The desk takes no ${foreign.currency} here`, {
      field: `${field}.currency`,
    });
  if (!Number.isInteger(foreign.amount) || foreign.amount < 0)
    throw new TillRefusal('invalid', 'A whole amount, not below zero', { field: `${field}.amount` });
  const tender: ForeignTender = { currency: accepted.currency, amount: foreign.amount, rate: accepted.rate };
  return { shillings: amount, foreign: tender, worth: amount + shillingsOf(tender) };
}

/**
 * Queues what the desk took as `folio.payment`s (shillings and foreign cash
 * apart), with the open shift and the cashier, so the server's Z report counts
 * the drawer as the till's does.
 */
export async function takeCash(
  ctx: Context,
  reservation: string,
  method: 'cash' | 'deposit',
  cash: DeskCash,
  cashier: string,
  at: number,
): Promise<void> {
  const shift = await openShiftId(ctx);
  const payments = [
    ...(cash.shillings > 0 ? [{ amount: cash.shillings }] : []),
    ...(cash.foreign ? [{ foreign: cash.foreign }] : []),
  ];
  for (const payment of payments)
    await queueCommand(
      ctx,
      'folio.payment',
      { reservation, method, ...payment, at, cashier, ...(shift ? { shift } : {}) },
      { cashier, ...(shift ? { shift } : {}) },
    );
}
