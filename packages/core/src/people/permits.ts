/**
 * Work permits of foreign employees (the Non-Citizens (Employment Regulation) Act): a permit runs
 * at most 24 months and may be renewed, and one employee's permits cover at most 8 years in all,
 * counted from the first permit's issue date. The employer hears of each permit's end at 90, 60
 * and 30 days before it and the day after it, each notice once.
 */
import { invalidField } from '../errors.ts';
import { dayNumber } from '../hospitality/stay.ts';

export const PERMIT_CLASSES = {
  A: 'Investors',
  B: 'Prescribed professions',
  C: 'Other professionals',
  D: 'Religious and charitable work',
  E: 'Refugees',
} as const;
export type PermitClass = keyof typeof PERMIT_CLASSES;

export const MAX_PERMIT_MONTHS = 24;
export const MAX_PERMITS_YEARS = 8;

/** A permit's dates: valid from `issued_on` through `expires_on`, both calendar dates. */
export interface PermitDates {
  issued_on: string;
  expires_on: string;
}

/** The date `months` calendar months after `date`, clamped to the month's last day (31 Jan + 1 = 28/29 Feb). */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return target.toISOString().slice(0, 10);
}

function requireDate(date: string, field: string): number {
  const day = dayNumber(date);
  if (day === null) throw invalidField('parameter_invalid', field, `${field} must be a date as YYYY-MM-DD`);
  return day;
}

/**
 * Refuses a permit whose dates break the rules, with the reason: an end not after the start, a
 * permit of more than 24 months, or one that takes the employee's permits past 8 years from the
 * first one's issue. `others` are the employee's other permits (a renewal's earlier ones).
 */
export function assertPermitDates(permit: PermitDates, others: readonly PermitDates[] = []): void {
  const issued = requireDate(permit.issued_on, 'issued_on');
  const expires = requireDate(permit.expires_on, 'expires_on');
  if (expires <= issued)
    throw invalidField('parameter_invalid', 'expires_on', 'expires_on must be after issued_on');
  const longest = addMonths(permit.issued_on, MAX_PERMIT_MONTHS);
  if (permit.expires_on > longest)
    throw invalidField(
      'parameter_invalid',
      'expires_on',
      `a work permit runs at most ${MAX_PERMIT_MONTHS} months: issued ${permit.issued_on}, it ends by ${longest} at the latest`,
    );
  const first = [permit, ...others].map((p) => p.issued_on).sort()[0]!;
  const cap = addMonths(first, MAX_PERMITS_YEARS * 12);
  if (permit.expires_on > cap)
    throw invalidField(
      'parameter_invalid',
      'expires_on',
      `an employee's work permits cover at most ${MAX_PERMITS_YEARS} years in all: counted from the first, issued ${first}, they end by ${cap} at the latest`,
    );
}

/** The notices of a permit's end, in the order they fall due. */
export const PERMIT_NOTICES = ['expiring_90', 'expiring_60', 'expiring_30', 'expired'] as const;
export type PermitNotice = (typeof PERMIT_NOTICES)[number];

const NOTICE_DAYS_BEFORE: Record<Exclude<PermitNotice, 'expired'>, number> = {
  expiring_90: 90,
  expiring_60: 60,
  expiring_30: 30,
};

/** Days from `today` to the permit's last valid day (0 on it, negative after). */
export function daysToExpiry(expiresOn: string, today: string): number {
  return requireDate(expiresOn, 'expires_on') - requireDate(today, 'today');
}

/**
 * The notices due for a permit `today` that were not sent yet, in order: `expiring_N` once the
 * permit has N days or fewer left, `expired` from the day after its last valid day. A job that
 * did not run for a while sends each one it missed, once.
 */
export function permitNoticesDue(
  expiresOn: string,
  today: string,
  sent: readonly PermitNotice[],
): PermitNotice[] {
  const left = daysToExpiry(expiresOn, today);
  return PERMIT_NOTICES.filter(
    (notice) =>
      !sent.includes(notice) && (notice === 'expired' ? left < 0 : left <= NOTICE_DAYS_BEFORE[notice]),
  );
}
