import {
  AppError,
  BALANCE_ACCOUNTS,
  balanceMovements,
  newId,
  type Currency,
  type LedgerTransactionType,
  type MerchantBalance,
  type Posting,
} from '@tz/core';
import { write, type Queryable } from '../db/database.ts';
import type { Actor, Tenant } from '../actor.ts';
import { unixSeconds } from '../infra/time.ts';

/** A line of `balance_transaction_lines`: one balance one ledger transaction moved. */
interface TransactionRow {
  id: string;
  livemode: boolean;
  balance: MerchantBalance;
  type: LedgerTransactionType;
  source_id: string;
  currency: string;
  amount: number;
  fee: number;
  net: number;
  description: string | null;
  created_at: Date;
}

export const transactionObject = (row: TransactionRow) => ({
  id: row.id,
  object: 'transaction' as const,
  type: row.type,
  balance: row.balance,
  source: row.source_id,
  amount: row.amount,
  fee: row.fee,
  net: row.net,
  currency: row.currency,
  description: row.description,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
});

export interface LedgerEntry {
  merchantId: string;
  livemode: boolean;
  type: LedgerTransactionType;
  sourceId: string;
  currency: Currency;
  /** Signed from the merchant's view, before the fee: a refund is negative. */
  amount: number;
  fee: number;
  description: string | null;
  /** Each posting is on `merchantId`'s accounts unless it names another merchant (a referral earning's fee side). */
  postings: Array<Posting & { merchantId?: string }>;
}

/**
 * Writes a ledger transaction, its postings (the database refuses them unless
 * they sum to zero) and its lines in the merchants' transaction lists.
 */
