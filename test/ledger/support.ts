import { expect } from 'vitest';
import type { Api } from '../support/retail.ts';

interface Line {
  id: string;
  balance: string;
  currency: string;
  amount: number;
  fee: number;
  net: number;
}

/** Every line of the merchant's `GET /v1/transactions`, paged through with `starting_after`. */
export async function allTransactions(api: Api): Promise<Line[]> {
  const lines: Line[] = [];
  for (;;) {
    const after = lines.at(-1);
    const page = await api.get(`/v1/transactions?limit=100${after ? `&starting_after=${after.id}` : ''}`);
    expect(page.status).toBe(200);
    lines.push(...(page.body.data as Line[]));
    if (!page.body.has_more) return lines;
  }
}

type Figures = Record<string, Record<string, number>>;

/** `GET /v1/balance` as balance -> currency -> amount, leaving out what is 0. */
async function balanceFigures(api: Api): Promise<Figures> {
  const body = (await api.get('/v1/balance')).body as Record<string, unknown>;
  const figures: Figures = {};
  for (const [balance, list] of Object.entries(body)) {
    if (!Array.isArray(list)) continue;
    for (const { amount, currency } of list as Array<{ amount: number; currency: string }>)
      if (amount !== 0) (figures[balance] ??= {})[currency] = amount;
  }
  return figures;
}

/**
 * The merchant's balance rebuilt from its transaction list as docs/LEDGER.md
 * says (the `net` of every line summed per `balance` and currency) is
 * `GET /v1/balance`, balance by balance, currency by currency.
 */
export async function expectBalanceRebuilt(api: Api): Promise<void> {
  const rebuilt: Figures = {};
  for (const line of await allTransactions(api)) {
    expect(line.net).toBe(line.amount - line.fee);
    const sums = (rebuilt[line.balance] ??= {});
    sums[line.currency] = (sums[line.currency] ?? 0) + line.net;
  }
  for (const [balance, sums] of Object.entries(rebuilt)) {
    for (const [currency, sum] of Object.entries(sums)) if (sum === 0) delete sums[currency];
    if (Object.keys(sums).length === 0) delete rebuilt[balance];
  }
  expect(rebuilt).toEqual(await balanceFigures(api));
}
