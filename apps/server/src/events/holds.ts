/**
 * Expired holds: an order still unpaid when its hold ends gives its tickets
 * back. A pass claims a batch of such orders FOR UPDATE SKIP LOCKED (two
 * processes never take one), leaving any whose payment is still waiting for
 * the payer's approval (its outcome decides), and in one transaction marks
 * them expired, releases their tickets and the counts, and records
 * `event_order.expired` for each. Any number of processes run one; each polls.
 */
import type { Logger } from 'pino';
import type { Database, Queryable } from '../db/database.ts';
import type { Clock } from '../infra/clock.ts';
import { recordEvents } from '../infra/events.ts';
import { Poller } from '../infra/poller.ts';
import { transition } from '../infra/transitions.ts';
import type { EventOrderRow, TicketRow } from './objects.ts';
import { EVENT_ORDERS, TICKETS, type EventOrderService } from './orders.ts';
import { releasePromos } from './promos.ts';
import { releaseTickets } from './stock.ts';

/** Orders per transaction; a pass that fills one runs again at once. */
const BATCH = 200;

export class EventHolds {
  private readonly poller: Poller;

  constructor(
    private readonly database: Database,
    private readonly orders: EventOrderService,
    private readonly clock: Clock,
    intervalMs: number,
    logger: Logger,
  ) {
    this.poller = new Poller(async () => (await this.releaseBatch()) === BATCH, {
      intervalMs,
      logger,
      failure: 'releasing expired ticket holds failed',
    });
  }

  start(): void {
    this.poller.start();
  }

  stop(): Promise<void> {
    return this.poller.stop();
  }

  /** Releases every hold expired at the clock's time: for tests that move the clock. */
  async runDue(): Promise<void> {
    await this.poller.drain();
  }

  /** One batch: how many orders it claimed. */
  private releaseBatch(): Promise<number> {
    const at = this.clock.now();
    return this.database.transaction(async (tx) => {
      const claimed = await tx.query<EventOrderRow>(
        `SELECT o.* FROM event_orders o
          WHERE o.status = 'pending' AND o.held_until <= $1
            AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.checkout_id = o.checkout_id AND p.status = 'pending')
          ORDER BY o.held_until, o.id LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [at, BATCH],
      );
      await this.release(tx, claimed.rows);
      return claimed.rows.length;
    });
  }

  private async release(tx: Queryable, rows: EventOrderRow[]): Promise<void> {
    if (rows.length === 0) return;
    const ids = rows.map((row) => row.id);
    await releaseTickets(tx, ids);
    await releasePromos(tx, ids);
    const tickets = await tx.query<TicketRow>(
      `SELECT * FROM event_tickets WHERE order_id = ANY($1::text[]) AND status = 'held' ORDER BY id FOR UPDATE`,
      [ids],
    );
    await transition(tx, TICKETS, tickets.rows, 'released', { set: 'updated_at = now()' });
    const expired = await transition(tx, EVENT_ORDERS, rows, 'expired', {
      set: 'expired_at = now(), updated_at = now()',
    });
    const objects = await this.orders.toObjects(tx, expired);
    await recordEvents(tx, 'event_order.expired', expired, (row) => objects[expired.indexOf(row)]!);
  }
}
