import {
  AppError,
  assertTransition,
  PAYMENT_STATES,
  paymentHasReached,
  feeFor,
  mobileNetwork,
  newId,
  notFound,
  paymentPostings,
  reversePostings,
  type Currency,
  type FeeSchedule,
  type MobileNetwork,
  type PaymentStatus,
} from '@tz/core';
import type { Logger } from 'pino';
import { write, type Database, type Queryable } from '../db/database.ts';
import type { Actor } from '../actor.ts';
import type { OutcomeSink, PaymentProvider, ProviderOutcome } from '../providers/provider.ts';
import { recordEvent, recordEvents, type EventSignal } from '../infra/events.ts';
import { assertCustomersExist } from '../customers/service.ts';
import { findOwned } from '../infra/owned.ts';
import { createdWithin } from '../db/list-page.ts';
import { startAtProvider } from '../providers/start.ts';
import { lockAvailableBalance, postLedgerEntry, refuseUnlessCovered } from '../ledger/service.ts';
import { storedStates, transition } from '../infra/transitions.ts';
import { unixOrNull, unixSeconds } from '../infra/time.ts';

const PAYMENTS = storedStates(PAYMENT_STATES, 'payments');
import { queueReferralEarning } from '../referrals/service.ts';

export interface PaymentRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  amount: number;
  currency: Currency;
  status: PaymentStatus;
  phone: string;
  network: string | null;
  description: string | null;
  customer_id: string | null;
  checkout_id: string | null;
  /** The invoice this payment pays, when it was asked for one. */
  invoice_id: string | null;
  /** The reservation whose folio this payment pays, when it was asked for one at the desk. */
  reservation_id: string | null;
  metadata: Record<string, string>;
  provider: string;
  provider_reference: string | null;
  fee: number | null;
  net: number | null;
  payout_status: string;
  /** The payout that paid this payment out, once one has. */
  payout_id: string | null;
  failure_code: string | null;
  failure_message: string | null;
  created_at: Date;
  paid_at: Date | null;
  failed_at: Date | null;
  refunded_at: Date | null;
  /** When the sandbox's outcome is due (test mode); null once settled, and for live payments. */
  settle_at: Date | null;
}

export const paymentObject = (row: PaymentRow, publicUrl: string) => ({
  id: row.id,
  object: 'payment' as const,
  amount: row.amount,
  currency: row.currency,
  status: row.status,
  fee: row.fee,
  net: row.net,
  payout_status: row.payout_status,
  payout: row.payout_id,
  checkout_url: row.checkout_id ? `${publicUrl}/pay/${row.checkout_id}` : null,
  checkout: row.checkout_id,
  invoice: row.invoice_id,
  phone: row.phone,
  network: row.network,
  description: row.description,
  customer: row.customer_id,
  metadata: row.metadata,
  failure_code: row.failure_code,
  failure_message: row.failure_message,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  paid_at: unixOrNull(row.paid_at),
  refunded_at: unixOrNull(row.refunded_at),
});
export type PaymentObject = ReturnType<typeof paymentObject>;

/** What `GET /v1/payments` narrows by; times in unix seconds, both ends included. */
export interface PaymentFilters {
  status?: PaymentStatus | undefined;
  customer?: string | undefined;
  phone?: string | undefined;
  network?: MobileNetwork | undefined;
  created_gte?: number | undefined;
  created_lte?: number | undefined;
}

export interface CreatePaymentInput {
  amount: number;
  currency: Currency;
  phone: string;
  description?: string | undefined;
  customer?: string | undefined;
  metadata?: Record<string, string> | undefined;
  checkoutId?: string | undefined;
  invoiceId?: string | undefined;
  reservationId?: string | undefined;
}

/** The provider of each mode: the sandbox in test mode, the live provider (when configured) in live mode. */
export interface ProviderDirectory {
  forMode(livemode: boolean): PaymentProvider | undefined;
}

/**
 * What a payment was made for, told of its outcome inside the outcome's
 * transaction: the checkout it completes, the invoice it pays (or failed to).
 */
export interface PaymentPurposes {
  checkoutPaid(db: Queryable, checkoutId: string, payment: PaymentRow): Promise<void>;
  invoicePayment(db: Queryable, payment: PaymentRow): Promise<void>;
  /** A paid payment asked for a reservation's folio: the folio's payment line. */
  folioPayment(db: Queryable, payment: PaymentRow): Promise<void>;
  /** A payment refunded: what it paid for is undone (a ticket order's tickets void), in the refund's transaction. */
  paymentRefunded(db: Queryable, payment: PaymentRow): Promise<void>;
}

export class PaymentService implements OutcomeSink {
  constructor(
    private readonly database: Database,
    private readonly providers: ProviderDirectory,
    private readonly fees: FeeSchedule,
    private readonly publicUrl: string,
    private readonly purposes: PaymentPurposes,
    private readonly events: EventSignal,
    private readonly logger: Logger,
  ) {}

  toObject = (row: PaymentRow): PaymentObject => paymentObject(row, this.publicUrl);

