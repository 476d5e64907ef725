import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { CalendarUnreadable, readCalendar, writeCalendar } from './channels-ical.ts';

const stamp = new Date('2027-03-01T06:07:08Z');

describe('writing a calendar', () => {
  it('folds long lines at 75 octets without splitting a character, escapes text, ends lines with CRLF', () => {
    const name = `Chumba cha ${'ö'.repeat(60)}; kubwa, na \\ mlango\nwa bahari`;
    const text = writeCalendar(name, stamp, [
      { uid: 'resv_1@example.tz', arrival: '2027-12-31', departure: '2028-01-02', summary: name },
    ]);
    const lines = text.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const calendar = new ICAL.Component(ICAL.parse(text));
    const [event] = calendar.getAllSubcomponents('vevent').map((component) => new ICAL.Event(component));
    expect([event!.uid, event!.startDate.toString(), event!.endDate.toString()]).toEqual([
      'resv_1@example.tz',
      '2027-12-31',
      '2028-01-02',
    ]);
    expect(event!.summary).toBe(name);
    expect(String(event!.component.getFirstPropertyValue('dtstamp'))).toBe('2027-03-01T06:07:08Z');
  });
});

describe('reading a feed', () => {
  const wrap = (...lines: string[]) =>
    ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:x', ...lines, 'END:VCALENDAR', ''].join('\r\n');

  it('reads all-day events, timed events in East Africa Time, folded lines, and leaves out cancelled ones', () => {
    const { events, skipped } = readCalendar(
      wrap(
        'BEGIN:VEVENT',
        'UID:a@booking',
        'DTSTART;VALUE=DATE:20270310',
        'DTEND;VALUE=DATE:20270313',
        'SUMMARY:CLOSED - Not',
        '  available',
        'END:VEVENT',
        // 22:00 UTC is 01:00 the next day in Dar es Salaam.
        'BEGIN:VEVENT',
        'UID:b@airbnb',
        'DTSTART:20270314T220000Z',
        'DTEND:20270316T070000Z',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:c@booking',
        'DTSTART;VALUE=DATE:20270320',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:d@booking',
        'STATUS:CANCELLED',
        'DTSTART;VALUE=DATE:20270401',
        'DTEND;VALUE=DATE:20270402',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'SUMMARY:no uid',
        'DTSTART;VALUE=DATE:20270401',
        'END:VEVENT',
      ),
    );
    expect(events).toEqual([
      { uid: 'a@booking', arrival: '2027-03-10', departure: '2027-03-13', summary: 'CLOSED - Not available' },
      { uid: 'b@airbnb', arrival: '2027-03-15', departure: '2027-03-16', summary: '' },
      { uid: 'c@booking', arrival: '2027-03-20', departure: '2027-03-21', summary: '' },
    ]);
    expect(skipped).toBe(1);
  });

  it('reads a calendar with no events as empty, and refuses what is not a calendar', () => {
    expect(readCalendar(wrap()).events).toEqual([]);
    expect(() => readCalendar('<html><body>Sign in</body></html>')).toThrow(CalendarUnreadable);
    expect(() => readCalendar('')).toThrow(CalendarUnreadable);
    expect(() => readCalendar('BEGIN:VCARD\r\nVERSION:4.0\r\nEND:VCARD\r\n')).toThrow(CalendarUnreadable);
  });
});
