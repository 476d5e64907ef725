import { expect } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { reconcile } from '../../apps/server/src/ledger/reconciliation.ts';
import { eventually } from '../support/server.ts';
import type { Api } from '../support/retail.ts';

/** Sandbox numbers and bank accounts (docs/PAYOUTS.md). */
export const WALLET = { paid: '255700000001', fails: '255700000002', pending: '255700000003' } as const;
export const bank = (accountNumber: string) => ({
  type: 'bank',
  bank_name: 'CRDB Bank',
  account_number: accountNumber,
  account_name: 'Duka la Mama Neema',
});
export const wallet = (phone: string) => ({ type: 'mobile_money', phone });

/** A payment the sandbox pays (or fails, for 255700000002), once it has settled. */
export async function settledPayment(api: Api, amount: number, phone: string = WALLET.paid) {
  const created = await api.post('/v1/payments', { amount, currency: 'TZS', phone });
  expect(created.status).toBe(201);
  return eventually(async () => {
    const r = await api.get(`/v1/payments/${created.body.id}`);
    return r.body.status !== 'pending' ? r.body : undefined;
  });
}

export async function settledPayout(api: Api, id: string) {
  return eventually(async () => {
    const r = await api.get(`/v1/payouts/${id}`);
    return r.body.status !== 'pending' ? r.body : undefined;
  });
}

export async function availableTzs(api: Api): Promise<number> {
  const balance = await api.get('/v1/balance');
  return balance.body.available.find((b: { currency: string }) => b.currency === 'TZS')?.amount ?? 0;
}

/** What the reconciliation query finds for one merchant: nothing, when the books agree. */
export async function expectReconciled(server: RunningServer, merchantId: string) {
  expect(await reconcile(server.database.pool, merchantId)).toEqual([]);
}

/** Events of a type the outbox holds for a merchant, oldest first. */
export async function eventsOf(server: RunningServer, merchantId: string, type: string) {
  const found = await server.database.pool.query<{ data: { object: { id: string; status: string } } }>(
    `SELECT data FROM events WHERE merchant_id = $1 AND type = $2 ORDER BY seq`,
    [merchantId, type],
  );
  return found.rows.map((row) => row.data.object);
}
