import {
  AppError,
  CHECKOUT_STATES,
  MAX_AMOUNT,
  newId,
  notFound,
  type CheckoutStatus,
  type Currency,
} from '@tz/core';
import { write, type Queryable } from '../db/database.ts';
import type { Actor } from '../actor.ts';
import { recordEvent } from '../infra/events.ts';
import { assertCustomerExists } from '../customers/service.ts';
import { findOwned } from '../infra/owned.ts';
import type { PaymentRow, PaymentService } from '../payments/service.ts';
import { storedStates, transition } from '../infra/transitions.ts';
import { unixOrNull, unixSeconds } from '../infra/time.ts';

const CHECKOUTS = storedStates(CHECKOUT_STATES, 'checkouts');

export interface LineItem {
  name: string;
  amount: number;
  quantity: number;
}

interface CheckoutRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  created_by_key: string | null;
  amount: number;
  currency: Currency;
  line_items: LineItem[];
  description: string | null;
  customer_id: string | null;
  metadata: Record<string, string>;
  success_url: string | null;
  cancel_url: string | null;
  status: CheckoutStatus;
  payment_id: string | null;
  created_at: Date;
  expires_at: Date;
  completed_at: Date | null;
}

export interface CreateCheckoutInput {
  amount?: number | undefined;
  currency: Currency;
  line_items?: LineItem[] | undefined;
  description?: string | undefined;
  customer?: string | undefined;
  metadata?: Record<string, string> | undefined;
  success_url?: string | undefined;
  cancel_url?: string | undefined;
  /** When it stops taking payment, if sooner than the default: a ticket order's hold. */
  expires_at?: Date | undefined;
}

export class CheckoutService {
  constructor(
    private readonly payments: PaymentService,
    private readonly publicUrl: string,
    private readonly ttlMinutes: number,
  ) {}

  /** A checkout reads as expired once its time is up, even before anything stores that. */
  private effectiveStatus(row: CheckoutRow): CheckoutStatus {
    return row.status === 'open' && row.expires_at.getTime() <= Date.now() ? 'expired' : row.status;
  }

  toObject = (row: CheckoutRow) => ({
    id: row.id,
    object: 'checkout' as const,
    amount: row.amount,
    currency: row.currency,
    line_items: row.line_items,
    description: row.description,
    customer: row.customer_id,
    metadata: row.metadata,
    status: this.effectiveStatus(row),
    payment: row.payment_id,
    checkout_url: `${this.publicUrl}/pay/${row.id}`,
    success_url: row.success_url,
    cancel_url: row.cancel_url,
    livemode: row.livemode,
    created: unixSeconds(row.created_at),
    expires_at: unixSeconds(row.expires_at),
    completed_at: unixOrNull(row.completed_at),
  });

