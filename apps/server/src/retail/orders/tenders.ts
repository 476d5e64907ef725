/** A sale's tenders, checked against the payments and the stays they name. */
import {
  mobileMoneyTenderProblem,
  roomChargeRefusal,
  type Currency,
  type OrderTenderInput,
  type PaymentId,
  type ReservationStatus,
  type TenderInput,
} from '@tz/core';
import type { Tenant } from '../../actor.ts';
import type { Queryable } from '../../db/database.ts';
import { invalid } from '../shared.ts';

interface PaymentInfo {
  id: string;
  status: string;
  currency: Currency;
  amount: number;
  network: string | null;
  phone: string;
  provider_reference: string | null;
  used: boolean;
}

/** Mobile money tenders must name a paid payment of this account, in the order's currency, not used by another order. */
export async function resolveTenders(
  db: Queryable,
  tenant: Tenant,
  tenders: readonly OrderTenderInput[],
  currency: Currency,
): Promise<TenderInput[]> {
  const paymentIds = tenders.flatMap((tender) => (tender.method === 'mobile_money' ? [tender.payment] : []));
  const payments = new Map<string, PaymentInfo>();
  if (paymentIds.length > 0) {
    const found = await db.query<PaymentInfo>(
      `SELECT p.id, p.status, p.currency, p.amount, p.network, p.phone, p.provider_reference,
         (EXISTS (SELECT 1 FROM retail_order_tenders t WHERE t.payment_id = p.id AND t.active)
           OR EXISTS (SELECT 1 FROM event_order_tenders e WHERE e.payment_id = p.id)) AS used
       FROM payments p WHERE p.id = ANY($1::text[]) AND p.merchant_id = $2 AND p.livemode = $3`,
      [paymentIds, tenant.merchantId, tenant.livemode],
    );
    for (const row of found.rows) payments.set(row.id, row);
  }
  const stays = await roomsToCharge(db, tenant, tenders);
  const seen = new Map<string, number>();
  return tenders.map((tender, index): TenderInput => {
    const at = `tenders.${index}`;
    switch (tender.method) {
      case 'cash':
        return { method: 'cash', amount: tender.amount, currency };
      case 'card':
        return { method: 'card', amount: tender.amount, reference: tender.reference, currency };
      case 'room': {
        const stay = stays.get(tender.reservation);
        if (!stay)
          throw invalid('parameter_invalid', `${at}.reservation`, 'is not a reservation of this account');
        if (stay.status !== 'checked_in' || stay.folio_closed)
          throw invalid('parameter_invalid', `${at}.reservation`, roomChargeRefusal(stay.status));
        return {
          method: 'room',
          amount: tender.amount,
          reservation: tender.reservation,
          room: stay.room ?? undefined,
          currency,
        };
      }
      case 'mobile_money': {
        const payment = payments.get(tender.payment);
        if (!payment) throw invalid('parameter_invalid', `${at}.payment`, 'is not a payment of this account');
        const earlier = seen.get(payment.id);
        if (earlier !== undefined)
          throw invalid('payment_already_used', `${at}.payment`, `repeats tenders.${earlier}.payment`);
        seen.set(payment.id, index);
        const problem = mobileMoneyTenderProblem(payment, currency, tender.amount);
        if (problem) throw invalid(problem.code, `${at}.${problem.field}`, problem.message);
        return {
          method: 'mobile_money',
          amount: payment.amount,
          paymentId: payment.id as PaymentId,
          network: payment.network ?? undefined,
          // The receipt shows the provider's reference (the payer's SMS has it), else the payer's number.
          reference: payment.provider_reference ?? undefined,
          phone: payment.phone,
          currency,
        };
      }
    }
  });
}

/**
 * The stays a sale's room tenders name, locked (so a check-out waits for the
 * sale's folio line), with their room numbers for the receipt.
 */
async function roomsToCharge(db: Queryable, tenant: Tenant, tenders: readonly OrderTenderInput[]) {
  const ids = tenders.flatMap((tender) => (tender.method === 'room' ? [tender.reservation] : []));
  const stays = new Map<string, { status: ReservationStatus; folio_closed: boolean; room: string | null }>();
  if (ids.length === 0) return stays;
  const found = await db.query<{
    id: string;
    status: ReservationStatus;
    folio_closed: boolean;
    room: string | null;
  }>(
    `SELECT r.id, r.status, r.folio_closed_at IS NOT NULL AS folio_closed, m.number AS room
     FROM hospitality_reservations r LEFT JOIN hospitality_rooms m ON m.id = r.room_id
     WHERE r.id = ANY($1::text[]) AND r.merchant_id = $2 AND r.livemode = $3 ORDER BY r.id FOR UPDATE OF r`,
    [ids, tenant.merchantId, tenant.livemode],
  );
  for (const row of found.rows) stays.set(row.id, row);
  return stays;
}
