/**
 * The door: what a till in door mode and the server say to each other.
 *
 * A scan online is first a question (`sync.doorCheckin`, the same judgement as
 * `POST /v1/events/checkin`, which admits on `ok`). When the server has not
 * answered within `DOOR_ONLINE_WAIT_MS`, or the till is offline, the door
 * judges the code itself (`doorVerdict`, the synced tickets, the check-ins it
 * knows) and, when it lets the holder in, queues a `ticket.checkin` command:
 * a report of an admission already made, pushed once like a sale.
 *
 * Both carry the scan's id (`scan`, made at the door). The server keeps it on
 * the check-in, so a report whose question did reach the server (late) is a
 * repeat, not a second admission. A report for a ticket another scan already
 * admitted is recorded as a double admission (both doors, both times), sent
 * to the merchant as `ticket.double_admitted`, and pulled by every door.
 */
import { z } from 'zod';
import { idPattern } from '../ids.ts';
import { MAX_UNIX_SECONDS, referenceSchema, textSchema } from '../retail/commands.ts';

/** How long an online door waits for the server's verdict before giving its own. */
export const DOOR_ONLINE_WAIT_MS = 300;

/** A scan's id made at the door: `newId('scan')`. */
export const scanIdSchema = z
  .string()
  .regex(idPattern('scan'), { error: "must be scn_ and a lowercase ULID (newId('scan'))" });

const doorName = textSchema(64).min(1).describe('Which door scanned it (the till’s name by default)');

/** The online question: judge this code, and admit its holder when the verdict is `ok`. */
export const doorCheckinInput = z.strictObject({
  scan: scanIdSchema,
  event: referenceSchema.describe('The event the door admits to (tev_…)'),
  code: z.string().min(1).max(1000).describe('The QR code as scanned'),
  door: doorName,
});
export type DoorCheckinInput = z.output<typeof doorCheckinInput>;

/** The door's commands (`commandPayloads` in `sync/protocol.ts` holds them with the rest). */
export const doorCommands = {
  /** A holder the door let in on its own verdict (offline, or the server too slow): recorded once per scan. */
  'ticket.checkin': z.strictObject({
    scan: scanIdSchema,
    event: referenceSchema.describe('The event (tev_…)'),
    ticket: referenceSchema.describe('The ticket (tkt_…) the code named'),
    code: z.string().min(1).max(1000).describe('The QR code as scanned'),
    door: doorName,
    at: z.number().int().min(0).max(MAX_UNIX_SECONDS).describe('Unix seconds on the door when it admitted'),
  }),
} as const;
