/**
 * Calendar dates of a stay (`2026-12-24`): nights between two dates, a date's
 * weekday, the next date. Pure arithmetic on the calendar, with no time zone:
 * a night is named by the date it starts on, as a hotel's register names it.
 */
import { invalidField } from '../errors.ts';

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The longest stay one reservation may cover; longer ones are several bookings. */
export const MAX_STAY_NIGHTS = 366;

/** Days since 1970-01-01 of a calendar date, or null when it is not one. */
export function dayNumber(date: string): number | null {
  const match = DATE_PATTERN.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, day);
  const back = new Date(time);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day)
    return null;
  return time / DAY_MS;
}

export const isCalendarDate = (date: string): boolean => dayNumber(date) !== null;

function requireDay(date: string, field: string): number {
  const day = dayNumber(date);
  if (day === null) throw invalidField('parameter_invalid', field, `${field} must be a date as YYYY-MM-DD`);
  return day;
}

/** The date `days` after `date`. */
export function addDays(date: string, days: number): string {
  return new Date((requireDay(date, 'date') + days) * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday, as JavaScript and PostgreSQL's `dow` count. */
export function weekdayOf(date: string): number {
  return new Date(requireDay(date, 'date') * DAY_MS).getUTCDay();
}

/** Nights from arrival to departure; refuses a departure not after the arrival, or a stay past the limit. */
export function nightsBetween(arrival: string, departure: string): number {
  const nights = requireDay(departure, 'departure') - requireDay(arrival, 'arrival');
  if (nights < 1) throw invalidField('parameter_invalid', 'departure', 'departure must be after the arrival');
  if (nights > MAX_STAY_NIGHTS)
    throw invalidField(
      'parameter_invalid',
      'departure',
      `departure must be at most ${MAX_STAY_NIGHTS} nights after the arrival`,
    );
  return nights;
}

/** The dates of each night of a stay: arrival up to the night before departure. */
export function nightsOf(arrival: string, departure: string): string[] {
  const count = nightsBetween(arrival, departure);
  return Array.from({ length: count }, (_, index) => addDays(arrival, index));
}
