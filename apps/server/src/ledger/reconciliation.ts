import { BALANCE_ACCOUNTS, MERCHANT_BALANCES } from '@tz/core';
import type { Queryable } from '../db/database.ts';

/**
 * The ledger checked against itself and against the rows whose movements it
 * records (docs/LEDGER.md). `reconcile` returns every discrepancy it finds; an
 * empty list means the books agree. Each kind of money movement adds its terms
 * to the lists below (escrow, referrals, ...), never a check of its own.
 */
export interface Discrepancy {
  check:
    | 'transaction_unbalanced'
    | 'posting_foreign'
    | 'movement_unposted'
    | 'posting_unexplained'
    | 'account_mismatch'
    | 'available_negative'
    | 'money_unaccounted'
    | 'listing_mismatch'
    | 'total_mismatch';
  merchant_id: string;
  livemode: boolean | null;
  currency: string | null;
  /** The transaction, source row or account the discrepancy is about. */
  subject: string;
  expected: number | null;
  actual: number | null;
}

/** SQL yielding (merchant_id, livemode, currency, amount) rows; summed per merchant, mode and currency. */
type Amounts = string;

const postingsOf = (account: string): Amounts =>
  `SELECT merchant_id, livemode, currency, amount FROM ledger_postings WHERE account = '${account}'`;

/** The totals kept with the postings on one account (migration `balance_totals`), which the balance reads. */
const totalsOf = (account: string, column: 'amount' | 'postings'): Amounts =>
  `SELECT merchant_id, livemode, currency, ${column} FROM ledger_balance_totals WHERE account = '${account}'`;

/** The transaction-list lines on one balance (`balance_transactions`, docs/LEDGER.md). */
const linesOf = (balance: string): Amounts =>
  `SELECT merchant_id, livemode, currency, net FROM balance_transactions WHERE balance = '${balance}'`;

/** Escrow splits released, joined to their escrow (`e`, the holder's). */
const SPLITS_RELEASED = `escrow_splits s JOIN escrows e ON e.id = s.escrow_id WHERE s.status = 'released'`;
const TO_MERCHANTS = `${SPLITS_RELEASED} AND s.recipient_merchant_id IS NOT NULL`;
const TO_PHONES = `${SPLITS_RELEASED} AND s.recipient_merchant_id IS NULL`;
/** Referral earnings credited (an earning of 0 posts nothing). */
const EARNINGS = `referral_earnings WHERE amount > 0`;

/**
 * Money that came in: every payment ever paid (refunded ones included), and
 * what other merchants' money brought in: releases from their escrow, the
 * referrer's share of a referred merchant's fee.
 */
const MONEY_IN: Amounts[] = [
  `SELECT merchant_id, livemode, currency, amount FROM payments WHERE status IN ('paid', 'refunded')`,
  `SELECT s.recipient_merchant_id, e.livemode, e.currency, s.amount FROM ${TO_MERCHANTS}`,
  `SELECT merchant_id, livemode, currency, amount FROM ${EARNINGS}`,
];

/** Where that money is now: with the merchant, on its way out, paid out, given back, or our fee. */
const MONEY_ACCOUNTED: Record<string, Amounts> = {
  available: postingsOf('merchant_available'),
  payouts_in_transit: postingsOf('merchant_payouts_in_transit'),
  paid_out: `SELECT merchant_id, livemode, currency, amount FROM payouts WHERE status = 'paid'`,
  refunded: `SELECT merchant_id, livemode, currency, amount FROM payments WHERE status = 'refunded'`,
  fees: postingsOf('platform_fees'),
  escrow: postingsOf('merchant_escrow'),
  released_to_merchants: `SELECT e.merchant_id, e.livemode, e.currency, s.amount FROM ${TO_MERCHANTS}`,
  sent_to_phones: `SELECT e.merchant_id, e.livemode, e.currency, s.amount FROM ${TO_PHONES}`,
  escrow_refunded: `SELECT merchant_id, livemode, currency, refunded_amount FROM escrows`,
  referral: postingsOf('merchant_referral'),
  fee_shared: `SELECT referred_id, livemode, currency, amount FROM ${EARNINGS}`,
};

