/**
 * Ticket orders: a buyer's tiers and quantities, held for `EVENT_HOLD_MINUTES`
 * while they pay on the hosted checkout. The checkout's paid payment issues
 * the tickets (`checkoutPaid`, in the payment outcome's transaction); a hold
 * that runs out unpaid gives its tickets back (`holds.ts`).
 */
import {
  AppError,
  assertTransition,
  EVENT_ORDER_STATES,
  MAX_AMOUNT,
  newId,
  TICKET_STATES,
  type EventOrderInput,
  type EventOrderStatus,
} from '@tz/core';
import type { Logger } from 'pino';
import type { Actor, Tenant } from '../actor.ts';
import type { CheckoutService } from '../checkouts/service.ts';
import type { Queryable } from '../db/database.ts';
import type { ListSource } from '../db/list-page.ts';
import type { Clock } from '../infra/clock.ts';
import { recordEvent } from '../infra/events.ts';
import { findOwned } from '../infra/owned.ts';
import type { SecretBox } from '../infra/secrets-at-rest.ts';
import { storedStates, transition } from '../infra/transitions.ts';
import type { PaymentRow, PaymentService } from '../payments/service.ts';
import { signTicketCodes } from './door-keys.ts';
import { findEvent } from './events.ts';
import { doubleAdmissionsOf } from './admissions.ts';
import {
  eventOrderObject,
  type CheckinRow,
  type EventOrderRow,
  type EventRow,
  type OrderLineRow,
  type TicketRow,
  type TierRow,
} from './objects.ts';
import { redeemPromo, retakePromo } from './promos.ts';
import { releaseTickets, takeTickets, ticketsFit, type Taking } from './stock.ts';
import { newTicketsToken, ticketsUrl } from './ticket-page.ts';

export const EVENT_ORDERS = storedStates(EVENT_ORDER_STATES, 'event_orders');
export const TICKETS = storedStates(TICKET_STATES, 'event_tickets');

export interface EventOrderFilters {
  event?: string | undefined;
  status?: EventOrderStatus | undefined;
  phone?: string | undefined;
}

/** An order's tickets, `held` until it is paid. */
export async function insertTickets(
  db: Queryable,
  tenant: Tenant,
  order: { event: string; order: string; holder: string },
  tickets: ReadonlyArray<{ id: string; tier: string }>,
): Promise<void> {
  await db.query(
    `INSERT INTO event_tickets (id, merchant_id, livemode, event_id, tier_id, order_id, status, holder_name)
     SELECT ticket, $1, $2, $3, tier, $4, 'held', $5 FROM unnest($6::text[], $7::text[]) AS t(ticket, tier)`,
    [
      tenant.merchantId,
      tenant.livemode,
      order.event,
      order.order,
      order.holder,
      tickets.map((ticket) => ticket.id),
      tickets.map((ticket) => ticket.tier),
    ],
  );
}

export class EventOrderService {
  constructor(
    private readonly clock: Clock,
    private readonly checkouts: CheckoutService,
    private readonly payments: PaymentService,
    private readonly secretBox: SecretBox,
    private readonly holdMinutes: number,
    private readonly publicUrl: string,
    private readonly logger: Logger,
  ) {}

