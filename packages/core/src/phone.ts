import { z } from 'zod';

/** Tanzanian mobile networks by the two digits after 255. */
const NETWORKS: Record<string, string> = {
  '61': 'halotel', '62': 'halotel',
  '65': 'mixx', '67': 'mixx', '71': 'mixx', '77': 'mixx',
  '68': 'airtel', '69': 'airtel', '78': 'airtel',
  '74': 'mpesa', '75': 'mpesa', '76': 'mpesa',
  '73': 'ttcl',
  '70': 'sandbox',
};

/**
 * Normalises +255 7XX XXX XXX, 2557XXXXXXXX and 07XXXXXXXX (spaces, dashes and
 * dots allowed) to `2557XXXXXXXX`. Returns null for anything that is not a
 * Tanzanian mobile number.
 */
export function normalizeTanzanianMobile(input: string): string | null {
  const compact = input.trim().replace(/[\s\-.()]/g, '');
  let national: string;
  if (/^\+255\d{9}$/.test(compact)) national = compact.slice(4);
  else if (/^255\d{9}$/.test(compact)) national = compact.slice(3);
  else if (/^0\d{9}$/.test(compact)) national = compact.slice(1);
  else return null;
  if (!(national.slice(0, 2) in NETWORKS)) return null;
  return `255${national}`;
}

export function mobileNetwork(normalized: string): string | undefined {
  return NETWORKS[normalized.slice(3, 5)];
}

export const tanzanianMobileSchema = z.string().transform((value, ctx) => {
  const normalized = normalizeTanzanianMobile(value);
  if (normalized === null) {
    ctx.addIssue({ code: 'custom', message: 'must be a Tanzanian mobile number (+255, 255 or 0 followed by the number)' });
    return z.NEVER;
  }
  return normalized;
});
