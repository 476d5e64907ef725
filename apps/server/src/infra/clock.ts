/**
 * What time it is, for rules that compare against a date a merchant gave (an
 * invoice's due date): passed in, so a test can move it.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock a test sets and moves; starts at the real time. */
export function movableClock(
  start = new Date(),
): Clock & { set(date: Date): void; advance(ms: number): void } {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set: (date) => {
      current = date.getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}
