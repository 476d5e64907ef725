import { paymentsCoveredByPayouts } from '@tz/core';
import type { Queryable } from '../db/database.ts';

interface PaidPayout {
  id: string;
  merchant_id: string;
  livemode: boolean;
  currency: string;
}

/**
 * When a payout is paid, the payments it paid out move from payout_status
 * `pending` to `paid` and point at it. Payments are paid out in the order they
 * were paid (`paymentsCoveredByPayouts`): the money paid out so far in this
 * mode and currency, less the nets of the payments already marked, covers the
 * oldest payments still awaiting a payout, whole ones only. Runs under the
 * balance lock, so two payouts settling at once never count the same money.
 */
export async function markPaymentsPaidOut(db: Queryable, payout: PaidPayout): Promise<string[]> {
  const scope = [payout.merchant_id, payout.livemode, payout.currency];
  const unassigned = await db.query<{ amount: number }>(
    `SELECT ((SELECT coalesce(sum(amount), 0) FROM payouts
              WHERE merchant_id = $1 AND livemode = $2 AND currency = $3 AND status = 'paid')
           - (SELECT coalesce(sum(net), 0) FROM payments
              WHERE merchant_id = $1 AND livemode = $2 AND currency = $3 AND payout_id IS NOT NULL))::bigint AS amount`,
    scope,
  );
  const awaiting = await db.query<{ id: string; net: number }>(
    `SELECT id, net FROM payments
     WHERE merchant_id = $1 AND livemode = $2 AND currency = $3 AND payout_status = 'pending'
     ORDER BY paid_at, seq FOR UPDATE`,
    scope,
  );
  const covered = paymentsCoveredByPayouts(awaiting.rows, unassigned.rows[0]!.amount);
  if (covered.length > 0) {
    await db.query(`UPDATE payments SET payout_status = 'paid', payout_id = $2 WHERE id = ANY($1::text[])`, [
      covered,
      payout.id,
    ]);
  }
  return covered;
}
