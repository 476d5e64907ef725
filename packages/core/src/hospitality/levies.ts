/**
 * What a stay owes beyond the room: the levies of the property's region and
 * VAT. Rates are the room's price before levies and VAT; each levy and the VAT
 * are counted on the room charge (never on each other), rounded half up to the
 * shilling once per stay, so a quote, a folio and a reference calculation agree
 * to the shilling.
 *
 * Sources, as of 2026 (each a default the property may change):
 * - Zanzibar infrastructure tax: USD per person per night by star rating
 *   (5 for 4–5 stars, 4 for 2–3 stars, 2 for 1 star and unclassified), charged
 *   in shillings at the property's dollar rate.
 * - Zanzibar hotel levy: 12 % of the room charge.
 * - Mainland tourism development levy: 1 % of the room charge.
 * - VAT: core's standard rate for the region (18 % mainland, 15 % Zanzibar).
 */
import { AppError } from '../errors.ts';
import { basisPointsOf } from '../money.ts';
import { STANDARD_VAT_RATE, type VatRegion } from '../retail/tax.ts';

export type StarRating = 1 | 2 | 3 | 4 | 5;

/** A property's levy settings; `null` rates take the region's default. */
export interface LevySettings {
  region: VatRegion;
  star_rating: StarRating | null;
  /** Shillings per US dollar, for the infrastructure tax; needed on Zanzibar. */
  usd_rate: number | null;
  /** Basis points of the room charge; null: 1,200 on Zanzibar, 0 on the mainland. */
  hotel_levy_bps: number | null;
  /** Basis points of the room charge; null: 100 on the mainland, 0 on Zanzibar. */
  tourism_levy_bps: number | null;
  /** US dollars per person per night; null: by star rating on Zanzibar, 0 on the mainland. */
  infrastructure_tax_usd: number | null;
  /** Basis points; null: the region's standard VAT rate. */
  vat_bps: number | null;
}

export const DEFAULT_LEVY_SETTINGS: LevySettings = {
  region: 'mainland',
  star_rating: null,
  usd_rate: null,
  hotel_levy_bps: null,
  tourism_levy_bps: null,
  infrastructure_tax_usd: null,
  vat_bps: null,
};

/** Zanzibar's infrastructure tax in US dollars per person per night, by star rating. */
export function zanzibarInfrastructureTaxUsd(stars: StarRating | null): number {
  if (stars === 4 || stars === 5) return 5;
  if (stars === 2 || stars === 3) return 4;
  return 2;
}

/** The rates a property charges, with every default applied. */
export interface LevyRates {
  hotel_levy_bps: number;
  tourism_levy_bps: number;
  infrastructure_tax_usd: number;
  usd_rate: number | null;
  vat_bps: number;
}

export function levyRatesOf(settings: LevySettings): LevyRates {
  const zanzibar = settings.region === 'zanzibar';
  return {
    hotel_levy_bps: settings.hotel_levy_bps ?? (zanzibar ? 1_200 : 0),
    tourism_levy_bps: settings.tourism_levy_bps ?? (zanzibar ? 0 : 100),
    infrastructure_tax_usd:
      settings.infrastructure_tax_usd ?? (zanzibar ? zanzibarInfrastructureTaxUsd(settings.star_rating) : 0),
    usd_rate: settings.usd_rate,
    vat_bps: settings.vat_bps ?? STANDARD_VAT_RATE[settings.region],
  };
}

export type LevyKind = 'hotel_levy' | 'tourism_levy' | 'infrastructure_tax';

export interface LevyLine {
  kind: LevyKind;
  /** What it was counted on: the room charge in shillings, or person-nights. */
  basis: number;
  /** Basis points of the room charge, or US dollars per person-night. */
  rate: number;
  amount: number;
}

/** The levies on a room charge for `personNights` (guests × nights); lines of zero are left out. */
export function leviesOn(roomCharge: number, personNights: number, rates: LevyRates): LevyLine[] {
  const lines: LevyLine[] = [];
  if (rates.hotel_levy_bps > 0)
    lines.push({
      kind: 'hotel_levy',
      basis: roomCharge,
      rate: rates.hotel_levy_bps,
      amount: basisPointsOf(roomCharge, rates.hotel_levy_bps),
    });
  if (rates.tourism_levy_bps > 0)
    lines.push({
      kind: 'tourism_levy',
      basis: roomCharge,
      rate: rates.tourism_levy_bps,
      amount: basisPointsOf(roomCharge, rates.tourism_levy_bps),
    });
  if (rates.infrastructure_tax_usd > 0 && personNights > 0) {
    if (rates.usd_rate === null)
      throw new AppError(
        'parameter_missing',
        'The property charges the infrastructure tax in US dollars: set its usd_rate (shillings per dollar) first',
        { details: { usd_rate: 'is needed for the infrastructure tax' } },
      );
    lines.push({
      kind: 'infrastructure_tax',
      basis: personNights,
      rate: rates.infrastructure_tax_usd,
      amount: personNights * rates.infrastructure_tax_usd * rates.usd_rate,
    });
  }
  return lines;
}
