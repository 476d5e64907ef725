/**
 * iCalendar (RFC 5545) as channels exchange it: our export is written here
 * (a small writer: all-day events only), feeds are read with ical.js, which
 * unfolds lines, unescapes text and reads dates with or without a time.
 */
import ICAL from 'ical.js';
import { addDays, eastAfricaDate } from '@tz/core';

export interface CalendarEvent {
  uid: string;
  /** The first night and the departure date (DTEND of an all-day event is exclusive). */
  arrival: string;
  departure: string;
  summary: string;
}

const escapeText = (text: string) =>
  text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** Lines of at most 75 octets, continued with a space (RFC 5545 §3.1), never splitting a character. */
function fold(line: string): string {
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const char of line) {
    const bytes = Buffer.byteLength(char);
    if (size + bytes > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += bytes;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

const dateValue = (date: string) => date.replaceAll('-', '');
const stampValue = (instant: Date) =>
  instant
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** A calendar of all-day events, CRLF line ends as the RFC asks. */
export function writeCalendar(name: string, stamp: Date, events: readonly CalendarEvent[]): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//TZ Merchant Platform//Hospitality channels//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(name)}`,
  ];
  for (const event of events)
    lines.push(
      'BEGIN:VEVENT',
      `UID:${escapeText(event.uid)}`,
      `DTSTAMP:${stampValue(stamp)}`,
      `DTSTART;VALUE=DATE:${dateValue(event.arrival)}`,
      `DTEND;VALUE=DATE:${dateValue(event.departure)}`,
      `SUMMARY:${escapeText(event.summary)}`,
      'TRANSP:OPAQUE',
      'END:VEVENT',
    );
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}

export class CalendarUnreadable extends Error {}

/** A date of an event's start or end: its own date, or (with a time) the date in East Africa Time. */
function dateOf(time: ICAL.Time): string {
  if (time.isDate)
    return `${String(time.year).padStart(4, '0')}-${String(time.month).padStart(2, '0')}-${String(time.day).padStart(2, '0')}`;
  return eastAfricaDate(time.toJSDate());
}

/**
 * The events of a feed: each VEVENT with a UID and a start, its nights from
 * the start's date to the end's (a one-day event, or one without an end, is
 * one night). Cancelled events are left out, as if the feed no longer listed
 * them. Throws `CalendarUnreadable` when the text is not a calendar.
 */
export function readCalendar(text: string): { events: CalendarEvent[]; skipped: number } {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
  } catch (error) {
    throw new CalendarUnreadable(`not an iCalendar file: ${(error as Error).message}`.slice(0, 300));
  }
  const roots = (Array.isArray(parsed) && typeof parsed[0] === 'string' ? [parsed] : parsed) as unknown[];
  const calendar = Array.isArray(roots)
    ? roots.map((root) => new ICAL.Component(root as never)).find((root) => root.name === 'vcalendar')
    : undefined;
  if (!calendar) throw new CalendarUnreadable('not an iCalendar file: no VCALENDAR');
  const events: CalendarEvent[] = [];
  let skipped = 0;
  for (const component of calendar.getAllSubcomponents('vevent')) {
    const status = component.getFirstPropertyValue('status');
    if (typeof status === 'string' && status.toUpperCase() === 'CANCELLED') continue;
    try {
      const event = new ICAL.Event(component);
      if (!event.uid || !event.startDate) throw new Error('no UID or start');
      const arrival = dateOf(event.startDate);
      const end = event.endDate ? dateOf(event.endDate) : arrival;
      events.push({
        uid: event.uid.slice(0, 500),
        arrival,
        departure: end > arrival ? end : addDays(arrival, 1),
        summary: (event.summary ?? '').slice(0, 200),
      });
    } catch {
      skipped += 1;
    }
  }
  return { events, skipped };
}
