/**
 * The box office's command from a till (docs/EVENTS.md, "Box office"): a sale
 * of tickets at the counter, applied by the box-office service in the
 * command's transaction. It answers the order, its status, how many tickets
 * it issued and whether they were oversold.
 */
import type { z } from 'zod';
import type { AppSlug, Command, commandPayloads } from '@tz/core';
import type { TillActor } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { BoxOfficeService } from '../events/box-office.ts';

export interface BoxOfficeServices {
  boxOffice: BoxOfficeService;
}

type BoxOfficeCommandType = 'event_order.sell';
type Payload<T extends BoxOfficeCommandType> = z.output<(typeof commandPayloads)[T]>;

/** The events app's: refused while it is removed. */
export const BOX_OFFICE_APP = { 'event_order.sell': 'events' } as const satisfies Record<
  BoxOfficeCommandType,
  AppSlug
>;

export const BOX_OFFICE_APPLY: {
  [T in BoxOfficeCommandType]: (
    services: BoxOfficeServices,
    db: Queryable,
    till: TillActor,
    payload: Payload<T>,
    command: Command,
  ) => Promise<Record<string, unknown>>;
} = {
  'event_order.sell': async ({ boxOffice }, db, till, payload) => ({
    ...(await boxOffice.sell(db, till, payload)),
  }),
};
