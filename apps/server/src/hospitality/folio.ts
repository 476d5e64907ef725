/**
 * A reservation's folio: its lines (nights posted by the night audit, extras,
 * adjustments, payments) and balance. Cash and deposits taken at the desk are
 * recorded here only, as a till's cash sale is recorded on its order: the
 * ledger holds the money the platform holds. A mobile money payment is made
 * through the payment service, which posts it to the ledger when it succeeds
 * and tells the folio (`applyPaymentOutcome`), as it tells an invoice.
 */
import {
  AppError,
  newId,
  shillingsOf,
  type FolioChargeInput,
  type FolioLineKind,
  type FolioPaymentInput,
} from '@tz/core';
import type { Actor, Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { Clock } from '../infra/clock.ts';
import { unixOrNull, unixSeconds } from '../infra/time.ts';
import type { PaymentObject, PaymentRow, PaymentService } from '../payments/service.ts';
import type { ReservationRow } from './objects.ts';
import { postDueNights } from './folio-nights.ts';
import { findReservation } from './stays.ts';

export interface FolioLineRow {
  id: string;
  reservation_id: string;
  kind: FolioLineKind;
  night: string | null;
  description: string | null;
  amount: number;
  currency: 'TZS';
  order_id: string | null;
  payment_id: string | null;
  foreign_currency: string | null;
  foreign_amount: number | null;
  exchange_rate: number | null;
  audit_id: string | null;
  created_by: string | null;
  created_at: Date;
}

export const folioLineObject = (row: FolioLineRow) => ({
  id: row.id,
  object: 'folio_line' as const,
  kind: row.kind,
  night: row.night,
  description: row.description,
  amount: row.amount,
  currency: row.currency,
  order: row.order_id,
  payment: row.payment_id,
  foreign:
    row.foreign_currency === null
      ? null
      : { currency: row.foreign_currency, amount: row.foreign_amount!, rate: row.exchange_rate! },
  night_audit: row.audit_id,
  created: unixSeconds(row.created_at),
});

const PAYMENT_KINDS: readonly FolioLineKind[] = ['cash', 'mobile_money', 'deposit'];

/**
 * Who did it, as a folio line and an override record it: the credential's kind
 * and id, and at a till the employee the command names (`till:till_…/employee:emp_…`).
 */
export const actorName = (actor: Actor): string =>
  `${actor.kind}:${actor.credentialId}${actor.employeeId ? `/employee:${actor.employeeId}` : ''}`;

/** The folio's balance: charges less payments, in shillings. */
export async function folioBalance(db: Queryable, reservationId: string): Promise<number> {
  const found = await db.query<{ balance: number }>(
    `SELECT coalesce(sum(amount), 0)::bigint AS balance FROM hospitality_folio_lines WHERE reservation_id = $1`,
    [reservationId],
  );
  return found.rows[0]!.balance;
}

/** The folio as the API shows it; `row` is the reservation as read in this transaction. */
export async function folioObject(
  db: Queryable,
  row: ReservationRow,
  toPayment: (p: PaymentRow) => PaymentObject,
) {
  const lines = await db.query<FolioLineRow>(
    `SELECT * FROM hospitality_folio_lines WHERE reservation_id = $1 ORDER BY seq`,
    [row.id],
  );
  const pending = await db.query<PaymentRow>(
    `SELECT * FROM payments WHERE reservation_id = $1 AND status = 'pending' ORDER BY created_at, id`,
    [row.id],
  );
  let charges = 0;
  let payments = 0;
  for (const line of lines.rows) {
    if (PAYMENT_KINDS.includes(line.kind)) payments -= line.amount;
    else charges += line.amount;
  }
  const closed = row.folio_closed_at !== null;
  return {
    object: 'folio' as const,
    reservation: row.id,
    status: closed ? ('closed' as const) : ('open' as const),
    currency: row.currency,
    quote_total: row.total,
    charges,
    payments,
    balance: charges - payments,
    lines: lines.rows.map(folioLineObject),
    pending_payments: pending.rows.map(toPayment),
    closed: unixOrNull(row.folio_closed_at),
    closing_balance: row.folio_closing_balance,
    override:
      row.folio_override_reason === null
        ? null
        : { reason: row.folio_override_reason, by: row.folio_override_by! },
    livemode: row.livemode,
  };
}
export type FolioObject = Awaited<ReturnType<typeof folioObject>>;

export class FolioService {
  constructor(
    private readonly clock: Clock,
    private readonly payments: PaymentService,
  ) {}

  async retrieve(db: Queryable, tenant: Tenant, id: string): Promise<FolioObject> {
    return this.toObject(db, await findReservation(db, tenant, id));
  }

  toObject(db: Queryable, row: ReservationRow): Promise<FolioObject> {
    return folioObject(db, row, this.payments.toObject);
  }

  /** An extra the guest had, or an adjustment either way, on a folio still open. */
  async charge(db: Queryable, actor: Actor, id: string, input: FolioChargeInput): Promise<FolioObject> {
    const row = await this.openFolio(db, actor, id);
    await insertFolioLine(db, row, {
      kind: input.kind ?? 'extra',
      description: input.description,
      amount: input.amount,
      by: actorName(actor),
    });
    return folioObject(db, row, this.payments.toObject);
  }

  /**
   * Cash or a deposit taken at the desk (in shillings, or another currency at
   * the rate given), or a mobile money payment asked of the payer, whose
   * success posts the folio's line.
   */
  async pay(
    db: Queryable,
    actor: Actor,
    id: string,
    input: FolioPaymentInput,
    afterCommit: (task: () => Promise<void>) => void,
    drawer?: { shiftId: string; cashierId: string | null },
  ): Promise<FolioObject> {
    const row = await this.openFolio(db, actor, id);
    if (input.method === 'mobile_money') {
      await this.payments.create(
        db,
        actor,
        {
          amount: input.amount,
          currency: 'TZS',
          phone: input.phone,
          description: `Stay ${row.id}: ${row.guest_name}`.slice(0, 200),
          customer: row.customer_id ?? undefined,
          metadata: { reservation: row.id },
          reservationId: row.id,
        },
        afterCommit,
      );
    } else {
      const worth = input.foreign === undefined ? undefined : shillingsOf(input.foreign);
      if (input.amount !== undefined && worth !== undefined && input.amount !== worth)
        throw new AppError(
          'amount_invalid',
          `amount is ${input.amount} but the foreign payment is worth ${worth} shillings at its rate`,
          { details: { amount: `must be ${worth}, or left out` } },
        );
      await insertFolioLine(db, row, {
        kind: input.method,
        description: input.description ?? null,
        amount: -(input.amount ?? worth!),
        foreign: input.foreign,
        by: actorName(actor),
        drawer,
      });
    }
    return folioObject(db, row, this.payments.toObject);
  }

  /**
   * In a payment outcome's transaction, for a payment asked for a folio: a
   * paid one becomes the folio's line, even on a folio closed meanwhile (the
   * money arrived: the folio shows the credit).
   */
  async applyPaymentOutcome(tx: Queryable, payment: PaymentRow): Promise<void> {
    if (payment.status !== 'paid' || payment.reservation_id === null) return;
    const found = await tx.query<ReservationRow>(
      `SELECT * FROM hospitality_reservations WHERE id = $1 FOR UPDATE`,
      [payment.reservation_id],
    );
    const row = found.rows[0];
    if (!row) return;
    await insertFolioLine(tx, row, {
      kind: 'mobile_money',
      description: payment.network === null ? 'Mobile money' : `Mobile money (${payment.network})`,
      amount: -payment.amount,
      paymentId: payment.id,
      by: null,
    });
  }

  /** The nights due by now, posted for one stay in house: a check-out's last step before the balance. */
  postDueNights(db: Queryable, row: ReservationRow) {
    return row.status === 'checked_in'
      ? postDueNights(db, [row], this.clock.now(), { auditId: null, by: null })
      : null;
  }

  /** The reservation locked, refused once its folio is closed or the stay will not happen. */
  private async openFolio(db: Queryable, tenant: Tenant, id: string): Promise<ReservationRow> {
    const row = await findReservation(db, tenant, id, true);
    assertFolioOpen(row);
    return row;
  }
}

/** A folio takes lines from booking (deposits) until check-out; not once closed, canceled or a no-show. */
export function assertFolioOpen(row: ReservationRow): void {
  if (row.folio_closed_at !== null || !['pending', 'confirmed', 'checked_in'].includes(row.status))
    throw new AppError(
      'state_transition_invalid',
      `The folio of a ${row.status.replace('_', ' ')} reservation is closed`,
      { details: { id: `is '${row.status}'` } },
    );
}

/** One line on a folio: a charge (positive) or a payment (negative). */
export async function insertFolioLine(
  db: Queryable,
  row: Pick<ReservationRow, 'id' | 'merchant_id' | 'livemode'>,
  line: {
    kind: FolioLineKind;
    description: string | null;
    amount: number;
    by: string | null;
    orderId?: string;
    paymentId?: string;
    foreign?: { currency: string; amount: number; rate: number } | undefined;
    /** Cash taken at a till's desk: the shift whose drawer holds it, and who took it. */
    drawer?: { shiftId: string; cashierId: string | null } | undefined;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO hospitality_folio_lines (id, merchant_id, livemode, reservation_id, kind, description, amount,
       order_id, payment_id, foreign_currency, foreign_amount, exchange_rate, created_by, shift_id, cashier_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
     ON CONFLICT (payment_id) WHERE payment_id IS NOT NULL DO NOTHING`,
    [
      newId('folioLine'),
      row.merchant_id,
      row.livemode,
      row.id,
      line.kind,
      line.description,
      line.amount,
      line.orderId ?? null,
      line.paymentId ?? null,
      line.foreign?.currency ?? null,
      line.foreign?.amount ?? null,
      line.foreign?.rate ?? null,
      line.by,
      line.drawer?.shiftId ?? null,
      line.drawer?.cashierId ?? null,
    ],
  );
}
