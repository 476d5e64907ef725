import { describe, expect, it } from 'vitest';
import { addMonths, assertPermitDates, daysToExpiry, permitNoticesDue } from './permits.ts';

describe('a work permit’s dates', () => {
  it('adds calendar months, clamped to the month’s last day', () => {
    expect(addMonths('2026-01-15', 24)).toBe('2028-01-15');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2027-12-31', 2)).toBe('2028-02-29');
    expect(addMonths('2020-03-01', 96)).toBe('2028-03-01');
  });

  it('runs at most 24 months, saying the last end it may have', () => {
    expect(() => assertPermitDates({ issued_on: '2026-01-15', expires_on: '2028-01-15' })).not.toThrow();
    expect(() => assertPermitDates({ issued_on: '2026-01-15', expires_on: '2028-01-16' })).toThrow(
      'a work permit runs at most 24 months: issued 2026-01-15, it ends by 2028-01-15 at the latest',
    );
    expect(() => assertPermitDates({ issued_on: '2026-01-15', expires_on: '2026-01-15' })).toThrow(
      'expires_on must be after issued_on',
    );
    expect(() => assertPermitDates({ issued_on: '2026-02-30', expires_on: '2027-01-01' })).toThrow(
      'issued_on must be a date',
    );
  });

  it('is renewable up to 8 years in all from the first permit, and refused beyond with the reason', () => {
    const earlier = [
      { issued_on: '2020-03-01', expires_on: '2022-03-01' },
      { issued_on: '2022-03-02', expires_on: '2024-03-01' },
      { issued_on: '2024-03-02', expires_on: '2026-03-01' },
    ];
    expect(() =>
      assertPermitDates({ issued_on: '2026-03-02', expires_on: '2028-03-01' }, earlier),
    ).not.toThrow();
    expect(() => assertPermitDates({ issued_on: '2026-03-02', expires_on: '2028-03-02' }, earlier)).toThrow(
      "an employee's work permits cover at most 8 years in all: counted from the first, issued 2020-03-01, they end by 2028-03-01 at the latest",
    );
  });
});

describe('notices of a permit’s end', () => {
  const expires = '2027-03-31';

  it('counts days to the last valid day', () => {
    expect(daysToExpiry(expires, '2027-03-31')).toBe(0);
    expect(daysToExpiry(expires, '2027-01-01')).toBe(89);
    expect(daysToExpiry(expires, '2027-04-01')).toBe(-1);
  });

  it('falls due at 90, 60 and 30 days before and the day after, each once', () => {
    expect(permitNoticesDue(expires, '2026-12-30', [])).toEqual([]); // 91 days
    expect(permitNoticesDue(expires, '2026-12-31', [])).toEqual(['expiring_90']);
    expect(permitNoticesDue(expires, '2027-01-30', ['expiring_90'])).toEqual(['expiring_60']);
    expect(permitNoticesDue(expires, '2027-03-01', ['expiring_90', 'expiring_60'])).toEqual(['expiring_30']);
    expect(permitNoticesDue(expires, '2027-03-31', ['expiring_90', 'expiring_60', 'expiring_30'])).toEqual(
      [],
    );
    expect(permitNoticesDue(expires, '2027-04-01', ['expiring_90', 'expiring_60', 'expiring_30'])).toEqual([
      'expired',
    ]);
    expect(
      permitNoticesDue(expires, '2027-05-01', ['expiring_90', 'expiring_60', 'expiring_30', 'expired']),
    ).toEqual([]);
  });

  it('sends each missed notice once when the job was not run for a while', () => {
    expect(permitNoticesDue(expires, '2027-04-10', ['expiring_90'])).toEqual([
      'expiring_60',
      'expiring_30',
      'expired',
    ]);
  });
});
