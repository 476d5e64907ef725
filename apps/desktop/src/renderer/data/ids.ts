/**
 * Ids made on the till: ULIDs (time-ordered, so sorting by id is sorting by
 * creation), from a monotonic factory so two ids made in the same millisecond
 * still sort in the order they were made.
 */
import { monotonicFactory } from 'ulid';

/**
 * ULID's random part from a buffer of cryptographic random numbers filled 1,024 at a time: by
 * default it asks Web Crypto once per character, which made ids a visible part of a scan's time.
 */
function bufferedRandom(): () => number {
  const buffer = new Uint32Array(1024);
  let used = buffer.length;
  return () => {
    if (used === buffer.length) {
      crypto.getRandomValues(buffer);
      used = 0;
    }
    return buffer[used++]! / 2 ** 32;
  };
}

const next = monotonicFactory(bufferedRandom());

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
