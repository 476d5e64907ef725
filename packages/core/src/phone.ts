import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import { z } from 'zod';

/** Mobile money networks a number may belong to, as stored on payments and printed on receipts. */
export const MOBILE_NETWORKS = ['mpesa', 'mixx', 'airtel', 'halotel', 'ttcl'] as const;
export type MobileNetwork = (typeof MOBILE_NETWORKS)[number];

/**
 * The network that was allocated each two-digit range after 255 (libphonenumber's
 * carrier data: Vodacom, Yas, Airtel, Viettel/Halotel, TTCL). Numbers move between
 * networks, so this is a hint for receipts and reports, never a reason to refuse a
 * number: the provider's answer is the truth. Ranges without an entry (060) get none.
 */
// prettier-ignore
const NETWORK_HINTS: Partial<Record<string, MobileNetwork>> = {
  '61': 'halotel', '62': 'halotel', '63': 'halotel',
  '65': 'mixx', '67': 'mixx', '70': 'mixx', '71': 'mixx', '77': 'mixx',
  '66': 'airtel', '68': 'airtel', '69': 'airtel', '78': 'airtel',
  '72': 'mpesa', '74': 'mpesa', '75': 'mpesa', '76': 'mpesa', '79': 'mpesa',
  '73': 'ttcl',
};

/** The accepted ways of writing a number, once spaces, dashes, dots and brackets are gone. */
const WRITTEN_FORMS = /^(?:\+255|255|0)(\d+)$/;

/**
 * Normalises +255 XXX XXX XXX, 255XXXXXXXXX and 0XXXXXXXXX (spaces, dashes,
 * dots and brackets allowed) to `255XXXXXXXXX`. Returns null for anything that is not a
 * Tanzanian mobile number. Which ranges are mobile, and how long a number is,
 * come from libphonenumber's metadata, so newly allocated ranges arrive with the
 * library. Its mobile build carries the mobile patterns only, so fixed lines,
 * toll-free, premium and short numbers do not match; the min build cannot tell
 * mobile from fixed (lengths only), and max adds the other types' patterns,
 * which this test does not need, to what the till downloads.
 */
export function normalizeTanzanianMobile(input: string): string | null {
  const form = WRITTEN_FORMS.exec(input.trim().replace(/[\s\-.()]/g, ''));
  if (!form) return null;
  const parsed = parsePhoneNumberFromString(`+255${form[1]}`);
  if (parsed?.country !== 'TZ' || parsed.getType() !== 'MOBILE') return null;
  return parsed.number.slice(1);
}

/** The network a normalised number was allocated to, if its range has one. A hint only. */
export function mobileNetwork(normalized: string): MobileNetwork | undefined {
  return NETWORK_HINTS[normalized.slice(3, 5)];
}

export const tanzanianMobileSchema = z.string().transform((value, ctx) => {
  const normalized = normalizeTanzanianMobile(value);
  if (normalized === null) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be a Tanzanian mobile number (+255, 255 or 0 followed by the number)',
    });
    return z.NEVER;
  }
  return normalized;
});
