/**
 * Screenshots of the digital receipt page (`/receipt/{token}`) in both
 * languages, on a phone and a laptop: a synced sale with a discount, mobile
 * money, cash and a refund, and a token not yet synced ("on its way").
 *   npx tsx test/browser/receipt-page-screens.ts [outDir]   (default scratch/receipt-page)
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newId, newReceiptToken, type Command } from '@tz/core';
import { launchChromium, screenshotHostedPages } from '../support/browser.ts';
import { client, eventually, signUp, startTestServer } from '../support/server.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const outDir = path.resolve(process.argv[2] ?? path.join(repo, 'scratch/receipt-page'));

const server = await startTestServer();
const trpc = async (procedure: string, body: unknown, credential?: string): Promise<any> => {
  const response = await fetch(`${server.url}/trpc/${procedure}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(credential ? { authorization: `Bearer ${credential}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const answer: any = await response.json();
  return answer.result.data;
};
const command = (type: Command['type'], payload: Record<string, unknown>): Command => ({
  id: `cmd_${newId('request').slice(-26).toUpperCase()}`,
  type,
  created_at: Date.now(),
  payload,
});
const browser = await launchChromium();
try {
  const merchant = await signUp(server.url, { business_name: 'Duka la Mama Neema' });
  const api = client(server.url, merchant.keys.secretTest);
  await api.patch('/v1/retail/store', {
    name: 'Duka la Mama — Kariakoo',
    address_lines: ['Mtaa wa Msimbazi 12', 'Dar es Salaam'],
    phone: '255222000000',
    tin: '123-456-789',
    vrn: '40-123456-X',
    receipt_footer: ['Karibu tena!'],
  });
  const product = (name: string, price: number, unit = 'piece') =>
    api.post('/v1/retail/products', { name, price, unit, track_stock: false }).then((r) => r.body);
  const sugar = await product('Sukari Kilombero 1kg', 3_200);
  const rice = await product('Mchele Mbeya', 2_800, 'kg');
  const oil = await product('Mafuta ya Kupikia Korie 1 lita', 7_500);
  const created = await api.post('/v1/payments', { amount: 10_000, currency: 'TZS', phone: '0754000111' });
  await eventually(async () =>
    (await api.get(`/v1/payments/${created.body.id}`)).body.status === 'paid' ? true : undefined,
  );
  const till = await api.post('/v1/tills', { name: 'Kaunta 1' });
  const paired = await trpc('sync.pair', { code: till.body.pairing_code });
  const token = newReceiptToken();
  const pushed = await trpc(
    'sync.push',
    {
      commands: [
        command('order.create', {
          client_order_id: 'screens-1',
          receipt_number: `${paired.till.receipt_prefix}-000123`,
          lines: [
            { product: sugar.id, quantity: 2 },
            { product: rice.id, quantity_milli: 2_500 },
            { product: oil.id, quantity: 1, discount: { type: 'percent', basis_points: 500 } },
          ],
          tenders: [
            { method: 'mobile_money', payment: created.body.id },
            { method: 'cash', amount: 15_000 },
          ],
          receipt_token: token,
        }),
        command('order.refund', { client_order_id: 'screens-1', lines: [{ line: 0, quantity: 1 }] }),
      ],
    },
    paired.credential,
  );
  for (const result of pushed.results) {
    if (result.status !== 'applied')
      throw new Error(`the sample sale was refused: ${JSON.stringify(result)}`);
  }
  await mkdir(outDir, { recursive: true });
  await screenshotHostedPages(browser, outDir, [
    ['receipt', `${server.url}/receipt/${token}`],
    ['on-the-way', `${server.url}/receipt/${newReceiptToken()}`],
  ]);
} finally {
  await browser.close();
  await server.close();
}
console.log(`screenshots in ${outDir}`);
