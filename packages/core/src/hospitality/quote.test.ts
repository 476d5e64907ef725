import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import type { LevySettings } from './levies.ts';
import { quoteDayUse, quoteNights, rateForNight, type PricedRoomType, type RateRule } from './quote.ts';
import { addDays, nightsBetween, weekdayOf } from './stay.ts';

const roomType = (overrides: Partial<PricedRoomType> = {}): PricedRoomType => ({
  base_rate: 100_000,
  rates: [],
  max_adults: 2,
  max_children: 2,
  day_use_block_minutes: 60,
  day_use_rate: 15_000,
  ...overrides,
});
const mainland: LevySettings = {
  region: 'mainland',
  star_rating: null,
  usd_rate: null,
  hotel_levy_bps: null,
  tourism_levy_bps: null,
  infrastructure_tax_usd: null,
  vat_bps: null,
};
const zanzibar = (stars: LevySettings['star_rating'], usdRate: number | null = 2_600): LevySettings => ({
  ...mainland,
  region: 'zanzibar',
  star_rating: stars,
  usd_rate: usdRate,
});

describe('quoteNights', () => {
  it('prices a mainland stay: nights, the 1 % tourism levy and 18 % VAT on the room charge', () => {
    const quote = quoteNights(roomType(), mainland, {
      arrival: '2026-12-30',
      departure: '2027-01-02',
      adults: 2,
      children: 0,
    });
    expect(quote.night_lines.map((line) => line.date)).toEqual(['2026-12-30', '2026-12-31', '2027-01-01']);
    expect(quote.room_charge).toBe(300_000);
    expect(quote.levies).toEqual([{ kind: 'tourism_levy', basis: 300_000, rate: 100, amount: 3_000 }]);
    expect(quote.vat).toEqual({ rate: 1_800, amount: 54_000 });
    expect(quote.total).toBe(357_000);
  });

  it('prices a Zanzibar stay: the 12 % hotel levy, 15 % VAT and the infrastructure tax per person per night by stars', () => {
    const quote = quoteNights(roomType(), zanzibar(4), {
      arrival: '2027-02-27',
      departure: '2027-03-01',
      adults: 2,
      children: 1,
    });
    expect(quote.nights).toBe(2);
    expect(quote.levies).toEqual([
      { kind: 'hotel_levy', basis: 200_000, rate: 1_200, amount: 24_000 },
      { kind: 'infrastructure_tax', basis: 6, rate: 5, amount: 6 * 5 * 2_600 },
    ]);
    expect(quote.vat.amount).toBe(30_000);
    expect(quote.total).toBe(200_000 + 24_000 + 78_000 + 30_000);
    expect(
      quoteNights(roomType(), zanzibar(2), {
        arrival: '2027-01-01',
        departure: '2027-01-02',
        adults: 1,
        children: 0,
      }).levies[1]!.rate,
    ).toBe(4);
    expect(
      quoteNights(roomType(), zanzibar(null), {
        arrival: '2027-01-01',
        departure: '2027-01-02',
        adults: 1,
        children: 0,
      }).levies[1]!.rate,
    ).toBe(2);
  });

  it('refuses a Zanzibar quote without the dollar rate, naming the setting', () => {
    const attempt = () =>
      quoteNights(roomType(), zanzibar(5, null), {
        arrival: '2027-01-01',
        departure: '2027-01-02',
        adults: 1,
        children: 0,
      });
    expect(attempt).toThrow(AppError);
    expect(attempt).toThrow(/usd_rate/);
  });

  it('refuses a party larger than the room and a departure not after the arrival', () => {
    expect(() =>
      quoteNights(roomType(), mainland, {
        arrival: '2027-01-01',
        departure: '2027-01-02',
        adults: 3,
        children: 0,
      }),
    ).toThrow(/at most 2 adults/);
    expect(() =>
      quoteNights(roomType(), mainland, {
        arrival: '2027-01-01',
        departure: '2027-01-02',
        adults: 2,
        children: 3,
      }),
    ).toThrow(/at most 4 guests/);
    expect(() =>
      quoteNights(roomType(), mainland, {
        arrival: '2027-01-02',
        departure: '2027-01-02',
        adults: 1,
        children: 0,
      }),
    ).toThrow(/after the arrival/);
    expect(() => nightsBetween('2027-02-29', '2027-03-02')).toThrow(/YYYY-MM-DD/);
  });

  it('a weekday rule beats an every-day rule, and of two alike the later one wins', () => {
    const rules: RateRule[] = [
      { id: 'season', starts_on: '2026-12-01', ends_on: '2027-01-31', days_of_week: null, rate: 150_000 },
      { id: 'weekend', starts_on: '2026-12-01', ends_on: '2027-01-31', days_of_week: [5, 6], rate: 180_000 },
      { id: 'festive', starts_on: '2026-12-24', ends_on: '2026-12-26', days_of_week: null, rate: 250_000 },
    ];
    const type = roomType({ rates: rules });
    expect(rateForNight(type, '2026-11-30').rate_id).toBeNull();
    expect(rateForNight(type, '2026-12-01').rate_id).toBe('season'); // a Tuesday
    expect(rateForNight(type, '2026-12-04').rate_id).toBe('weekend'); // a Friday
    expect(rateForNight(type, '2026-12-24').rate_id).toBe('festive'); // a Thursday
    expect(rateForNight(type, '2026-12-26').rate_id).toBe('weekend'); // a Saturday: the weekday rule
  });
});