  /** Records a pending payment and its event; the provider is asked after commit. */
  async create(
    db: Queryable,
    actor: Actor,
    input: CreatePaymentInput,
    afterCommit: (task: () => Promise<void>) => void,
  ): Promise<PaymentObject> {
    const [object] = await this.createMany(db, [{ actor, input }], afterCommit);
    return object!;
  }

  /**
   * Pending payments, each for its actor: one statement for the rows and one
   * for their `payment.created` events, whatever their number. The rows are
   * built here, not returned by the insert, so the insert, its events and the
   * commit can leave together without a round trip between them. Each provider
   * is asked after commit.
   */
  async createMany(
    db: Queryable,
    items: ReadonlyArray<{ actor: Actor; input: CreatePaymentInput }>,
    afterCommit: (task: () => Promise<void>) => void,
  ): Promise<PaymentObject[]> {
    const started = items.map(({ actor, input }) => {
      const provider = this.providers.forMode(actor.livemode);
      if (!provider) {
        throw new AppError('provider_unavailable', 'Live payments are not configured for this account yet', {
          retryAfter: 60,
        });
      }
      return { provider, row: this.pendingRow(actor, input, provider) };
    });
    const withCustomer = items.filter(({ input }) => input.customer !== undefined);
    if (withCustomer.length > 0) {
      await assertCustomersExist(
        db,
        withCustomer.map(({ actor, input }) => ({ ...actor, customerId: input.customer! })),
      );
    }
    const rows = started.map((s) => s.row);
    const column = <T>(pick: (row: PaymentRow) => T) => rows.map(pick);
    await write(
      db,
      {
        name: 'insert_payments',
        text: `INSERT INTO payments (id, merchant_id, livemode, amount, currency, status, phone, network, description,
         customer_id, checkout_id, metadata, provider, created_at, settle_at, invoice_id, reservation_id)
       SELECT id, merchant_id, livemode, amount, currency, status, phone, network, description,
         customer_id, checkout_id, metadata::jsonb, provider, created_at, settle_at, invoice_id, reservation_id
       FROM unnest($1::text[], $2::text[], $3::boolean[], $4::bigint[], $5::text[], $6::text[], $7::text[],
         $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::timestamptz[],
         $15::timestamptz[], $16::text[], $17::text[])
         AS p(id, merchant_id, livemode, amount, currency, status, phone, network, description,
           customer_id, checkout_id, metadata, provider, created_at, settle_at, invoice_id, reservation_id)`,
      },
      [
        column((r) => r.id),
        column((r) => r.merchant_id),
        column((r) => r.livemode),
        column((r) => r.amount),
        column((r) => r.currency),
        column((r) => r.status),
        column((r) => r.phone),
        column((r) => r.network),
        column((r) => r.description),
        column((r) => r.customer_id),
        column((r) => r.checkout_id),
        column((r) => JSON.stringify(r.metadata)),
        column((r) => r.provider),
        column((r) => r.created_at),
        column((r) => r.settle_at),
        column((r) => r.invoice_id),
        column((r) => r.reservation_id),
      ],
    );
    const objects = await recordEvents(db, 'payment.created', rows, this.toObject);
    for (const { provider, row } of started) afterCommit(() => this.initiate(provider, row));
    return objects;
  }

  /** A pending payment's row as `create` inserts it. */
  private pendingRow(actor: Actor, input: CreatePaymentInput, provider: PaymentProvider): PaymentRow {
    return {
      id: newId('payment'),
      merchant_id: actor.merchantId,
      livemode: actor.livemode,
      amount: input.amount,
      currency: input.currency,
      status: 'pending',
      phone: input.phone,
      network: mobileNetwork(input.phone) ?? null,
      description: input.description ?? null,
      customer_id: input.customer ?? null,
      checkout_id: input.checkoutId ?? null,
      invoice_id: input.invoiceId ?? null,
      reservation_id: input.reservationId ?? null,
      metadata: input.metadata ?? {},
      provider: provider.name,
      provider_reference: null,
      fee: null,
      net: null,
      payout_status: 'not_applicable',
      payout_id: null,
      failure_code: null,
      failure_message: null,
      created_at: new Date(),
      paid_at: null,
      failed_at: null,
      refunded_at: null,
      settle_at: provider.settlesAt?.(input.phone) ?? null,
    };
  }

  /** The provider is asked after commit; a refusal fails the payment (provider_error). */
  private initiate(provider: PaymentProvider, row: PaymentRow): Promise<void> {
    return startAtProvider(
      this.database,
      { table: 'payments', id: row.id, provider: provider.name },
      () =>
        provider.initiate({
          id: row.id,
          amount: row.amount,
          currency: row.currency,
          phone: row.phone,
          description: row.description,
        }),
      (outcome) => this.applyOutcome(row.id, outcome),
      this.logger,
      'The mobile money provider could not start this payment',
    );
  }

  async retrieve(db: Queryable, actor: Actor, id: string): Promise<PaymentObject> {
    return this.toObject(await findOwned<PaymentRow>(db, 'payments', 'payment', actor, id));
  }

