/**
 * What time it is, for work that runs on a schedule (subscription renewals, dunning
 * retries, overdue invoices). Injected, so a test can move it and run a year of
 * renewals in seconds.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
