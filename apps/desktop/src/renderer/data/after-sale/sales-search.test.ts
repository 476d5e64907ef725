import { describe, expect, it } from 'vitest';
import { addDays, dayStart, matchSale, parseSalesSearch, shopDay, soldOn } from './sales-search.ts';
import type { SaleEntry } from './sales-search.ts';

const sale = (overrides: Partial<SaleEntry> = {}): SaleEntry => ({
  id: 'cmd_01',
  receiptNumber: 'T01-000012',
  total: 7_800,
  currency: 'TZS',
  soldAt: Date.UTC(2026, 10, 26, 7, 42),
  ...overrides,
});

const finds = (typed: string, entry = sale()) => matchSale(entry, parseSalesSearch(typed));

describe('searching sales by receipt number', () => {
  it.each(['T01-000012', 't01-000012', 'T01-12', 't01 12', '12', '000012', '#12', ' 12 '])(
    'finds T01-000012 from "%s"',
    (typed) => expect(finds(typed)).toBe('receipt'),
  );

  it.each(['13', 'T01-13', 'T02-000012', 'T02-12', '120', '0'])(
    'does not find T01-000012 from "%s"',
    (typed) => expect(finds(typed)).toBeNull(),
  );

  it('narrows as the number is typed after its prefix', () => {
    expect(finds('T01')).toBe('receipt');
    expect(finds('T01-')).toBe('receipt');
    expect(finds('T01-0000')).toBe('receipt');
    expect(finds('T01-00001')).toBe('receipt');
    expect(finds('T01-000011')).toBeNull();
    expect(finds('T01-00001', sale({ receiptNumber: 'T01-000001' }))).toBe('receipt');
    expect(finds('T01-00001', sale({ receiptNumber: 'T01-000020' }))).toBeNull();
  });

  it('finds a number past six digits', () => {
    expect(finds('1234567', sale({ receiptNumber: 'T01-1234567', total: 1 }))).toBe('receipt');
  });
});

describe('searching sales by amount', () => {
  it.each(['7800', '7,800', '7 800', 'TZS 7,800', 'tzs7800', '7,800/=', '7800.00'])(
    'finds a total of TZS 7,800 from "%s"',
    (typed) => expect(finds(typed, sale({ receiptNumber: 'T01-000001' }))).toBe('amount'),
  );

  it.each(['7,801', '780', '78.00', 'USD 7,800', '7800.5'])('does not find TZS 7,800 from "%s"', (typed) =>
    expect(finds(typed, sale({ receiptNumber: 'T01-000001' }))).toBeNull(),
  );

  it('reads the amount in the sale’s own currency', () => {
    const dollars = sale({ receiptNumber: 'T01-000001', total: 1_999, currency: 'USD' });
    expect(finds('19.99', dollars)).toBe('amount');
    expect(finds('USD 19.99', dollars)).toBe('amount');
    expect(finds('1999', dollars)).toBeNull();
  });

  it('tries plain digits as both, the receipt number first', () => {
    expect(finds('12', sale({ receiptNumber: 'T01-000012', total: 12 }))).toBe('receipt');
    expect(finds('12', sale({ receiptNumber: 'T01-000099', total: 12 }))).toBe('amount');
  });

  it('finds nothing for words that are neither', () => {
    expect(parseSalesSearch('sukari!')).toEqual({ kind: 'nothing' });
    expect(finds('sukari!')).toBeNull();
    expect(parseSalesSearch('   ')).toEqual({ kind: 'all' });
    expect(finds('')).toBe('receipt');
  });
});

describe('shop days in East Africa Time', () => {
  it('starts a day at midnight in Dar es Salaam, 21:00 UTC the day before', () => {
    expect(dayStart('2026-11-26')).toBe(Date.UTC(2026, 10, 25, 21, 0));
    expect(shopDay(Date.UTC(2026, 10, 25, 20, 59, 59, 999))).toBe('2026-11-25');
    expect(shopDay(Date.UTC(2026, 10, 25, 21, 0))).toBe('2026-11-26');
  });

  it('counts a sale at 23:59:59.999 EAT in its day and one at midnight in the next', () => {
    const lastMoment = sale({ soldAt: Date.UTC(2026, 10, 26, 20, 59, 59, 999) });
    const midnight = sale({ soldAt: Date.UTC(2026, 10, 26, 21, 0) });
    expect(soldOn(lastMoment, '2026-11-26')).toBe(true);
    expect(soldOn(midnight, '2026-11-26')).toBe(false);
    expect(soldOn(midnight, '2026-11-27')).toBe(true);
    // 01:30 in Dar es Salaam is still the evening before in UTC.
    const early = sale({ soldAt: Date.UTC(2026, 10, 25, 22, 30) });
    expect(soldOn(early, '2026-11-26')).toBe(true);
    expect(soldOn(early, '2026-11-25')).toBe(false);
  });

  it('steps across month and year ends', () => {
    expect(addDays('2026-12-01', -1)).toBe('2026-11-30');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  });

  it('refuses what is not a day', () => {
    expect(() => dayStart('2026-02-30')).toThrow(RangeError);
    expect(() => dayStart('26/11/2026')).toThrow(RangeError);
  });
});
