import { describe, expect, it } from 'vitest';
import { eastAfricaDate, eastAfricaDay, formatEastAfricaTime, shopDate, shopDateTime } from './time.ts';

describe('East Africa Time', () => {
  it('writes an instant at +03:00 and its calendar day', () => {
    const late = new Date(Date.UTC(2026, 10, 25, 21, 30));
    expect(formatEastAfricaTime(late)).toBe('2026-11-26T00:30:00+03:00');
    expect(eastAfricaDate(late)).toBe('2026-11-26');
  });

  it('bounds a calendar day from midnight to midnight in Dar es Salaam', () => {
    expect(eastAfricaDay('2026-11-26')).toEqual({
      start: new Date(Date.UTC(2026, 10, 25, 21, 0)),
      end: new Date(Date.UTC(2026, 10, 26, 21, 0)),
    });
    for (const notADay of ['2026-02-30', '26/11/2026', '2026-1-5', ''])
      expect(eastAfricaDay(notADay)).toBeNull();
  });

  it('reads a time as the shop reads it, from the digits written with their offset', () => {
    expect(shopDateTime('2026-11-25T23:59:00+03:00')).toEqual({ date: '25/11/2026', time: '23:59' });
    expect(shopDateTime('yesterday')).toBeNull();
  });

  it('writes a calendar date as a shop reads it, and leaves anything else as it came', () => {
    expect(shopDate('2026-11-05')).toBe('05/11/2026');
    expect(shopDate('2026-11-05T10:00')).toBe('2026-11-05T10:00');
  });
});
