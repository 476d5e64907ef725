import { afterEach, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import {
  balanceMovements,
  escrowHoldPostings,
  escrowReleasePostings,
  paymentPostings,
  payoutPostings,
  type LedgerTransactionType,
  type Posting,
} from '@tz/core';
import { migrate, openDatabase, type Database } from '../../apps/server/src/db/database.ts';
import { listPage } from '../../apps/server/src/db/list-page.ts';
import { LedgerService, transactionObject } from '../../apps/server/src/ledger/service.ts';

const MIGRATION = '20261128040000_balance_transactions';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

interface Posted {
  id: string;
  merchantId: string;
  type: LedgerTransactionType;
  amount: number;
  fee: number;
  postings: Posting[];
}

/** The migration before this one: the schema the older transactions were posted on. */
async function previousMigration(): Promise<string> {
  const names = (await readdir(new URL('../../apps/server/migrations/', import.meta.url)))
    .filter((name) => name.endsWith('.sql'))
    .map((name) => name.slice(0, -4))
    .sort();
  return names[names.indexOf(MIGRATION) - 1]!;
}

describe('the transaction-list migration', () => {
  it('lists the transactions posted before it as new ones are listed, rebuilding each balance', async () => {
    database = await openDatabase({ dataDir: 'memory://', poolMax: 2 });
    await migrate(database, { upTo: await previousMigration() });
    await database.pool.query(
      `INSERT INTO merchants (id, business_name, email, password_hash, referral_code)
       VALUES ('mer_holder', 'Soko', 'soko@example.tz', 'x', '2222222222'),
              ('mer_recipient', 'Fundi', 'fundi@example.tz', 'x', '3333333333')`,
    );
    const transfer = {
      account: 'merchant_available' as const,
      holderMerchantId: 'mer_holder',
      recipientMerchantId: 'mer_recipient',
    };
    const posted: Posted[] = [
      { id: 'txn_1', merchantId: 'mer_holder', type: 'payment', amount: 10_000, fee: 150, postings: [] },
      { id: 'txn_2', merchantId: 'mer_holder', type: 'escrow_hold', amount: -9_850, fee: 0, postings: [] },
      {
        id: 'txn_3',
        merchantId: 'mer_recipient',
        type: 'escrow_release',
        amount: 5_000,
        fee: 0,
        postings: [],
      },
      { id: 'txn_4', merchantId: 'mer_holder', type: 'escrow_release', amount: -4_850, fee: 0, postings: [] },
      { id: 'txn_5', merchantId: 'mer_holder', type: 'payment', amount: 20_000, fee: 300, postings: [] },
      { id: 'txn_6', merchantId: 'mer_holder', type: 'payout', amount: -19_700, fee: 0, postings: [] },
      { id: 'txn_7', merchantId: 'mer_holder', type: 'payout_paid', amount: 0, fee: 0, postings: [] },
    ];
    posted[0]!.postings = paymentPostings('TZS', 10_000, 150);
    posted[1]!.postings = escrowHoldPostings('TZS', 9_850);
    posted[2]!.postings = escrowReleasePostings('TZS', 5_000, transfer);
    posted[3]!.postings = escrowReleasePostings('TZS', 4_850, { account: 'provider_clearing' });
    posted[4]!.postings = paymentPostings('TZS', 20_000, 300);
    posted[5]!.postings = payoutPostings('payout', 'TZS', 19_700);
    posted[6]!.postings = payoutPostings('payout_paid', 'TZS', 19_700);
    await database.transaction(async (tx) => {
      for (const t of posted) {
        await tx.query(
          `INSERT INTO ledger_transactions (id, merchant_id, livemode, type, source_id, currency, amount, fee, net)
           VALUES ($1, $2, false, $3, $1, 'TZS', $4, $5, $6)`,
          [t.id, t.merchantId, t.type, t.amount, t.fee, t.amount - t.fee],
        );
        for (const p of t.postings)
          await tx.query(
            `INSERT INTO ledger_postings (transaction_id, merchant_id, livemode, account, currency, amount)
             VALUES ($1, $2, false, $3, $4, $5)`,
            [t.id, p.merchantId ?? t.merchantId, p.account, p.currency, p.amount],
          );
      }
    });

    await migrate(database);

    for (const merchantId of ['mer_holder', 'mer_recipient']) {
      // What postLedgerEntry would have listed, newest first.
      const expected = posted
        .flatMap((t) =>
          balanceMovements({ merchantId: t.merchantId, currency: 'TZS', fee: t.fee, postings: t.postings })
            .filter((line) => line.merchantId === merchantId)
            .map((line) => ({
              id: line.main ? t.id : `${t.id}_${line.balance}`,
              type: t.type,
              balance: line.balance,
              amount: line.amount,
              fee: line.fee,
              net: line.net,
            })),
        )
        .reverse();
      const page = await listPage(
        database.pool,
        new LedgerService().transactionsSource({ merchantId, livemode: false }),
        { limit: 100 },
        transactionObject,
      );
      expect(
        page.data.map(({ id, type, balance, amount, fee, net }) => ({ id, type, balance, amount, fee, net })),
      ).toEqual(expected);
    }
    const holder = await database.pool.query<{ balance: string; total: number }>(
      `SELECT balance, sum(net)::bigint AS total FROM balance_transactions WHERE merchant_id = 'mer_holder' GROUP BY balance ORDER BY balance`,
    );
    // 9,850 + 19,700 in, 9,850 held, 19,700 paid out; the escrow emptied by the two releases.
    expect(holder.rows).toEqual([
      { balance: 'available', total: 0 },
      { balance: 'escrow', total: 0 },
    ]);
  }, 120_000);
});
