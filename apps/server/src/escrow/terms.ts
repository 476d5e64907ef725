import type { Queryable } from '../db/database.ts';

/**
 * What escrow moved, per holding merchant, mode and currency: the terms a
 * reconciliation adds (docs/ESCROW.md). From the ledger: `held` in,
 * `released_to_merchants`, `sent_to_phones`, `fees` and `refunded` out, and
 * `still_held`, the escrow account's balance (= held − the four outs). Beside
 * them, from the escrow tables: `payments_net`, the net of the payments held
 * (= held), and `owed`, what the escrows' states say is still held (= still_held).
 */
export interface EscrowTerms {
  merchant_id: string;
  livemode: boolean;
  currency: string;
  held: number;
  released_to_merchants: number;
  sent_to_phones: number;
  fees: number;
  refunded: number;
  still_held: number;
  payments_net: number;
  owed: number;
}

export const ESCROW_TERMS_SQL = `
WITH moves AS (
  SELECT e.merchant_id, e.livemode, e.currency, t.type, e.amount,
         (SELECT c.account FROM ledger_postings c
          WHERE c.transaction_id = e.transaction_id AND c.account <> 'merchant_escrow' LIMIT 1) AS counter
  FROM ledger_postings e JOIN ledger_transactions t ON t.id = e.transaction_id
  WHERE e.account = 'merchant_escrow'
), ledger AS (
  SELECT merchant_id, livemode, currency,
    coalesce(sum(amount) FILTER (WHERE type = 'escrow_hold'), 0) AS held,
    coalesce(-sum(amount) FILTER (WHERE type = 'escrow_release' AND counter = 'merchant_available'), 0)
      AS released_to_merchants,
    coalesce(-sum(amount) FILTER (WHERE type = 'escrow_release' AND counter = 'provider_clearing'), 0)
      AS sent_to_phones,
    coalesce(-sum(amount) FILTER (WHERE type = 'escrow_release' AND counter = 'platform_fees'), 0) AS fees,
    coalesce(-sum(amount) FILTER (WHERE type = 'escrow_refund'), 0) AS refunded,
    sum(amount) AS still_held
  FROM moves GROUP BY merchant_id, livemode, currency
), states AS (
  SELECT e.merchant_id, e.livemode, e.currency, sum(p.net) AS payments_net,
    sum(CASE WHEN e.status = 'refunded' THEN 0 ELSE
      (SELECT coalesce(sum(s.amount), 0) FROM escrow_splits s
       WHERE s.escrow_id = e.id AND s.status IN ('held', 'sending'))
      + CASE WHEN e.fee_collected THEN 0 ELSE e.platform_fee END END) AS owed
  FROM escrows e JOIN payments p ON p.id = e.payment_id
  GROUP BY e.merchant_id, e.livemode, e.currency
)
SELECT merchant_id, livemode, currency,
  coalesce(l.held, 0)::bigint AS held,
  coalesce(l.released_to_merchants, 0)::bigint AS released_to_merchants,
  coalesce(l.sent_to_phones, 0)::bigint AS sent_to_phones,
  coalesce(l.fees, 0)::bigint AS fees,
  coalesce(l.refunded, 0)::bigint AS refunded,
  coalesce(l.still_held, 0)::bigint AS still_held,
  coalesce(s.payments_net, 0)::bigint AS payments_net,
  coalesce(s.owed, 0)::bigint AS owed
FROM ledger l FULL JOIN states s USING (merchant_id, livemode, currency)
ORDER BY merchant_id, livemode, currency`;

export async function escrowTerms(db: Queryable): Promise<EscrowTerms[]> {
  return (await db.query<EscrowTerms>(ESCROW_TERMS_SQL)).rows;
}