export async function postLedgerEntry(db: Queryable, entry: LedgerEntry): Promise<string> {
  const id = newId('ledgerTransaction');
  // Nothing reads these back: in a transaction they leave with its next read or its COMMIT.
  await write(
    db,
    `INSERT INTO ledger_transactions (id, merchant_id, livemode, type, source_id, currency, amount, fee, net, description)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      id,
      entry.merchantId,
      entry.livemode,
      entry.type,
      entry.sourceId,
      entry.currency,
      entry.amount,
      entry.fee,
      entry.amount - entry.fee,
      entry.description,
    ],
  );
  const postings = entry.postings.map((posting) => [
    id,
    posting.merchantId ?? entry.merchantId,
    entry.livemode,
    posting.account,
    posting.currency,
    posting.amount,
  ]);
  await write(
    db,
    `INSERT INTO ledger_postings (transaction_id, merchant_id, livemode, account, currency, amount)
     VALUES ${placeholders(postings)}`,
    postings.flat(),
  );
  await writeBalanceLines(db, id, entry);
  return id;
}

/** The transaction's lines, in posting order; the main line carries its id (docs/LEDGER.md). */
async function writeBalanceLines(db: Queryable, transactionId: string, entry: LedgerEntry): Promise<void> {
  const lines = balanceMovements(entry).map((line) => [
    line.main ? transactionId : `${transactionId}_${line.balance}`,
    transactionId,
    line.merchantId,
    entry.livemode,
    line.balance,
    line.currency,
    line.amount,
    line.fee,
    line.net,
  ]);
  await write(
    db,
    `INSERT INTO balance_transactions (id, transaction_id, merchant_id, livemode, balance, currency, amount, fee, net)
     VALUES ${placeholders(lines)}`,
    lines.flat(),
  );
}

/** `($1, $2), ($3, $4)` for rows of values, numbered in the order `rows.flat()` gives them. */
function placeholders(rows: unknown[][]): string {
  let n = 0;
  return rows.map((row) => `(${row.map(() => `$${++n}`).join(', ')})`).join(', ');
}

interface BalanceAmount {
  amount: number;
  currency: string;
}

/** One account's sum in one currency, as `BALANCE_SUMS` gives it. */
export interface BalanceSum {
  account: string;
  currency: string;
  total: number;
}

/**
 * The sums of the postings on a merchant's balance accounts (`$1` merchant, `$2` livemode), read
 * from the totals the database keeps with the postings (migration `balance_totals`): the same
 * cost however long the history. An account and currency appear once they have postings, as a sum
 * over the postings would show them.
 */
export const BALANCE_SUMS = `SELECT account, currency, sum(amount)::bigint AS total FROM ledger_balance_totals
  WHERE merchant_id = $1 AND livemode = $2
    AND account IN (${Object.values(BALANCE_ACCOUNTS)
      .map((account) => `'${account}'`)
      .join(', ')})
  GROUP BY account, currency HAVING sum(postings) <> 0`;

/** `GET /v1/balance` from the sums `BALANCE_SUMS` gives. */
export function balanceObject(sums: readonly BalanceSum[], livemode: boolean) {
  const pick = (balance: MerchantBalance): BalanceAmount[] =>
    sums
      .filter((r) => r.account === BALANCE_ACCOUNTS[balance])
      .sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0))
      .map((r) => ({ amount: r.total, currency: r.currency }));
  return {
    object: 'balance' as const,
    available: pick('available'),
    pending: pick('pending'),
    referral: pick('referral'),
    escrow: pick('escrow'),
    livemode,
  };
}

export class LedgerService {
  /** A merchant's transaction list: a line per balance each movement moved. */
  transactionsSource(tenant: Tenant, filters: { source?: string | undefined } = {}) {
    const params: unknown[] = [tenant.merchantId, tenant.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (filters.source) where += ` AND source_id = $${params.push(filters.source)}`;
    return { table: 'balance_transaction_lines', where, params };
  }

  /** The balance: the sums of the postings on the merchant's accounts. */
  async balance(db: Queryable, actor: Actor) {
    const sums = await db.query<BalanceSum>(BALANCE_SUMS, [actor.merchantId, actor.livemode]);
    return balanceObject(sums.rows, actor.livemode);
  }
}

/**
 * Takes the lock every movement out of one available balance (a payout, a
 * refund) holds until its transaction ends, and returns the balance as it
 * stands under the lock: a second mover waits here and then sees the first
 * one's debit, so racing movers can never together spend more than there is.
 * A row lock (the upsert locks the row), not an advisory lock: the embedded
 * database serves every connection from one session, where advisory locks
 * across connections mean nothing; row locks behave alike on both.
 */
export async function lockAvailableBalance(
  db: Queryable,
  merchantId: string,
  livemode: boolean,
  currency: string,
): Promise<number> {
  await db.query(
    `INSERT INTO balance_locks (merchant_id, livemode, currency) VALUES ($1, $2, $3)
     ON CONFLICT (merchant_id, livemode, currency) DO UPDATE SET currency = EXCLUDED.currency`,
    [merchantId, livemode, currency],
  );
  // A new statement, so a new snapshot: it sees whatever the previous holder committed.
  return availableBalance(db, merchantId, livemode, currency);
}

/** The available balance in one currency, from the totals kept with the postings (as `BALANCE_SUMS`). */
export async function availableBalance(
  db: Queryable,
  merchantId: string,
  livemode: boolean,
  currency: string,
) {
  const found = await db.query<{ total: number | null }>(
    `SELECT sum(amount)::bigint AS total FROM ledger_balance_totals
     WHERE merchant_id = $1 AND livemode = $2 AND account = 'merchant_available' AND currency = $3`,
    [merchantId, livemode, currency],
  );
  return found.rows[0]?.total ?? 0;
}

/**
 * For a write that takes `amount` from the available balance (a refund, an
 * escrow hold): takes the balance lock, then refuses, naming `field`, when the
 * balance is short.
 */
export async function assertAvailable(
  db: Queryable,
  owner: { merchantId: string; livemode: boolean; currency: string },
  amount: number,
  purpose: string,
  field: string,
): Promise<void> {
  const available = await lockAvailableBalance(db, owner.merchantId, owner.livemode, owner.currency);
  refuseUnlessCovered(available, amount, owner.currency, purpose, field);
}

/** The refusal of a write that would take more than the (locked) available balance holds. */
export function refuseUnlessCovered(
  available: number,
  amount: number,
  currency: string,
  purpose: string,
  field: string,
): void {
  if (available < amount) {
    throw new AppError(
      'insufficient_funds',
      `The available ${currency} balance is too low to ${purpose} ${amount}`,
      { details: { [field]: `needs ${amount} available, has ${available}` } },
    );
  }
}
