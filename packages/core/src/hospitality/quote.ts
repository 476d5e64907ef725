/**
 * The price of a stay: one function the server (availability, reservations,
 * the night audit) and the till's front desk both run, so a quote at the desk
 * offline and the folio on the server agree to the shilling.
 */
import { invalidField } from '../errors.ts';
import { basisPointsOf, MAX_AMOUNT } from '../money.ts';
import { leviesOn, levyRatesOf, type LevyLine, type LevySettings } from './levies.ts';
import { nightsOf, weekdayOf } from './stay.ts';

/** A room type's price for the nights from `starts_on` to `ends_on` (both included), on the given weekdays. */
export interface RateRule {
  id: string;
  starts_on: string;
  ends_on: string;
  /** 0 = Sunday … 6 = Saturday; null for every day. */
  days_of_week: number[] | null;
  /** Shillings per night, before levies and VAT. */
  rate: number;
}

export interface PricedRoomType {
  /** Shillings per night when no rule covers the night. */
  base_rate: number;
  /** In the order they were made: of two rules equally specific, the later one wins. */
  rates: readonly RateRule[];
  max_adults: number;
  max_children: number;
  /** Day use: the length of one block and its price. */
  day_use_block_minutes: number;
  day_use_rate: number | null;
}

export interface Party {
  adults: number;
  children: number;
}

export interface NightLine {
  /** The date the night starts on. */
  date: string;
  rate: number;
  /** The rule that priced it, or null for the base rate. */
  rate_id: string | null;
}

export interface StayQuote {
  nights: number;
  /** Day use only: how many blocks of `day_use_block_minutes`. */
  blocks: number;
  night_lines: NightLine[];
  room_charge: number;
  levies: LevyLine[];
  vat: { rate: number; amount: number };
  total: number;
}

/**
 * A night's rule: one limited to weekdays beats one for every day, and of two
 * alike the later one wins (a season's weekend price over the season's price).
 */
export function rateForNight(roomType: Pick<PricedRoomType, 'base_rate' | 'rates'>, date: string): NightLine {
  const weekday = weekdayOf(date);
  let chosen: RateRule | null = null;
  for (const rule of roomType.rates) {
    if (date < rule.starts_on || date > rule.ends_on) continue;
    if (rule.days_of_week !== null && !rule.days_of_week.includes(weekday)) continue;
    if (chosen === null || rule.days_of_week !== null || chosen.days_of_week === null) chosen = rule;
  }
  return chosen
    ? { date, rate: chosen.rate, rate_id: chosen.id }
    : { date, rate: roomType.base_rate, rate_id: null };
}

export function assertPartyFits(
  roomType: Pick<PricedRoomType, 'max_adults' | 'max_children'>,
  party: Party,
): void {
  if (party.adults < 1) throw invalidField('parameter_invalid', 'adults', 'adults must be at least 1');
  if (party.adults > roomType.max_adults)
    throw invalidField(
      'parameter_invalid',
      'adults',
      `the room type sleeps at most ${roomType.max_adults} adults`,
    );
  if (party.adults + party.children > roomType.max_adults + roomType.max_children)
    throw invalidField(
      'parameter_invalid',
      'children',
      `the room type sleeps at most ${roomType.max_adults + roomType.max_children} guests`,
    );
}

function withTaxes(
  roomCharge: number,
  personNights: number,
  settings: LevySettings,
): Pick<StayQuote, 'levies' | 'vat' | 'total'> {
  const rates = levyRatesOf(settings);
  const levies = leviesOn(roomCharge, personNights, rates);
  const vat = { rate: rates.vat_bps, amount: basisPointsOf(roomCharge, rates.vat_bps) };
  const total = roomCharge + vat.amount + levies.reduce((sum, line) => sum + line.amount, 0);
  if (total > MAX_AMOUNT)
    throw invalidField('amount_invalid', 'departure', 'the stay costs more than one amount can hold');
  return { levies, vat, total };
}

/** A stay of whole nights from arrival to departure. */
export function quoteNights(
  roomType: PricedRoomType,
  settings: LevySettings,
  stay: { arrival: string; departure: string } & Party,
): StayQuote {
  assertPartyFits(roomType, stay);
  const nightLines = nightsOf(stay.arrival, stay.departure).map((date) => rateForNight(roomType, date));
  const roomCharge = nightLines.reduce((sum, line) => sum + line.rate, 0);
  const personNights = (stay.adults + stay.children) * nightLines.length;
  return {
    nights: nightLines.length,
    blocks: 0,
    night_lines: nightLines,
    room_charge: roomCharge,
    ...withTaxes(roomCharge, personNights, settings),
  };
}

/** A day-use stay of whole blocks between two instants (unix seconds); no night, so no per-night tax. */
export function quoteDayUse(
  roomType: PricedRoomType,
  settings: LevySettings,
  stay: { starts_at: number; ends_at: number } & Party,
): StayQuote {
  assertPartyFits(roomType, stay);
  if (roomType.day_use_rate === null)
    throw invalidField(
      'parameter_invalid',
      'room_type',
      'the room type is not sold for day use: give it a day_use_rate',
    );
  const blockSeconds = roomType.day_use_block_minutes * 60;
  const length = stay.ends_at - stay.starts_at;
  if (length <= 0) throw invalidField('parameter_invalid', 'ends_at', 'ends_at must be after starts_at');
  if (length % blockSeconds !== 0)
    throw invalidField(
      'parameter_invalid',
      'ends_at',
      `a day-use stay is whole blocks of ${roomType.day_use_block_minutes} minutes`,
    );
  const blocks = length / blockSeconds;
  const roomCharge = blocks * roomType.day_use_rate;
  return {
    nights: 0,
    blocks,
    night_lines: [],
    room_charge: roomCharge,
    ...withTaxes(roomCharge, 0, settings),
  };
}
