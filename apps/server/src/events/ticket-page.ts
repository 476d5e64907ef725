/**
 * The buyer's tickets page: a paid order's tickets as QR codes, at the short
 * link `/t/{token}` (ready for an SMS; the token is the capability) and on the
 * order's hosted checkout once it is paid. The token is made when the order is
 * paid (`orders.ts`), 12 base62 characters from the CSPRNG (71 bits).
 */
import type { EventOrderStatus, EventStatus, TicketStatus } from '@tz/core';
import type { Queryable } from '../db/database.ts';
import { randomToken } from '../infra/secrets.ts';

const TOKEN_LENGTH = 12;
const TOKEN_PATTERN = /^[0-9A-Za-z]{12}$/;

export const TICKETS_PATH = '/t';
/** The path the request log and error log show instead of the real one. */
export const TICKETS_LOG_PATH = `${TICKETS_PATH}/:token`;

export const newTicketsToken = (): string => randomToken(TOKEN_LENGTH);

export const ticketsUrl = (publicUrl: string, token: string | null): string | null =>
  token === null ? null : `${publicUrl}${TICKETS_PATH}/${token}`;

/** Everything the page shows, in neither language: the page picks the words. */
export interface TicketPageView {
  organizer: string;
  livemode: boolean;
  order: { id: string; status: EventOrderStatus; buyer_name: string };
  event: {
    name: string;
    venue: string;
    starts_at: Date;
    ends_at: Date;
    doors_open_at: Date | null;
    time_zone: string;
    status: EventStatus;
  };
  tickets: Array<{
    id: string;
    tier: string;
    holder: string;
    status: TicketStatus;
    /** The QR's payload; null unless the ticket admits (valid, of an event not canceled). */
    code: string | null;
  }>;
}

type OrderPageRow = Omit<TicketPageView['event'], 'status'> & {
  id: string;
  status: EventOrderStatus;
  buyer_name: string;
  livemode: boolean;
  tickets_token: string | null;
  organizer: string;
  event_status: EventStatus;
};

const ORDER_PAGE_SELECT = `SELECT o.id, o.status, o.buyer_name, o.livemode, o.tickets_token,
    coalesce(org.display_name, m.business_name) AS organizer,
    e.name, e.venue, e.starts_at, e.ends_at, e.doors_open_at, e.time_zone, e.status AS event_status
  FROM event_orders o
  JOIN ticketed_events e ON e.id = o.event_id
  JOIN merchants m ON m.id = o.merchant_id
  LEFT JOIN event_organizers org ON org.merchant_id = o.merchant_id AND org.livemode = o.livemode`;

export class TicketPages {
  /** The tickets a short link opens, or null: malformed, unknown, or not (yet) paid. */
  async byToken(db: Queryable, token: string): Promise<TicketPageView | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const found = await db.query<OrderPageRow>(`${ORDER_PAGE_SELECT} WHERE o.tickets_token = $1`, [token]);
    return found.rows[0] ? this.view(db, found.rows[0]) : null;
  }

  /**
   * For the hosted checkout page: null when the checkout is not a ticket
   * order's; otherwise the order's tickets page once it is paid (`view` null before).
   */
  async ofCheckout(db: Queryable, checkoutId: string): Promise<{ view: TicketPageView | null } | null> {
    const found = await db.query<OrderPageRow>(`${ORDER_PAGE_SELECT} WHERE o.checkout_id = $1`, [checkoutId]);
    const row = found.rows[0];
    if (!row) return null;
    return { view: row.tickets_token === null ? null : await this.view(db, row) };
  }

  private async view(db: Queryable, row: OrderPageRow): Promise<TicketPageView> {
    const tickets = await db.query<{
      id: string;
      tier: string;
      holder_name: string;
      status: TicketStatus;
      code: string | null;
    }>(
      `SELECT t.id, tr.name AS tier, t.holder_name, t.status, t.code
       FROM event_tickets t JOIN event_tiers tr ON tr.id = t.tier_id
       WHERE t.order_id = $1 ORDER BY t.seq`,
      [row.id],
    );
    const admits = row.event_status !== 'canceled';
    return {
      organizer: row.organizer,
      livemode: row.livemode,
      order: { id: row.id, status: row.status, buyer_name: row.buyer_name },
      event: {
        name: row.name,
        venue: row.venue,
        starts_at: row.starts_at,
        ends_at: row.ends_at,
        doors_open_at: row.doors_open_at,
        time_zone: row.time_zone,
        status: row.event_status,
      },
      tickets: tickets.rows.map((ticket) => ({
        id: ticket.id,
        tier: ticket.tier,
        holder: ticket.holder_name,
        status: ticket.status,
        code: admits && ticket.status === 'valid' ? ticket.code : null,
      })),
    };
  }
}
