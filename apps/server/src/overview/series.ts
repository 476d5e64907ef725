/**
 * What the back office draws: money by hour of the day and by calendar day,
 * in a time zone, over the last `days` days to `date`. The rows come grouped
 * by day and hour from one query; each window's series are sums of them, so a
 * window's days and its hours each add up to its total.
 */

/** One group of a query: a calendar day (YYYY-MM-DD), an hour (0–23) and its sum. */
export interface DayHourSum {
  day: string;
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

/** Per hour of the day (24, from midnight) and per day of the window, from the rows of its days. */
export function seriesOf(rows: readonly DayHourSum[], date: string, days: number) {
  const dates = daysEndingOn(date, days);
  const byHour = new Array<number>(24).fill(0);
  const byDay = new Map(dates.map((day) => [day, 0]));
  for (const row of rows) {
    const total = byDay.get(row.day);
    if (total === undefined) continue; // before the window
    byDay.set(row.day, total + row.amount);
    byHour[row.hour]! += row.amount;
  }
  return { by_hour: byHour, by_day: dates.map((day) => ({ date: day, amount: byDay.get(day)! })) };
}
