import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@tz/core';
import { client, signUp, startTestServer, type Merchant } from '../support/server.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';

let server: RunningServer;

beforeAll(async () => {
  // As in production: the response is not checked against its schema (which would refuse a rounded amount too).
  server = await startTestServer({ VALIDATE_RESPONSES: 'false' });
});
afterAll(() => server?.close());

/** A merchant whose available TZS balance is `total` (a decimal string), posted as two halves. */
async function merchantWithBalance(total: bigint): Promise<Merchant> {
  const merchant = await signUp(server.url);
  const half = total / 2n;
  await server.database.transaction(async (tx) => {
    const id = newId('ledgerTransaction');
    await tx.query(
      `INSERT INTO ledger_transactions (id, merchant_id, livemode, type, source_id, currency, amount, net)
       VALUES ($1, $2, false, 'payment', $3, 'TZS', $4, $4)`,
      [id, merchant.id, newId('payment'), String(half)],
    );
    await tx.query(
      `INSERT INTO ledger_postings (transaction_id, merchant_id, livemode, account, currency, amount)
       VALUES ($1, $2, false, 'merchant_available', 'TZS', $3), ($1, $2, false, 'merchant_available', 'TZS', $4),
              ($1, $2, false, 'provider_clearing', 'TZS', $5)`,
      [id, merchant.id, String(half), String(total - half), String(-total)],
    );
  });
  return merchant;
}

describe('money read from the database', () => {
  it('answers a balance of 2^53 − 1 exactly', async () => {
    const merchant = await merchantWithBalance(2n ** 53n - 1n);
    const balance = await client(server.url, merchant.keys.secretTest).get('/v1/balance');
    expect(balance.status).toBe(200);
    expect(balance.body.available).toEqual([{ amount: 9_007_199_254_740_991, currency: 'TZS' }]);
  });

  it('refuses a balance past 2^53 − 1 rather than round it', async () => {
    const merchant = await merchantWithBalance(2n ** 53n + 1n);
    const balance = await client(server.url, merchant.keys.secretTest).get('/v1/balance');
    expect(balance.status).toBe(500);
    expect(balance.body).toMatchObject({ error: 'api_error', code: 'internal_error' });
    expect(JSON.stringify(balance.body)).not.toContain('9007199254740992');
  });
});
