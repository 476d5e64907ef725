/**
 * Tanzania keeps East Africa Time (UTC+03:00) all year, with no daylight
 * saving, so local time is a fixed offset and needs no time zone database.
 */
import { invalidField } from '../errors.ts';

const EAT_OFFSET_MS = 3 * 60 * 60 * 1000;

/** ISO 8601 in East Africa Time, to the second: 2026-11-25T14:03:00+03:00. */
export function formatEastAfricaTime(instant: Date, field = 'issuedAt'): string {
  const time = instant.getTime();
  if (Number.isNaN(time)) throw invalidField('parameter_invalid', field, 'must be a valid date');
  return `${new Date(time + EAT_OFFSET_MS).toISOString().slice(0, 19)}+03:00`;
}

/** The calendar day in East Africa Time, e.g. "2026-11-25": a shop's business day. */
export function eastAfricaDate(instant: Date, field = 'date'): string {
  return formatEastAfricaTime(instant, field).slice(0, 10);
}
