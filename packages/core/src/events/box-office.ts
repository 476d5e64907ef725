/**
 * The box office: tickets sold at a till's counter, offline like any sale.
 *
 * The till makes every id (the order, each ticket) and each ticket's code, a
 * version-2 code (`listedTicketCode`): the till holds no private key, so the
 * code is unsigned and a door admits it only where its ticket list holds the
 * ticket with exactly that code. The sale is one `event_order.sell` command,
 * pushed once; the server issues the tickets as paid under the same ids and
 * codes, so every door pulls them.
 *
 * Capacity: the till sells no more of a tier than it knows is left (the
 * pulled tier's `left`, less its own sales not yet pulled back). Two tills
 * selling offline can still both sell the last seats: the server records the
 * later sale all the same (the money was taken and the tickets printed),
 * marked `oversold`, outside the tier's count, for the organiser to settle.
 */
import { z } from 'zod';
import { idPattern } from '../ids.ts';
import { MAX_AMOUNT } from '../money.ts';
import {
  MAX_UNIX_SECONDS,
  priceSchema,
  referenceSchema,
  tenderSchema,
  textSchema,
} from '../retail/commands.ts';
import { shiftIdSchema } from '../retail/shift-status.ts';

/** Tickets in one box-office sale, at most. */
export const BOX_OFFICE_MAX_TICKETS = 50;

const ticketIdSchema = z
  .string()
  .regex(idPattern('ticket'), { error: "must be tkt_ and a lowercase ULID (newId('ticket'))" });

export const boxOfficeSaleSchema = z
  .strictObject({
    order: z
      .string()
      .regex(idPattern('eventOrder'), { error: "must be eord_ and a lowercase ULID (newId('eventOrder'))" })
      .describe('The order’s id, made at the till'),
    event: referenceSchema.describe('The event (tev_…)'),
    lines: z
      .array(
        z.strictObject({
          tier: referenceSchema,
          quantity: z.number().int().min(1).max(BOX_OFFICE_MAX_TICKETS),
          unit_price: priceSchema.describe('The price the till charged'),
        }),
      )
      .min(1)
      .max(20)
      .refine((lines) => new Set(lines.map((line) => line.tier)).size === lines.length, {
        error: 'names a tier twice',
      }),
    tickets: z
      .array(z.strictObject({ id: ticketIdSchema, tier: referenceSchema }))
      .min(1)
      .max(BOX_OFFICE_MAX_TICKETS)
      .refine((tickets) => new Set(tickets.map((ticket) => ticket.id)).size === tickets.length, {
        error: 'names a ticket twice',
      }),
    holder: textSchema(200).min(1).describe('The name the door shows: the buyer’s, or the till’s'),
    tenders: z
      .array(tenderSchema)
      .min(1)
      .max(10)
      .refine((tenders) => tenders.every((tender) => tender.method !== 'room'), {
        error: 'a ticket cannot be charged to a room',
      }),
    shift: shiftIdSchema.describe('The till’s shift whose drawer took the cash'),
    cashier: referenceSchema.describe('The employee (emp_…) who sold it'),
    receipt_number: z.string().min(1).max(40),
    sold_at: z.number().int().min(0).max(MAX_UNIX_SECONDS).describe('Unix seconds on the till'),
  })
  .superRefine((sale, ctx) => {
    const tiers = new Map(sale.lines.map((line) => [line.tier, line.quantity]));
    for (const ticket of sale.tickets) tiers.set(ticket.tier, (tiers.get(ticket.tier) ?? 0) - 1);
    if ([...tiers.values()].some((left) => left !== 0))
      ctx.addIssue({ code: 'custom', path: ['tickets'], message: 'must be one per seat of the lines' });
    if (boxOfficeTotal(sale.lines) > MAX_AMOUNT)
      ctx.addIssue({ code: 'custom', path: ['lines'], message: 'total too large' });
  });
export type BoxOfficeSale = z.output<typeof boxOfficeSaleSchema>;

/** The box office's command (`commandPayloads` holds it with the rest). */
export const boxOfficeCommands = { 'event_order.sell': boxOfficeSaleSchema } as const;

/** What the lines come to. */
export const boxOfficeTotal = (lines: ReadonlyArray<{ quantity: number; unit_price: number }>): number =>
  lines.reduce((sum, line) => sum + line.quantity * line.unit_price, 0);

/**
 * How many of a tier the box office may still sell: what the server last said
 * was left, less what this till sold that the server's count may not hold yet.
 */
export const boxOfficeLeft = (tier: { left: number }, soldHereUnsynced: number): number =>
  Math.max(0, tier.left - soldHereUnsynced);
