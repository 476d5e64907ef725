/**
 * The box office: a till's sale of tickets at its counter (docs/EVENTS.md,
 * "Box office"), applied once from its `event_order.sell` command. The till
 * made the order's and the tickets' ids and the tickets' codes (version 2,
 * unsigned: the till holds no private key), so the server issues the
 * tickets under them, as paid, and every door pulls them with their codes.
 *
 * An offline sale is a fact: the money was taken and the tickets printed. The
 * tickets are taken from the tiers as an online order takes them; when they
 * no longer fit (another till or buyers online took the last seats while this
 * till was offline), the order is recorded all the same, `oversold`, outside
 * the counts, for the organiser to settle.
 */
import {
  AppError,
  allocateTenders,
  boxOfficeTotal,
  listedTicketCode,
  type BoxOfficeSale,
  type PaymentId,
} from '@tz/core';
import type { TillActor } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { Clock } from '../infra/clock.ts';
import { recordEvent } from '../infra/events.ts';
import { resolveTenders } from '../retail/orders/tenders.ts';
import { invalid } from '../retail/shared.ts';
import { lockTillShift } from '../tills/shifts.ts';
import { findEvent } from './events.ts';
import type { EventOrderRow, TierRow } from './objects.ts';
import { insertTickets, type EventOrderService } from './orders.ts';
import { takeTickets, ticketsFit } from './stock.ts';

export interface BoxOfficeResult {
  order: string;
  status: string;
  tickets: number;
  oversold: boolean;
}

export class BoxOfficeService {
  constructor(
    private readonly clock: Clock,
    private readonly orders: EventOrderService,
  ) {}

  /** Records the till's sale of tickets: the order paid, its tickets valid under the till's codes. */
  async sell(db: Queryable, till: TillActor, sale: BoxOfficeSale): Promise<BoxOfficeResult> {
    const event = await findEvent(db, till, sale.event);
    const taken = await db.query<{ merchant_id: string; livemode: boolean }>(
      `SELECT merchant_id, livemode FROM event_orders WHERE id = $1`,
      [sale.order],
    );
    if (taken.rows[0]) throw invalid('parameter_invalid', 'order', 'is the id of another order');
    const tickets = await db.query<{ id: string }>(
      `SELECT id FROM event_tickets WHERE id = ANY($1::text[])`,
      [sale.tickets.map((ticket) => ticket.id)],
    );
    if (tickets.rows[0]) throw invalid('parameter_invalid', 'tickets', `${tickets.rows[0].id} is taken`);
    const tiers = await db.query<TierRow>(
      `SELECT * FROM event_tiers WHERE id = ANY($1::text[]) AND event_id = $2`,
      [sale.lines.map((line) => line.tier), event.id],
    );
    sale.lines.forEach((line, index) => {
      if (!tiers.rows.some((tier) => tier.id === line.tier))
        throw invalid('parameter_invalid', `lines.${index}.tier`, 'is not a tier of the event');
    });
    await lockTillShift(db, till, sale.shift);

    const amount = boxOfficeTotal(sale.lines);
    const allocation = allocateTenders({
      currency: 'TZS',
      amountDue: amount,
      tenders: await resolveTenders(db, till, sale.tenders, 'TZS'),
    });
    const takings = sale.lines.map((line) => ({ tierId: line.tier, quantity: line.quantity }));
    const fits = await ticketsFit(db, event.id, takings);
    if (fits) await takeTickets(db, event.id, takings);

    const inserted = await db.query<EventOrderRow>(
      `INSERT INTO event_orders (id, merchant_id, livemode, event_id, status, buyer_name, buyer_phone, amount,
         held_until, metadata, channel, till_id, shift_id, cashier_id, receipt_number, change_due, oversold)
       VALUES ($1, $2, $3, $4, 'pending', $5, NULL, $6, $7, '{}', 'till', $8, $9, $10, $11, $12, $13) RETURNING *`,
      [
        sale.order,
        till.merchantId,
        till.livemode,
        event.id,
        sale.holder,
        amount,
        this.clock.now(),
        till.tillId,
        sale.shift,
        sale.cashier,
        sale.receipt_number,
        allocation.change,
        !fits,
      ],
    );
    await db.query(
      `INSERT INTO event_order_lines (order_id, tier_id, quantity, unit_price)
       SELECT $1, * FROM unnest($2::text[], $3::int[], $4::bigint[])`,
      [
        sale.order,
        sale.lines.map((line) => line.tier),
        sale.lines.map((line) => line.quantity),
        sale.lines.map((line) => line.unit_price),
      ],
    );
    await insertTickets(db, till, { event: event.id, order: sale.order, holder: sale.holder }, sale.tickets);
    try {
      await db.query(
        `INSERT INTO event_order_tenders (order_id, position, method, amount, paid, payment_id, reference)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::text[])`,
        [
          sale.order,
          allocation.tenders.map((_, index) => index),
          allocation.tenders.map((tender) => tender.method),
          allocation.tenders.map((tender) => tender.amount),
          allocation.tenders.map((tender) => tender.paid),
          allocation.tenders.map((tender) =>
            tender.method === 'mobile_money' ? (tender.paymentId satisfies PaymentId) : null,
          ),
          allocation.tenders.map((tender) => ('reference' in tender ? (tender.reference ?? null) : null)),
        ],
      );
    } catch (error) {
      if (isUniqueViolation(error, 'event_order_tenders_payment'))
        throw invalid(
          'payment_already_used',
          'tenders',
          'a mobile money payment already pays for another order',
        );
      throw error;
    }
    const codes = sale.tickets.map((ticket) => {
      const code = listedTicketCode({ event: event.id, ticket: ticket.id, tier: ticket.tier });
      if (code === null) throw new AppError('parameter_invalid', 'A ticket id no code can carry');
      return code;
    });
    const row = inserted.rows[0]!;
    const created = await this.orders.retrieve(db, till, row.id);
    await recordEvent(db, { ...till, type: 'event_order.created', object: created });
    const paid = await this.orders.issue(db, row, event, null, codes);
    return { order: paid.id, status: paid.status, tickets: sale.tickets.length, oversold: paid.oversold };
  }
}