  /** Orders as the API shows them, with their lines and tickets. */
  async toObjects(db: Queryable, rows: readonly EventOrderRow[]) {
    const ids = rows.map((row) => row.id);
    const [lines, tickets] = await Promise.all([
      db.query<OrderLineRow>(
        `SELECT * FROM event_order_lines WHERE order_id = ANY($1::text[]) ORDER BY tier_id`,
        [ids],
      ),
      db.query<TicketRow>(`SELECT * FROM event_tickets WHERE order_id = ANY($1::text[]) ORDER BY seq`, [ids]),
    ]);
    const ticketIds = tickets.rows.map((ticket) => ticket.id);
    const [checkins, doubles] = await Promise.all([
      db.query<CheckinRow>(`SELECT * FROM event_checkins WHERE ticket_id = ANY($1::text[])`, [ticketIds]),
      doubleAdmissionsOf(db, ticketIds),
    ]);
    return rows.map((row) => {
      const own = tickets.rows.filter((ticket) => ticket.order_id === row.id);
      const mine = new Set(own.map((ticket) => ticket.id));
      return eventOrderObject(
        row,
        lines.rows.filter((line) => line.order_id === row.id),
        own,
        {
          checkout: row.checkout_id ? `${this.publicUrl}/pay/${row.checkout_id}` : null,
          tickets: ticketsUrl(this.publicUrl, row.tickets_token),
        },
        {
          checkins: checkins.rows.filter((checkin) => mine.has(checkin.ticket_id)),
          doubles: doubles.filter((double) => mine.has(double.ticket_id)),
        },
      );
    });
  }

  private async toObject(db: Queryable, row: EventOrderRow) {
    return (await this.toObjects(db, [row]))[0]!;
  }

  /**
   * Takes the tickets (or refuses with `sold_out`), holds them and opens a
   * checkout for the total that stops taking payment when the hold ends. A
   * free order is paid at once.
   */
  async create(db: Queryable, actor: Actor, input: EventOrderInput) {
    const now = this.clock.now();
    const event = await findEvent(db, actor, input.event);
    if (event.status !== 'published' || now >= event.ends_at)
      throw new AppError('sales_closed', `The event ${event.id} is not on sale`, {
        details: { event: event.status === 'published' ? 'has ended' : `is '${event.status}'` },
      });
    const tiers = await db.query<TierRow>(
      `SELECT * FROM event_tiers WHERE id = ANY($1::text[]) AND event_id = $2 AND deleted_at IS NULL`,
      [input.lines.map((line) => line.tier), event.id],
    );
    const byId = new Map(tiers.rows.map((tier) => [tier.id, tier]));
    let amount = 0;
    input.lines.forEach((line, index) => {
      const tier = byId.get(line.tier);
      if (!tier)
        throw new AppError('parameter_invalid', `The event has no tier ${line.tier}`, {
          details: { [`lines.${index}.tier`]: 'is not a tier of the event' },
        });
      if ((tier.sales_start && now < tier.sales_start) || (tier.sales_end && now >= tier.sales_end))
        throw new AppError('sales_closed', `The tier ${tier.id} is not on sale now`, {
          details: { [`lines.${index}.tier`]: 'is outside its sale window' },
        });
      if (line.quantity > tier.per_order_limit)
        throw new AppError('quantity_invalid', `At most ${tier.per_order_limit} of ${tier.name} per order`, {
          details: { [`lines.${index}.quantity`]: `must be at most ${tier.per_order_limit}` },
        });
      amount += tier.price * line.quantity;
    });
    if (amount > MAX_AMOUNT)
      throw new AppError('amount_invalid', 'The order’s total is too large', {
        details: { lines: 'total too large' },
      });

    await takeTickets(
      db,
      event.id,
      input.lines.map((line) => ({ tierId: line.tier, quantity: line.quantity })),
    );
    const promo =
      input.promo_code === undefined
        ? { promoId: null, discount: 0 }
        : await redeemPromo(
            db,
            event.id,
            input.promo_code,
            input.lines.map((line) => ({ ...line, unit_price: byId.get(line.tier)!.price })),
            now,
          );
    amount -= promo.discount;
    const id = newId('eventOrder');
    const heldUntil = new Date(now.getTime() + this.holdMinutes * 60_000);
    const inserted = await db.query<EventOrderRow>(
      `INSERT INTO event_orders (id, merchant_id, livemode, event_id, status, buyer_name, buyer_phone, buyer_email,
         amount, held_until, metadata, promo_id, discount)
       VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *`,
      [
        id,
        actor.merchantId,
        actor.livemode,
        event.id,
        input.buyer.name,
        input.buyer.phone,
        input.buyer.email ?? null,
        amount,
        heldUntil,
        JSON.stringify(input.metadata ?? {}),
        promo.promoId,
        promo.discount,
      ],
    );
    await db.query(
      `INSERT INTO event_order_lines (order_id, tier_id, quantity, unit_price)
       SELECT $1, * FROM unnest($2::text[], $3::int[], $4::bigint[])`,
      [
        id,
        input.lines.map((line) => line.tier),
        input.lines.map((line) => line.quantity),
        input.lines.map((line) => byId.get(line.tier)!.price),
      ],
    );
    const ticketTiers = input.lines.flatMap((line) => Array<string>(line.quantity).fill(line.tier));
    await insertTickets(
      db,
      actor,
      { event: event.id, order: id, holder: input.buyer.name },
      ticketTiers.map((tier) => ({ id: newId('ticket'), tier })),
    );
    let row = inserted.rows[0]!;
    if (amount === 0) {
      row = await this.issue(db, row, event, null);
    } else {
      const checkout = await this.checkouts.create(db, actor, {
        amount,
        currency: 'TZS',
        line_items: input.lines.map((line) => ({
          name: `${event.name}: ${byId.get(line.tier)!.name}`.slice(0, 200),
          amount: byId.get(line.tier)!.price,
          quantity: line.quantity,
        })),
        description:
          `${event.name}, ${event.venue}${promo.promoId ? `, promo ${input.promo_code}` : ''}`.slice(0, 200),
        metadata: { event_order: id, event: event.id },
        success_url: input.success_url,
        cancel_url: input.cancel_url,
        expires_at: heldUntil,
      });
      const updated = await db.query<EventOrderRow>(
        `UPDATE event_orders SET checkout_id = $2 WHERE id = $1 RETURNING *`,
        [id, checkout.id],
      );
      row = updated.rows[0]!;
    }
    const object = await this.toObject(db, row);
    await recordEvent(db, { ...actor, type: 'event_order.created', object });
    return object;
  }

