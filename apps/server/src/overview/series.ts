/**
 * What the back office draws: money by hour of the day and by calendar day,
 * in a time zone, over the last `days` days to `date`. A query sums the
 * window's money once by day and once by hour of the day, from the same rows,
 * so a window's days and its hours each add up to its total.
 */

/** A calendar day (YYYY-MM-DD) and its sum. */
export interface DaySum {
  day: string;
  amount: number;
}

/** An hour of the day (0–23) and its sum over the window's days. */
export interface HourSum {
  hour: number;
  amount: number;
}

/** The `days` calendar days ending on `date` (YYYY-MM-DD), oldest first. */
export function daysEndingOn(date: string, days: number): string[] {
  const last = Date.parse(`${date}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) =>
    new Date(last - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

/**
 * Per hour of the day (24, from midnight) and per day of the window, from its
 * sums by hour and by day (days before the window are left out).
 */
export function seriesOf(days: readonly DaySum[], hours: readonly HourSum[], date: string, count: number) {
  const dates = daysEndingOn(date, count);
  const byDay = new Map(dates.map((day) => [day, 0]));
  for (const row of days) {
    const total = byDay.get(row.day);
    if (total !== undefined) byDay.set(row.day, total + row.amount);
  }
  const byHour = new Array<number>(24).fill(0);
  for (const row of hours) byHour[row.hour]! += row.amount;
  return { by_hour: byHour, by_day: dates.map((day) => ({ date: day, amount: byDay.get(day)! })) };
}