describe('quoteDayUse', () => {
  it('prices whole blocks with the levies on the charge and no per-night tax', () => {
    const quote = quoteDayUse(roomType(), zanzibar(5), {
      starts_at: 1_800_000_000,
      ends_at: 1_800_000_000 + 3 * 3600,
      adults: 2,
      children: 0,
    });
    expect(quote.blocks).toBe(3);
    expect(quote.room_charge).toBe(45_000);
    expect(quote.levies).toEqual([{ kind: 'hotel_levy', basis: 45_000, rate: 1_200, amount: 5_400 }]);
    expect(quote.total).toBe(45_000 + 5_400 + 6_750);
  });

  it('refuses part of a block, and a room type not sold by day', () => {
    expect(() =>
      quoteDayUse(roomType(), mainland, { starts_at: 0, ends_at: 5_400, adults: 1, children: 0 }),
    ).toThrow(/whole blocks of 60 minutes/);
    expect(() =>
      quoteDayUse(roomType({ day_use_rate: null }), mainland, {
        starts_at: 0,
        ends_at: 3_600,
        adults: 1,
        children: 0,
      }),
    ).toThrow(/not sold for day use/);
  });
});

/** The plain calculation the quote must equal: dates by the Date object, rounding in exact integers. */
function reference(
  type: PricedRoomType,
  settings: LevySettings,
  arrival: string,
  departure: string,
  guests: number,
) {
  const halfUp = (amount: number, bps: number) =>
    Number((BigInt(amount) * BigInt(bps) * 2n + 10_000n) / 20_000n);
  let charge = 0;
  for (
    let night = new Date(`${arrival}T00:00:00Z`);
    night < new Date(`${departure}T00:00:00Z`);
    night.setUTCDate(night.getUTCDate() + 1)
  ) {
    const date = night.toISOString().slice(0, 10);
    const covering = type.rates.filter(
      (rule) =>
        rule.starts_on <= date &&
        date <= rule.ends_on &&
        (rule.days_of_week ?? [night.getUTCDay()]).includes(night.getUTCDay()),
    );
    const specific = covering.filter((rule) => rule.days_of_week !== null);
    const chosen = (specific.length > 0 ? specific : covering).at(-1);
    charge += chosen ? chosen.rate : type.base_rate;
  }
  const zanzibarRegion = settings.region === 'zanzibar';
  const nights = Math.round((Date.parse(departure) - Date.parse(arrival)) / 86_400_000);
  const stars = settings.star_rating ?? 1;
  const usd = zanzibarRegion ? (stars >= 4 ? 5 : stars >= 2 ? 4 : 2) : 0;
  const levies =
    halfUp(charge, zanzibarRegion ? 1_200 : 100) + guests * nights * usd * (settings.usd_rate ?? 0);
  return charge + levies + halfUp(charge, zanzibarRegion ? 1_500 : 1_800);
}

describe('quote against the reference calculation', () => {
  const date = fc.integer({ min: 0, max: 3 * 366 }).map((offset) => addDays('2026-01-01', offset));
  const rule = fc.record({
    id: fc.string({ minLength: 1, maxLength: 4 }),
    starts_on: date,
    length: fc.integer({ min: 0, max: 60 }),
    days_of_week: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 })),
    rate: fc.integer({ min: 0, max: 5_000_000 }),
  });

  it('equals it to the shilling for any rates, stay, party and region', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { maxLength: 6 }),
        fc.integer({ min: 0, max: 5_000_000 }),
        date,
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom<LevySettings>(
          mainland,
          zanzibar(null),
          zanzibar(2),
          zanzibar(3),
          zanzibar(4),
          zanzibar(5, 2_575),
        ),
        (rules, baseRate, arrival, nights, adults, children, settings) => {
          const type = roomType({
            base_rate: baseRate,
            max_adults: 4,
            max_children: 3,
            rates: rules.map(({ length, ...rest }) => ({
              ...rest,
              ends_on: addDays(rest.starts_on, length),
            })),
          });
          const departure = addDays(arrival, nights);
          const quote = quoteNights(type, settings, { arrival, departure, adults, children });
          expect(quote.total).toBe(reference(type, settings, arrival, departure, adults + children));
          expect(quote.night_lines).toHaveLength(nights);
          expect(weekdayOf(arrival)).toBe(new Date(`${arrival}T00:00:00Z`).getUTCDay());
        },
      ),
      { numRuns: 500 },
    );
  });
});