  async retrieve(db: Queryable, tenant: Tenant, id: string) {
    return this.toObject(db, await findOwned<EventOrderRow>(db, 'event_orders', 'event order', tenant, id));
  }

  ordersSource(tenant: Tenant, filters: EventOrderFilters): ListSource {
    const params: unknown[] = [tenant.merchantId, tenant.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (filters.event) where += ` AND event_id = $${params.push(filters.event)}`;
    if (filters.status) where += ` AND status = $${params.push(filters.status)}`;
    if (filters.phone) where += ` AND buyer_phone = $${params.push(filters.phone)}`;
    return { table: 'event_orders', where, params };
  }

  /**
   * In the payment outcome's transaction, for a paid checkout: the order it
   * pays is paid and its tickets issued. A payment that arrives after the hold
   * ran out takes the tickets again if they are still there; if not, the order
   * stays expired with its payment named, for the organizer to refund. A
   * payment for an event canceled meanwhile is refunded (`refundUnissued`).
   *
   * The order's row is locked first: a cancel locks its event's pending orders
   * before the event (`lockPending`), so either the cancel waits for this
   * payment and then refunds the order it paid, or this payment reads the
   * event after the cancel committed.
   */
  async checkoutPaid(tx: Queryable, checkoutId: string, payment: PaymentRow): Promise<void> {
    const found = await tx.query<EventOrderRow>(
      `SELECT * FROM event_orders WHERE checkout_id = $1 FOR UPDATE`,
      [checkoutId],
    );
    const row = found.rows[0];
    if (!row || row.status === 'paid' || row.status === 'refunded') return;
    let takings: Taking[] | null = null;
    if (row.status === 'expired') {
      const lines = await tx.query<OrderLineRow>(`SELECT * FROM event_order_lines WHERE order_id = $1`, [
        row.id,
      ]);
      takings = lines.rows.map((line) => ({ tierId: line.tier_id, quantity: line.quantity }));
    }
    // An expired order's retake locks its tiers, then the event, and so reads the event's latest state.
    const fits = takings === null || (await ticketsFit(tx, row.event_id, takings));
    const event = (await tx.query<EventRow>(`SELECT * FROM ticketed_events WHERE id = $1`, [row.event_id]))
      .rows[0]!;
    if (event.status === 'canceled') return this.refundUnissued(tx, row, checkoutId, payment);
    if (takings !== null) {
      if (!fits || (row.promo_id !== null && !(await retakePromo(tx, row.promo_id))))
        return this.keepPayment(tx, row, payment, 'a ticket order was paid after its tickets went');
      await takeTickets(tx, row.event_id, takings);
    }
    await this.issue(tx, row, event, payment.id);
  }

  /**
   * A cancel's first lock: its event's pending orders, in id order, before
   * the event's row (as the hold release takes an order before the event). A
   * payment landing on one of them meanwhile is waited for.
   */
  async lockPending(db: Queryable, tenant: Tenant, eventId: string): Promise<void> {
    await db.query(
      `SELECT id FROM event_orders WHERE merchant_id = $1 AND livemode = $2 AND event_id = $3
         AND status = 'pending' ORDER BY id FOR UPDATE`,
      [tenant.merchantId, tenant.livemode, eventId],
    );
  }

  /**
   * A payment for an order of a canceled event: no ticket is issued. Held
   * tickets go back (`released`), the payment is refunded through the
   * payments' refund (the balance check, the ledger, `payment.refunded`) and
   * the order is `refunded` with its payment named, with
   * `event_order.refunded`. Should the balance not cover the refund, the
   * order keeps the payment for the organizer to refund, as a late payment
   * whose tickets went does.
   */
  private async refundUnissued(
    tx: Queryable,
    row: EventOrderRow,
    checkoutId: string,
    payment: PaymentRow,
  ): Promise<void> {
    const actor: Actor = {
      kind: 'checkout',
      merchantId: row.merchant_id,
      livemode: row.livemode,
      keyType: 'secret',
      credentialId: checkoutId,
    };
    // The payment's row is this transaction's already: the balance lock comes after it here, and no
    // other mover of the balance waits on this payment (it was not paid until now).
    try {
      await this.payments.refund(tx, actor, payment.id);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'insufficient_funds') throw error;
      return this.keepPayment(tx, row, payment, 'a ticket order of a canceled event was paid, unrefunded');
    }
    await this.voidOrder(tx, row, payment.id);
  }

