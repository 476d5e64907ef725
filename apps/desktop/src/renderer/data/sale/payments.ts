/**
 * The mobile money tender, online only: the till asks the server for a USSD
 * push, then follows the payment (live-stream hints, and a poll as a backstop)
 * until it is paid or failed. Each status seen is kept in `kv`, where
 * `completeSale` checks a mobile money tender was paid.
 */
import { concatMap, exhaustMap, filter, from, interval, merge, startWith, takeWhile } from 'rxjs';
import type { Observable } from 'rxjs';
import type { TillPayment } from '@tz/core';
import { TillRefusal } from '../api.ts';
import type { MobileMoneyRequest } from '../api.ts';
import { currentStore, requireDevice } from '../store/context.ts';
import type { Context } from '../store/context.ts';
import { KV } from '../store/kv.ts';
import { classifyFailure, failureMessage } from '../sync/transport.ts';

export const PAYMENT_POLL_MS = 3000;

function refusal(error: unknown): TillRefusal {
  const kind = classifyFailure(error);
  if (kind === 'unreachable')
    return new TillRefusal('unreachable', 'The server cannot be reached for mobile money');
  if (kind === 'revoked') return new TillRefusal('till_revoked', 'This till was revoked');
  return new TillRefusal('invalid', failureMessage(error));
}

export async function startMobileMoney(
  ctx: Context,
  request: MobileMoneyRequest,
  hints$: Observable<string[]>,
): Promise<Observable<TillPayment>> {
  const { revoked } = await requireDevice(ctx);
  if (revoked) throw new TillRefusal('till_revoked', 'This till was revoked');
  if (!ctx.online()) throw new TillRefusal('offline', 'Mobile money needs the internet: take cash or card');
  const { currency } = await currentStore(ctx);
  let started: TillPayment;
  try {
    started = await ctx.transport.startPayment({
      id: ctx.ids.command(),
      amount: request.amount,
      currency,
      phone: request.phone,
    });
  } catch (error) {
    throw refusal(error);
  }
  await ctx.kv.set(KV.payment(started.id), started);
  const check$ = merge(
    interval(PAYMENT_POLL_MS),
    hints$.pipe(filter((ids) => ids.includes(started.id))),
  ).pipe(
    exhaustMap(() =>
      from(ctx.transport.getPayment({ payment: started.id }).catch(() => null)).pipe(
        filter((payment): payment is TillPayment => payment !== null),
      ),
    ),
  );
  return check$.pipe(
    startWith(started),
    // Kept before it is shown, so a sale completed on 'paid' finds it paid.
    concatMap(async (payment) => {
      await ctx.kv.set(KV.payment(payment.id), payment);
      return payment;
    }),
    takeWhile((payment) => payment.status === 'pending', true),
  );
}
