import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deskCurrencies, foreignWithin, nightCharges, shillingsOf, splitInProportion } from './folio.ts';
import type { LevySettings } from './levies.ts';
import { quoteDayUse, quoteNights, type PricedRoomType } from './quote.ts';
import { addDays } from './stay.ts';

const sumOf = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const byKind = (charges: ReturnType<typeof nightCharges>, kind: string) =>
  sumOf(charges.filter((charge) => charge.kind === kind).map((charge) => charge.amount));

const settings = (region: 'mainland' | 'zanzibar', stars: 1 | 2 | 3 | 4 | 5 | null): LevySettings => ({
  region,
  star_rating: stars,
  usd_rate: 2_650,
  hotel_levy_bps: null,
  tourism_levy_bps: null,
  infrastructure_tax_usd: null,
  vat_bps: null,
});

describe('splitInProportion', () => {
  it('splits to the shilling by weight, and evenly when the weights are all zero', () => {
    expect(splitInProportion(100, [1, 1, 1])).toEqual([33, 33, 34]);
    expect(splitInProportion(57_600, [120_000, 120_000, 80_000])).toEqual([21_600, 21_600, 14_400]);
    expect(splitInProportion(10, [0, 0])).toEqual([5, 5]);
    expect(splitInProportion(999_999_999_999, [999_999_999_999, 1])).toEqual([999_999_999_998, 1]);
  });
});

describe('nightCharges', () => {
  it('charges each night its rate and a share of every levy and the VAT that adds up to the quote', () => {
    const roomType: PricedRoomType = {
      base_rate: 80_000,
      rates: [
        { id: 'rate_x', starts_on: '2026-12-31', ends_on: '2027-01-01', days_of_week: null, rate: 120_001 },
      ],
      max_adults: 2,
      max_children: 1,
      day_use_block_minutes: 60,
      day_use_rate: null,
    };
    const quote = quoteNights(roomType, settings('zanzibar', 4), {
      arrival: '2026-12-30',
      departure: '2027-01-02',
      adults: 2,
      children: 1,
    });
    const charges = nightCharges(quote);
    expect(charges.filter((charge) => charge.kind === 'room')).toEqual([
      { night: '2026-12-30', kind: 'room', amount: 80_000 },
      { night: '2026-12-31', kind: 'room', amount: 120_001 },
      { night: '2027-01-01', kind: 'room', amount: 120_001 },
    ]);
    // Three guests at 5 dollars a night, 2,650 shillings each: 39,750 a night.
    expect(charges.filter((charge) => charge.kind === 'infrastructure_tax').map((c) => c.amount)).toEqual([
      39_750, 39_750, 39_750,
    ]);
    expect(byKind(charges, 'hotel_levy')).toBe(quote.levies.find((l) => l.kind === 'hotel_levy')!.amount);
    expect(byKind(charges, 'vat')).toBe(quote.vat.amount);
    expect(sumOf(charges.map((charge) => charge.amount))).toBe(quote.total);
  });

  it('charges a day-use stay whole on its day', () => {
    const quote = quoteDayUse(
      {
        base_rate: 0,
        rates: [],
        max_adults: 2,
        max_children: 0,
        day_use_block_minutes: 60,
        day_use_rate: 15_000,
      },
      settings('mainland', null),
      { starts_at: 1_800_000_000, ends_at: 1_800_000_000 + 3 * 3_600, adults: 1, children: 0 },
    );
    const charges = nightCharges(quote, '2027-01-15');
    expect(charges.map((charge) => [charge.night, charge.kind])).toEqual([
      ['2027-01-15', 'room'],
      ['2027-01-15', 'tourism_levy'],
      ['2027-01-15', 'vat'],
    ]);
    expect(sumOf(charges.map((charge) => charge.amount))).toBe(quote.total);
  });

  it('adds up to the quote to the shilling for any stay, rates and region', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3_000 }),
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 1, maxLength: 40 }),
        fc.constantFrom('mainland' as const, 'zanzibar' as const),
        fc.constantFrom(null, 1 as const, 3 as const, 5 as const),
        fc.integer({ min: 1, max: 3 }),
        (offset, nights, rates, region, stars, guests) => {
          const arrival = addDays('2026-11-01', offset);
          const roomType: PricedRoomType = {
            base_rate: rates[0]!,
            rates: rates.map((rate, index) => ({
              id: `rate_${index}`,
              starts_on: addDays(arrival, index),
              ends_on: addDays(arrival, index),
              days_of_week: null,
              rate,
            })),
            max_adults: 3,
            max_children: 0,
            day_use_block_minutes: 60,
            day_use_rate: null,
          };
          const quote = quoteNights(roomType, settings(region, stars), {
            arrival,
            departure: addDays(arrival, nights),
            adults: guests,
            children: 0,
          });
          const charges = nightCharges(quote);
          expect(sumOf(charges.map((charge) => charge.amount))).toBe(quote.total);
          for (const levy of quote.levies) expect(byKind(charges, levy.kind)).toBe(levy.amount);
          expect(byKind(charges, 'vat')).toBe(quote.vat.amount);
          expect(charges.filter((charge) => charge.kind === 'room')).toHaveLength(nights);
          expect(charges.every((charge) => charge.amount >= 0)).toBe(true);
        },
      ),
    );
  });
});

describe('shillingsOf', () => {
  it('turns a foreign payment into shillings at its rate, half up', () => {
    expect(shillingsOf({ currency: 'USD', amount: 10_000, rate: 2_650 })).toBe(265_000);
    expect(shillingsOf({ currency: 'USD', amount: 1, rate: 2_650 })).toBe(27);
    expect(shillingsOf({ currency: 'KES', amount: 150, rate: 20 })).toBe(30);
  });
});

describe('deskCurrencies and foreignWithin', () => {
  it('takes dollars at the property’s rate once it is set', () => {
    expect(deskCurrencies({ usd_rate: null })).toEqual([]);
    expect(deskCurrencies({ usd_rate: 2_650 })).toEqual([{ currency: 'USD', rate: 2_650 }]);
  });

  it('finds the most of a currency worth no more than a balance, whatever the rate', () => {
    expect(foreignWithin(130_000, { currency: 'USD', rate: 2_650 })).toBe(4_905);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom('USD' as const, 'UGX' as const),
        (balance, rate, currency) => {
          const amount = foreignWithin(balance, { currency, rate });
          const worth = (a: number) => (a === 0 ? 0 : shillingsOf({ currency, amount: a, rate }));
          expect(worth(amount)).toBeLessThanOrEqual(balance);
          expect(worth(amount + 1)).toBeGreaterThan(balance);
        },
      ),
    );
  });
});