  /** The order keeps the payment it could not use, named for the organizer to refund. */
  private async keepPayment(tx: Queryable, row: EventOrderRow, payment: PaymentRow, why: string) {
    await tx.query(`UPDATE event_orders SET payment_id = $2, updated_at = now() WHERE id = $1`, [
      row.id,
      payment.id,
    ]);
    this.logger.warn({ order: row.id, payment: payment.id }, why);
  }

  /**
   * A paid order refunded: its payment through the payments' refund (the
   * ledger, `payment.refunded`), which voids the order in its transaction
   * (`paymentRefunded`); a free order is voided at once. The promo's use
   * stays spent.
   */
  async refund(db: Queryable, actor: Actor, id: string) {
    const row = await findOwned<EventOrderRow>(db, 'event_orders', 'event order', actor, id);
    assertTransition(EVENT_ORDER_STATES, row.status, 'refunded');
    if (row.payment_id !== null) {
      // The payment's locks (the balance, then the payment) before the order's: as a refund of the payment alone takes them.
      await this.payments.refund(db, actor, row.payment_id);
      return this.retrieve(db, actor, id);
    }
    const locked = await findOwned<EventOrderRow>(db, 'event_orders', 'event order', actor, id, {
      lock: true,
    });
    assertTransition(EVENT_ORDER_STATES, locked.status, 'refunded');
    return this.voidOrder(db, locked);
  }

