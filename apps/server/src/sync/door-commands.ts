/**
 * The door's command from a till (docs/EVENTS.md, "Doors"): a report of a
 * holder the door let in on its own verdict, applied by the check-in service
 * in the command's transaction. It answers the admission that stands, the
 * double admission it was if another scan admitted the ticket first, and the
 * server's own verdict.
 */
import type { z } from 'zod';
import type { AppSlug, Command, commandPayloads } from '@tz/core';
import type { TillActor } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { CheckinService } from '../events/checkin.ts';

export interface DoorServices {
  checkins: CheckinService;
}

type DoorCommandType = 'ticket.checkin';
type Payload<T extends DoorCommandType> = z.output<(typeof commandPayloads)[T]>;

/** The events app's: refused while it is removed. */
export const DOOR_APP = { 'ticket.checkin': 'events' } as const satisfies Record<DoorCommandType, AppSlug>;

export const DOOR_APPLY: {
  [T in DoorCommandType]: (
    services: DoorServices,
    db: Queryable,
    till: TillActor,
    payload: Payload<T>,
    command: Command,
  ) => Promise<Record<string, unknown>>;
} = {
  'ticket.checkin': async ({ checkins }, db, till, payload) => checkins.report(db, till, payload),
};