/** Each account's balance as the source rows say it must be. */
const ACCOUNT_SOURCES: Record<string, Amounts[]> = {
  merchant_available: [
    `SELECT merchant_id, livemode, currency, net FROM payments WHERE status = 'paid'`,
    `SELECT merchant_id, livemode, currency, -amount FROM payouts WHERE status IN ('pending', 'paid')`,
    `SELECT merchant_id, livemode, currency, -amount FROM escrows`,
    `SELECT s.recipient_merchant_id, e.livemode, e.currency, s.amount FROM ${TO_MERCHANTS}`,
  ],
  merchant_payouts_in_transit: [
    `SELECT merchant_id, livemode, currency, amount FROM payouts WHERE status = 'pending'`,
  ],
  platform_fees: [
    `SELECT merchant_id, livemode, currency, fee FROM payments WHERE status = 'paid'`,
    `SELECT merchant_id, livemode, currency, platform_fee FROM escrows WHERE fee_collected`,
    `SELECT referred_id, livemode, currency, -amount FROM ${EARNINGS}`,
  ],
  provider_clearing: [
    `SELECT merchant_id, livemode, currency, -amount FROM payments WHERE status = 'paid'`,
    `SELECT merchant_id, livemode, currency, amount FROM payouts WHERE status = 'paid'`,
    `SELECT e.merchant_id, e.livemode, e.currency, s.amount FROM ${TO_PHONES}`,
    `SELECT merchant_id, livemode, currency, refunded_amount FROM escrows`,
  ],
  // Held, less what left: released splits, the fee once taken, the refund.
  merchant_escrow: [
    `SELECT merchant_id, livemode, currency, amount - refunded_amount
       - CASE WHEN fee_collected THEN platform_fee ELSE 0 END FROM escrows`,
    `SELECT e.merchant_id, e.livemode, e.currency, -s.amount FROM ${SPLITS_RELEASED}`,
  ],
  merchant_referral: [`SELECT merchant_id, livemode, currency, amount FROM ${EARNINGS}`],
};

/** The ledger transactions each source row in its state must have, exactly once. */
const MOVEMENTS: Array<{ type: string; sources: string }> = [
  { type: 'payment', sources: `SELECT id, merchant_id FROM payments WHERE status IN ('paid', 'refunded')` },
  { type: 'refund', sources: `SELECT id, merchant_id FROM payments WHERE status = 'refunded'` },
  { type: 'payout', sources: `SELECT id, merchant_id FROM payouts` },
  { type: 'payout_paid', sources: `SELECT id, merchant_id FROM payouts WHERE status = 'paid'` },
  { type: 'payout_reversal', sources: `SELECT id, merchant_id FROM payouts WHERE status = 'failed'` },
  { type: 'escrow_hold', sources: `SELECT id, merchant_id FROM escrows` },
  {
    // Each released split (the recipient's transaction, or the holder's for a phone) and each fee taken.
    type: 'escrow_release',
    sources: `SELECT s.id, coalesce(s.recipient_merchant_id, e.merchant_id) FROM ${SPLITS_RELEASED}
              UNION ALL SELECT id, merchant_id FROM escrows WHERE fee_collected AND platform_fee > 0`,
  },
  { type: 'escrow_refund', sources: `SELECT id, merchant_id FROM escrows WHERE status = 'refunded'` },
  { type: 'referral_earning', sources: `SELECT payment_id, merchant_id FROM ${EARNINGS}` },
];

/**
 * The postings a transaction may make on another merchant's account
 * (transaction_id, merchant_id, account): a release to a merchant takes the
 * money from the holder's escrow; a referral earning takes the referrer's share
 * from the platform's fee on the referred merchant's payment.
 */
const CROSS_MERCHANT: string[] = [
  `SELECT t.id, e.merchant_id, 'merchant_escrow' FROM ledger_transactions t
     JOIN escrow_splits s ON s.id = t.source_id JOIN escrows e ON e.id = s.escrow_id WHERE t.type = 'escrow_release'`,
  `SELECT t.id, p.merchant_id, 'platform_fees' FROM ledger_transactions t
     JOIN payments p ON p.id = t.source_id WHERE t.type = 'referral_earning'`,
];

const sumPerKey = (sources: Amounts[]) =>
  `SELECT merchant_id, livemode, currency, sum(amount)::bigint AS amount FROM (${sources
    .map(
      (sql) =>
        `SELECT merchant_id, livemode, currency, amount FROM (${sql}) s(merchant_id, livemode, currency, amount)`,
    )
    .join(
      ' UNION ALL ',
    )}) t WHERE ($1::text IS NULL OR merchant_id = $1) GROUP BY merchant_id, livemode, currency`;

/** Compares two per-key sums; keys missing on one side count as 0. */
const compare = (expected: string, actual: string) =>
  `SELECT coalesce(e.merchant_id, a.merchant_id) AS merchant_id, coalesce(e.livemode, a.livemode) AS livemode,
          coalesce(e.currency, a.currency) AS currency, coalesce(e.amount, 0)::bigint AS expected,
          coalesce(a.amount, 0)::bigint AS actual
   FROM (${expected}) e FULL JOIN (${actual}) a
     ON e.merchant_id = a.merchant_id AND e.livemode = a.livemode AND e.currency = a.currency
   WHERE coalesce(e.amount, 0) <> coalesce(a.amount, 0)`;

interface KeyedRow {
  merchant_id: string;
  livemode: boolean;
  currency: string;
  expected: number;
  actual: number;
}

