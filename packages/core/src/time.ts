/**
 * Tanzania keeps East Africa Time (UTC+03:00) all year, with no daylight
 * saving, so local time is a fixed offset and needs no time zone database.
 * Every rule that reads a shop's clock or calendar (receipts, business days,
 * billing periods, the till's times) reads it here.
 */
import { invalidField } from './errors.ts';

/** East Africa Time's offset from UTC. */
export const EAST_AFRICA_OFFSET_MS = 3 * 60 * 60 * 1000;
const OFFSET = '+03:00';
/** The IANA name of East Africa Time as Tanzania keeps it: a merchant's time zone unless set. */
export const EAST_AFRICA_TIME_ZONE = 'Africa/Dar_es_Salaam';
const DAY_MS = 24 * 60 * 60 * 1000;

/** ISO 8601 in East Africa Time, to the second: 2026-11-25T14:03:00+03:00. */
export function formatEastAfricaTime(instant: Date, field = 'issuedAt'): string {
  const time = instant.getTime();
  if (Number.isNaN(time)) throw invalidField('parameter_invalid', field, 'must be a valid date');
  return `${new Date(time + EAST_AFRICA_OFFSET_MS).toISOString().slice(0, 19)}${OFFSET}`;
}

/** The calendar day in East Africa Time, e.g. "2026-11-25": a shop's business day. */
export function eastAfricaDate(instant: Date, field = 'date'): string {
  return formatEastAfricaTime(instant, field).slice(0, 10);
}

/** Midnight to midnight of a calendar day (`2026-11-25`) in East Africa Time; null when it is not one. */
export function eastAfricaDay(day: string): { start: Date; end: Date } | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const start = new Date(`${day}T00:00:00${OFFSET}`);
  if (Number.isNaN(start.getTime()) || eastAfricaDate(start) !== day) return null;
  return { start, end: new Date(start.getTime() + DAY_MS) };
}

/** A calendar date (`2026-11-25`) as a shop reads it: "25/11/2026"; anything else as it came. */
export function shopDate(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : date;
}

/**
 * "25/11/2026" and "14:03", as a shop reads a time: read from an ISO time's
 * own digits (a receipt's `issuedAt` keeps its offset), so whatever the
 * machine's time zone, the paper and the screen show the shop's time.
 */
export function shopDateTime(iso: string): { date: string; time: string } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(iso);
  if (!match) return null;
  const [, year, month, day, hour, minute] = match;
  return { date: `${day}/${month}/${year}`, time: `${hour}:${minute}` };
}
