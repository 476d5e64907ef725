/**
 * Ids made on the till: ULIDs (time-ordered, so sorting by id is sorting by
 * creation), from a monotonic factory so two ids made in the same millisecond
 * still sort in the order they were made.
 */
import { monotonicFactory } from 'ulid';

const next = monotonicFactory();

export function makeIds(now: () => number) {
  return {
    /** `cmd_` + ULID: the command's idempotency key on the server. */
    command: () => `cmd_${next(now())}`,
    /** The sale's id, sent as `client_order_id`. */
    clientOrder: () => next(now()),
    /** `shift_` + a lowercase ULID: the form core's `newId('shift')` makes, which the server's shift id accepts. */
    shift: () => `shift_${next(now()).toLowerCase()}`,
    local: () => next(now()),
  };
}
export type Ids = ReturnType<typeof makeIds>;