  listSource(actor: Actor, filters: PaymentFilters) {
    const params: unknown[] = [actor.merchantId, actor.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (filters.status) where += ` AND status = $${params.push(filters.status)}`;
    if (filters.customer) where += ` AND customer_id = $${params.push(filters.customer)}`;
    if (filters.phone) where += ` AND phone = $${params.push(filters.phone)}`;
    if (filters.network) where += ` AND network = $${params.push(filters.network)}`;
    where += createdWithin(params, filters);
    return { table: 'payments', where, params };
  }

  /**
   * Applies a provider's outcome. Repeated or late callbacks are harmless: a
   * payment already in (or past) the reported state is left alone.
   */
  async applyOutcome(paymentId: string, outcome: ProviderOutcome): Promise<void> {
    const changed = await this.database.transaction(async (tx) => {
      const found = await tx.query<PaymentRow>('SELECT * FROM payments WHERE id = $1 FOR UPDATE', [
        paymentId,
      ]);
      const row = found.rows[0];
      if (!row) throw notFound('payment', paymentId);
      if (paymentHasReached(row.status, outcome.status)) return false;
      if (outcome.status === 'paid') {
        const { fee, net } = feeFor(row.amount, this.fees);
        const paid = await transition(tx, PAYMENTS, row, 'paid', {
          set: `fee = $1, net = $2, paid_at = now(), payout_status = 'pending', settle_at = NULL,
            provider_reference = coalesce(provider_reference, $3)`,
          params: [fee, net, outcome.reference],
        });
        await postLedgerEntry(tx, {
          merchantId: paid.merchant_id,
          livemode: paid.livemode,
          type: 'payment',
          sourceId: paid.id,
          currency: paid.currency,
          amount: paid.amount,
          fee,
          description: paid.description,
          postings: paymentPostings(paid.currency, paid.amount, fee),
        });
        await queueReferralEarning(tx, { id: paid.id, merchant_id: paid.merchant_id, fee });
        await recordEvent(tx, {
          merchantId: paid.merchant_id,
          livemode: paid.livemode,
          type: 'payment.succeeded',
          object: this.toObject(paid),
        });
        if (paid.checkout_id) await this.purposes.checkoutPaid(tx, paid.checkout_id, paid);
        if (paid.invoice_id) await this.purposes.invoicePayment(tx, paid);
        if (paid.reservation_id) await this.purposes.folioPayment(tx, paid);
      } else {
        const failed = await transition(tx, PAYMENTS, row, 'failed', {
          set: `failure_code = $1, failure_message = $2, failed_at = now(), settle_at = NULL,
            provider_reference = coalesce(provider_reference, $3)`,
          params: [outcome.failureCode, outcome.failureMessage, outcome.reference],
        });
        await recordEvent(tx, {
          merchantId: failed.merchant_id,
          livemode: failed.livemode,
          type: 'payment.failed',
          object: this.toObject(failed),
        });
        if (failed.invoice_id) await this.purposes.invoicePayment(tx, failed);
      }
      return true;
    });
    if (changed) this.events.notify();
  }

  /** Refunds a paid payment in full: reverses its ledger postings. */
  async refund(db: Queryable, actor: Actor, id: string) {
    const { currency } = await findOwned<PaymentRow>(db, 'payments', 'payment', actor, id);
    // The balance lock before the payment's row lock: the order every mover of this balance takes them in.
    const available = await lockAvailableBalance(db, actor.merchantId, actor.livemode, currency);
    const row = await findOwned<PaymentRow>(db, 'payments', 'payment', actor, id, { lock: true });
    assertTransition(PAYMENT_STATES, row.status, 'refunded');
    await assertNotInEscrow(db, row.id);
    const fee = row.fee ?? 0;
    const net = row.net ?? 0;
    refuseUnlessCovered(available, net, row.currency, 'refund', 'id');
    const refunded = await transition(db, PAYMENTS, row, 'refunded', {
      set: `refunded_at = now(), payout_status = 'not_applicable'`,
    });
    await postLedgerEntry(db, {
      merchantId: row.merchant_id,
      livemode: row.livemode,
      type: 'refund',
      sourceId: row.id,
      currency: row.currency,
      amount: -row.amount,
      fee: -fee,
      description: `Refund of ${row.id}`,
      postings: reversePostings(paymentPostings(row.currency, row.amount, fee)),
    });
    const object = this.toObject(refunded);
    await recordEvent(db, {
      merchantId: row.merchant_id,
      livemode: row.livemode,
      type: 'payment.refunded',
      object,
    });
    await this.purposes.paymentRefunded(db, refunded);
    return object;
  }
}

/** A payment held in escrow is refunded through its escrow, never through /payments/{id}/refund. */
async function assertNotInEscrow(db: Queryable, paymentId: string): Promise<void> {
  const found = await db.query<{ id: string }>('SELECT id FROM escrows WHERE payment_id = $1', [paymentId]);
  const escrow = found.rows[0];
  if (escrow) {
    throw new AppError(
      'payment_already_used',
      `Payment ${paymentId} is held in escrow ${escrow.id}; refund what is still held with POST /v1/escrow/${escrow.id}/refund`,
      { details: { id: `is held in escrow ${escrow.id}` } },
    );
  }
}