  async create(db: Queryable, actor: Actor, input: CreateCheckoutInput) {
    const amount =
      input.amount ?? (input.line_items ?? []).reduce((sum, item) => sum + item.amount * item.quantity, 0);
    if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_AMOUNT) {
      throw new AppError('amount_invalid', 'The checkout total must be from 1 to 999999999999', {
        details: { amount: 'total out of range' },
      });
    }
    if (input.customer !== undefined) await assertCustomerExists(db, actor, input.customer);
    const inserted = await db.query<CheckoutRow>(
      `INSERT INTO checkouts (id, merchant_id, livemode, created_by_key, amount, currency, line_items, description,
         customer_id, metadata, success_url, cancel_url, status, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'open',
         coalesce($14, now() + make_interval(mins => $13)))
       RETURNING *`,
      [
        newId('checkout'),
        actor.merchantId,
        actor.livemode,
        actor.credentialId,
        amount,
        input.currency,
        JSON.stringify(input.line_items ?? []),
        input.description ?? null,
        input.customer ?? null,
        JSON.stringify(input.metadata ?? {}),
        input.success_url ?? null,
        input.cancel_url ?? null,
        this.ttlMinutes,
        input.expires_at ?? null,
      ],
    );
    return this.toObject(inserted.rows[0]!);
  }

  /** Publishable keys may read only the checkouts they created. */
  async retrieve(db: Queryable, actor: Actor, id: string) {
    const row = await findOwned<CheckoutRow>(db, 'checkouts', 'checkout', actor, id);
    if (actor.keyType === 'publishable' && row.created_by_key !== actor.credentialId) {
      throw notFound('checkout', id);
    }
    return this.toObject(row);
  }

  /** The hosted page's view: no key, so only what the payer may see. */
  async publicView(db: Queryable, id: string) {
    // One read: the page polls this every second while the payer approves.
    const found = await db.query<
      CheckoutRow & { business_name: string; payment_status: string | null; failure_message: string | null }
    >(
      `SELECT c.*, m.business_name, p.status AS payment_status, p.failure_message
       FROM checkouts c JOIN merchants m ON m.id = c.merchant_id LEFT JOIN payments p ON p.id = c.payment_id
       WHERE c.id = $1`,
      [id],
    );
    const row = found.rows[0];
    if (!row) throw notFound('checkout', id);
    return {
      id: row.id,
      business_name: row.business_name,
      amount: row.amount,
      currency: row.currency,
      description: row.description,
      line_items: row.line_items,
      status: this.effectiveStatus(row),
      livemode: row.livemode,
      payment_status: row.payment_status,
      failure_message: row.failure_message,
      success_url: row.success_url,
      cancel_url: row.cancel_url,
    };
  }

  /** The payer submitted a phone number on the hosted page: start a payment for the checkout. */
  async pay(db: Queryable, id: string, phone: string, afterCommit: (task: () => Promise<void>) => void) {
    const found = await db.query<CheckoutRow & { payment_status: string | null }>(
      `SELECT c.*, p.status AS payment_status FROM checkouts c LEFT JOIN payments p ON p.id = c.payment_id
       WHERE c.id = $1 FOR UPDATE OF c`,
      [id],
    );
    const row = found.rows[0];
    if (!row) throw notFound('checkout', id);
    if (this.effectiveStatus(row) !== 'open') {
      throw new AppError('checkout_not_open', 'This checkout is no longer open', {
        details: { id: 'is not open' },
      });
    }
    if (row.payment_status === 'pending') {
      throw new AppError('checkout_not_open', 'A payment for this checkout is already waiting for approval', {
        details: { id: 'has a pending payment' },
      });
    }
    const actor: Actor = {
      kind: 'checkout',
      merchantId: row.merchant_id,
      livemode: row.livemode,
      keyType: 'secret',
      credentialId: row.id,
    };
    const payment = await this.payments.create(
      db,
      actor,
      {
        amount: row.amount,
        currency: row.currency,
        phone,
        description: row.description ?? undefined,
        customer: row.customer_id ?? undefined,
        metadata: row.metadata,
        checkoutId: row.id,
      },
      afterCommit,
    );
    await write(db, 'UPDATE checkouts SET payment_id = $2 WHERE id = $1', [row.id, payment.id]);
    return payment;
  }

  /** Called inside the payment's transaction when it is paid. */
  async completeWithPayment(db: Queryable, checkoutId: string, payment: PaymentRow): Promise<void> {
    const found = await db.query<CheckoutRow>('SELECT * FROM checkouts WHERE id = $1 FOR UPDATE', [
      checkoutId,
    ]);
    const row = found.rows[0];
    if (!row) return;
    // A payment that lands after expiry still completes the checkout: the money moved.
    const completed = await transition(db, CHECKOUTS, row, 'complete', {
      set: 'payment_id = $1, completed_at = now()',
      params: [payment.id],
    });
    await recordEvent(db, {
      merchantId: row.merchant_id,
      livemode: row.livemode,
      type: 'checkout.completed',
      object: this.toObject(completed),
    });
  }
}