/** Every discrepancy in the books, for one merchant or (merchantId undefined) for all. */
export async function reconcile(db: Queryable, merchantId?: string): Promise<Discrepancy[]> {
  const scope = [merchantId ?? null];
  const found: Discrepancy[] = [];
  const keyed = (check: Discrepancy['check'], subject: string, rows: KeyedRow[]) => {
    for (const row of rows) found.push({ check, subject, ...row });
  };

  const unbalanced = await db.query<{
    merchant_id: string;
    transaction_id: string;
    currency: string;
    total: number;
  }>(
    `SELECT t.merchant_id, p.transaction_id, p.currency, sum(p.amount)::bigint AS total
     FROM ledger_postings p JOIN ledger_transactions t ON t.id = p.transaction_id
     WHERE ($1::text IS NULL OR t.merchant_id = $1)
     GROUP BY t.merchant_id, p.transaction_id, p.currency HAVING sum(p.amount) <> 0`,
    scope,
  );
  for (const row of unbalanced.rows)
    found.push({
      check: 'transaction_unbalanced',
      merchant_id: row.merchant_id,
      livemode: null,
      currency: row.currency,
      subject: row.transaction_id,
      expected: 0,
      actual: row.total,
    });

  const foreign = await db.query<{ merchant_id: string; transaction_id: string }>(
    `SELECT DISTINCT t.merchant_id, p.transaction_id FROM ledger_postings p JOIN ledger_transactions t ON t.id = p.transaction_id
     WHERE ($1::text IS NULL OR t.merchant_id = $1)
       AND (p.livemode <> t.livemode OR p.currency <> t.currency OR (p.merchant_id <> t.merchant_id
         AND (p.transaction_id, p.merchant_id, p.account) NOT IN (${CROSS_MERCHANT.join(' UNION ALL ')})))`,
    scope,
  );
  for (const row of foreign.rows)
    found.push({
      check: 'posting_foreign',
      merchant_id: row.merchant_id,
      livemode: null,
      currency: null,
      subject: row.transaction_id,
      expected: null,
      actual: null,
    });

  for (const { type, sources } of MOVEMENTS) {
    const posted = await db.query<{ merchant_id: string; subject: string; expected: number; actual: number }>(
      `SELECT coalesce(s.merchant_id, t.merchant_id) AS merchant_id, coalesce(s.id, t.source_id) AS subject,
              (s.id IS NOT NULL)::int AS expected, count(t.id)::int AS actual
       FROM (${sources}) s(id, merchant_id) FULL JOIN (SELECT id, merchant_id, source_id FROM ledger_transactions WHERE type = '${type}') t
         ON t.source_id = s.id
       WHERE ($1::text IS NULL OR coalesce(s.merchant_id, t.merchant_id) = $1)
       GROUP BY 1, 2, s.id HAVING count(t.id) <> (s.id IS NOT NULL)::int`,
      scope,
    );
    for (const row of posted.rows)
      found.push({
        check: row.expected === 1 ? 'movement_unposted' : 'posting_unexplained',
        merchant_id: row.merchant_id,
        livemode: null,
        currency: null,
        subject: `${type} ${row.subject}`,
        expected: row.expected,
        actual: row.actual,
      });
  }

  for (const [account, sources] of Object.entries(ACCOUNT_SOURCES)) {
    const rows = await db.query<KeyedRow>(
      compare(sumPerKey(sources), sumPerKey([postingsOf(account)])),
      scope,
    );
    keyed('account_mismatch', account, rows.rows);
  }

  const negative = await db.query<KeyedRow>(
    `SELECT merchant_id, livemode, currency, 0 AS expected, amount AS actual FROM (${sumPerKey([
      postingsOf('merchant_available'),
    ])}) b WHERE amount < 0`,
    scope,
  );
  keyed('available_negative', 'merchant_available', negative.rows);

  const identity = await db.query<KeyedRow>(
    compare(sumPerKey(MONEY_IN), sumPerKey(Object.values(MONEY_ACCOUNTED))),
    scope,
  );
  keyed('money_unaccounted', `money in = ${Object.keys(MONEY_ACCOUNTED).join(' + ')}`, identity.rows);

  // What a merchant rebuilds from GET /v1/transactions is what GET /v1/balance sums.
  for (const balance of MERCHANT_BALANCES) {
    const rows = await db.query<KeyedRow>(
      compare(sumPerKey([postingsOf(BALANCE_ACCOUNTS[balance])]), sumPerKey([linesOf(balance)])),
      scope,
    );
    keyed('listing_mismatch', balance, rows.rows);
  }

  // What GET /v1/balance reads is the postings' sum, and counts as many postings.
  for (const balance of MERCHANT_BALANCES) {
    const account = BALANCE_ACCOUNTS[balance];
    const sums = await db.query<KeyedRow>(
      compare(sumPerKey([postingsOf(account)]), sumPerKey([totalsOf(account, 'amount')])),
      scope,
    );
    keyed('total_mismatch', balance, sums.rows);
    const counts = await db.query<KeyedRow>(
      compare(
        sumPerKey([
          `SELECT merchant_id, livemode, currency, 1 FROM ledger_postings WHERE account = '${account}'`,
        ]),
        sumPerKey([totalsOf(account, 'postings')]),
      ),
      scope,
    );
    keyed('total_mismatch', `${balance} postings`, counts.rows);
  }
  return found;
}
