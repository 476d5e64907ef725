/**
 * Screenshots of the buyer's tickets page in both languages, on a phone and a
 * laptop: the short link of a paid order (`/t/{token}`), its checkout just
 * paid (`/pay/{id}`), a refunded order’s void tickets, an unknown link, and the page as printed.
 *   npx tsx test/browser/ticket-page-screens.ts [outDir]   (default scratch/ticket-page)
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, screenshotHostedPages } from '../support/browser.ts';
import { client, signUp, startTestServer } from '../support/server.ts';
import { makeEvent, order, payOrder } from '../events/support.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const outDir = path.resolve(process.argv[2] ?? path.join(repo, 'scratch/ticket-page'));

const server = await startTestServer();
const browser = await launchChromium();
try {
  const merchant = await signUp(server.url, { business_name: 'Busara Promotions' });
  const api = client(server.url, merchant.keys.secretTest);
  const at = (day: string, time: string) => Math.floor(Date.parse(`${day}T${time}+03:00`) / 1000);
  const { event, tiers } = await makeEvent(api, {
    name: 'Sauti za Busara 2027: Usiku wa Taarab',
    venue: 'Ngome Kongwe (Old Fort), Stone Town, Zanzibar',
    starts_at: at('2027-02-12', '19:00'),
    ends_at: at('2027-02-12', '23:30'),
    doors_open_at: at('2027-02-12', '17:30'),
    tiers: [
      { name: 'Kawaida', price: 20_000, quantity: 50 },
      { name: 'VIP Lounge & Backstage Pass', price: 85_000, quantity: 10 },
    ],
  });
  const lines = [
    { tier: tiers[0]!, quantity: 1 },
    { tier: tiers[1]!, quantity: 1 },
  ];
  const paid = await payOrder(server.url, api, await order(api, event.id, lines));
  const refunded = await payOrder(server.url, api, await order(api, event.id, lines));
  await api.post(`/v1/events/orders/${refunded.id}/refund`);
  await mkdir(outDir, { recursive: true });
  await screenshotHostedPages(browser, outDir, [
    ['tickets', paid.tickets_url],
    ['paid-checkout', paid.checkout_url],
    ['refunded', refunded.tickets_url],
    ['not-found', `${server.url}/t/AAAAAAAAAAAA`],
  ]);
  // As printed (A4 width), in English.
  const printed = await browser.newPage({ viewport: { width: 794, height: 1123 } });
  await printed.emulateMedia({ media: 'print' });
  await printed.goto(`${paid.tickets_url}?lang=en`);
  await printed.screenshot({ path: path.join(outDir, 'tickets-print-en.png'), fullPage: true });
  await printed.close();
} finally {
  await browser.close();
  await server.close();
}
console.log(`screenshots in ${outDir}`);