  /**
   * In a payment refund's transaction (`POST /v1/payments/{id}/refund` or an
   * order's refund): the paid order it paid for is refunded.
   */
  async paymentRefunded(tx: Queryable, payment: PaymentRow): Promise<void> {
    const found = await tx.query<EventOrderRow>(
      `SELECT * FROM event_orders WHERE payment_id = $1 AND status = 'paid' FOR UPDATE`,
      [payment.id],
    );
    if (found.rows[0]) await this.voidOrder(tx, found.rows[0]);
  }

  /**
   * A canceled event's paid orders, each refunded as one refund would be, in
   * the cancel's transaction; the refunds' balance check may refuse it all.
   */
  async refundEvent(db: Queryable, actor: Actor, eventId: string): Promise<number> {
    const paid = await db.query<{ id: string }>(
      `SELECT id FROM event_orders WHERE event_id = $1 AND status = 'paid' ORDER BY id`,
      [eventId],
    );
    for (const order of paid.rows) await this.refund(db, actor, order.id);
    return paid.rows.length;
  }

  /**
   * The order `refunded`: its tickets `void` (their codes answer `canceled`
   * at the door, admitted or not), or `released` where they were only held
   * (a payment for a canceled event), their seats back on sale (an expired
   * order's went back already), and `event_order.refunded`.
   */
  private async voidOrder(db: Queryable, row: EventOrderRow, paymentId = row.payment_id) {
    const tickets = await db.query<TicketRow>(
      `SELECT * FROM event_tickets WHERE order_id = $1 AND status IN ('valid', 'held') ORDER BY id FOR UPDATE`,
      [row.id],
    );
    // An expired order's seats went back already; an oversold box-office order was never in the counts.
    if (row.status !== 'expired' && !row.oversold) await releaseTickets(db, [row.id]);
    const held = tickets.rows.filter((ticket) => ticket.status === 'held');
    await transition(db, TICKETS, held, 'released', { set: 'updated_at = now()' });
    const valid = tickets.rows.filter((ticket) => ticket.status === 'valid');
    await transition(db, TICKETS, valid, 'void', { set: 'updated_at = now()' });
    const refunded = await transition(db, EVENT_ORDERS, row, 'refunded', {
      set: 'payment_id = $1, refunded_at = now(), updated_at = now()',
      params: [paymentId],
    });
    const object = await this.toObject(db, refunded);
    await recordEvent(db, {
      merchantId: row.merchant_id,
      livemode: row.livemode,
      type: 'event_order.refunded',
      object,
    });
    return object;
  }

  /**
   * Marks the order paid and its tickets valid, each with its signed code (or
   * the codes a box office made, in the tickets' order); records `event_order.paid`.
   */
  async issue(
    db: Queryable,
    row: EventOrderRow,
    event: EventRow,
    paymentId: string | null,
    madeCodes?: readonly string[],
  ): Promise<EventOrderRow> {
    const tickets = await db.query<TicketRow>(
      `SELECT * FROM event_tickets WHERE order_id = $1 ORDER BY seq FOR UPDATE`,
      [row.id],
    );
    const codes =
      madeCodes ??
      signTicketCodes(
        this.secretBox,
        event,
        tickets.rows.map((ticket) => ({ event: event.id, ticket: ticket.id, tier: ticket.tier_id })),
      );
    await transition(db, TICKETS, tickets.rows, 'valid', {
      set: 'code = m.code, updated_at = now()',
      perRow: { code: ['text', codes] },
    });
    const paid = await transition(db, EVENT_ORDERS, row, 'paid', {
      // The buyer's short link to the tickets page (`ticket-page.ts`), made once.
      set: 'payment_id = $1, paid_at = now(), updated_at = now(), tickets_token = coalesce(tickets_token, $2)',
      params: [paymentId, newTicketsToken()],
    });
    await recordEvent(db, {
      merchantId: row.merchant_id,
      livemode: row.livemode,
      type: 'event_order.paid',
      object: await this.toObject(db, paid),
    });
    return paid;
  }
}
