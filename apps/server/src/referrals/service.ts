/**
 * Referrals: each merchant's code, who signed up with it, and what the referrer
 * earned (docs/APPS.md). Earnings are credited by a background job (earner.ts);
 * here they are only queued, with the referred merchant's payment.
 */
import { randomInt } from 'node:crypto';
import { AppError, REFERRAL_RULE, referralEarning } from '@tz/core';
import { write, type Queryable } from '../db/database.ts';
import type { Tenant } from '../actor.ts';
import { unixSeconds } from '../infra/time.ts';

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 10;

/** A new referral code: 10 characters that cannot be misread (no 0/O, 1/I), about 2^50 of them. */
export function newReferralCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** The merchant whose code this is (any case), or a 400 naming the code. */
export async function referrerOf(db: Queryable, code: string): Promise<string> {
  const found = await db.query<{ id: string }>('SELECT id FROM merchants WHERE referral_code = upper($1)', [
    code,
  ]);
  const id = found.rows[0]?.id;
  if (!id) {
    throw new AppError('parameter_invalid', `No merchant has the referral code '${code}'`, {
      details: { referral_code: `'${code}' is not a referral code` },
    });
  }
  return id;
}

/**
 * In a payment's `paid` transaction: queues the referrer's earning when the
 * payer's merchant was referred less than the rule's months ago. Deferred: it
 * leaves with the transaction's next statement.
 */
export async function queueReferralEarning(
  db: Queryable,
  payment: { id: string; merchant_id: string; fee: number },
): Promise<void> {
  if (referralEarning(payment.fee) === 0) return;
  await write(
    db,
    `INSERT INTO referral_earnings_due (payment_id, merchant_id)
     SELECT $1, id FROM merchants
     WHERE id = $2 AND referred_by IS NOT NULL AND now() < created_at + make_interval(months => $3)`,
    [payment.id, payment.merchant_id, REFERRAL_RULE.months],
  );
}

interface ReferredRow {
  id: string;
  business_name: string;
  created_at: Date;
  earning_until: Date;
}

export class ReferralService {
  /** GET /v1/referrals: the code, the merchants who signed up with it, and the earnings in this mode. */
  async list(db: Queryable, tenant: Tenant) {
    const [me, referred, earnings] = await Promise.all([
      db.query<{ referral_code: string }>('SELECT referral_code FROM merchants WHERE id = $1', [
        tenant.merchantId,
      ]),
      db.query<ReferredRow>(
        `SELECT id, business_name, created_at, created_at + make_interval(months => $2) AS earning_until
         FROM merchants WHERE referred_by = $1 ORDER BY seq DESC`,
        [tenant.merchantId, REFERRAL_RULE.months],
      ),
      db.query<{ referred_id: string; currency: string; amount: number; payments: number }>(
        `SELECT referred_id, currency, sum(amount)::bigint AS amount, count(*)::int AS payments
         FROM referral_earnings WHERE merchant_id = $1 AND livemode = $2
         GROUP BY referred_id, currency ORDER BY currency`,
        [tenant.merchantId, tenant.livemode],
      ),
    ]);
    const totals = new Map<string, number>();
    for (const row of earnings.rows) totals.set(row.currency, (totals.get(row.currency) ?? 0) + row.amount);
    return {
      object: 'referrals' as const,
      code: me.rows[0]!.referral_code,
      rule: {
        fee_share_basis_points: REFERRAL_RULE.feeShareBasisPoints,
        months: REFERRAL_RULE.months,
      },
      referred: referred.rows.map((row) => {
        const earned = earnings.rows.filter((e) => e.referred_id === row.id);
        return {
          merchant: row.id,
          business_name: row.business_name,
          joined: unixSeconds(row.created_at),
          earning_until: unixSeconds(row.earning_until),
          payments: earned.reduce((sum, e) => sum + e.payments, 0),
          earnings: earned.map((e) => ({ amount: e.amount, currency: e.currency })),
        };
      }),
      earnings: [...totals].map(([currency, amount]) => ({ amount, currency })),
      livemode: tenant.livemode,
    };
  }
}
