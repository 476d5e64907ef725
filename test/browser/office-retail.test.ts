/**
 * The back office's Retail section in Chromium over a real server, in Swahili
 * and English: a store made on the page, a 2,000-product CSV imported through
 * the file input (and again, adding nothing), a file with problems refused
 * with each row and column named and nothing imported, a product made,
 * edited with a variant and barcodes, and archived, stock and reorder levels
 * changed (the low-only view following), and axe-core's check of every tab.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { catalogueCsv } from '../support/catalogue-csv.ts';
import { anotherMerchant, type SignedUp } from '../support/merchant.ts';
import { officeInChromium, openOffice, seriousViolations, signInInBrowser } from '../support/office.ts';

const office = officeInChromium();

const TABS = ['products', 'import', 'categories', 'stores', 'stock', 'orders', 'shifts'] as const;

const productCount = async (shop: SignedUp) => {
  const found = await office.server.database.pool.query(
    `SELECT count(*)::int AS count FROM retail_products WHERE merchant_id = $1 AND NOT livemode AND deleted_at IS NULL`,
    [shop.merchant.id],
  );
  return found.rows[0].count as number;
};

async function chooseFile(page: Page, name: string, text: string) {
  await page.setInputFiles('[data-testid=import-file]', {
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from(text),
  });
  await page.click('[data-testid=import-submit]');
}

describe.each(['sw', 'en'] as const)('in %s', (language) => {
  const english = language === 'en';
  // The 2,000-product file once (in English); Swahili reads the same flow's words over a smaller one.
  const products = english ? 2_000 : 200;
  const rows = (products * 6) / 5;
  const count = (n: number) => n.toLocaleString('en-US');

  it(
    'makes a store, imports a catalogue (2,000 products in English) from a CSV file once, and refuses a file with problems, naming rows and columns',
    { timeout: 240_000 },
    async () => {
      const shop = await anotherMerchant(office.server, { business_name: `Duka la ${language}` });
      const { context, page } = await openOffice(office.browser, language);
      try {
        await signInInBrowser(page, office.server.url, shop.merchant);
        await page.click('[data-testid=nav-retail]');
        await page.waitForSelector('[data-testid=tab-products][aria-current=page]');

        await page.click('[data-testid=tab-stores]');
        expect(new URL(page.url()).pathname).toBe('/office/retail/stores');
        await page.fill('[data-testid=new-store-name]', 'Duka Kuu Mwenge');
        await page.keyboard.press('Enter');
        await page.waitForSelector('[data-testid=store] >> text=Duka Kuu Mwenge');
        const stores = (await shop.api.get('/v1/retail/stores')).body.data;
        expect(stores.map((s: { name: string }) => s.name)).toEqual(['Duka Kuu Mwenge']);

        await page.click('[data-testid=tab-import]');
        const prefix = `B${language.toUpperCase()}`;
        await chooseFile(page, 'bidhaa.csv', catalogueCsv({ products, prefix }));
        await page.waitForSelector('[data-testid=import-result]', { timeout: 120_000 });
        const done = await page.textContent('[data-testid=import-result]');
        expect(done).toContain(
          english
            ? `${count(rows)} rows read: ${count(products)} new`
            : `Safu ${count(rows)} zimesomwa: mpya ${count(products)}`,
        );
        expect(await productCount(shop)).toBe(products);

        // The same file again adds nothing.
        await chooseFile(page, 'bidhaa.csv', catalogueCsv({ products, prefix }));
        await expect
          .poll(() => page.textContent('[data-testid=import-result]'), { timeout: 120_000 })
          .toContain(
            english
              ? `0 new, 0 changed, 0 archived, ${count(products)} unchanged`
              : 'mpya 0, zimebadilishwa 0',
          );
        expect(await productCount(shop)).toBe(products);

        await chooseFile(
          page,
          'makosa.csv',
          'name;sku;price;unit\r\nChai;NEW-1;12.5;box\r\n;NEW-2;100;piece\r\nSoda;NEW-1;1000;piece\r\n',
        );
        await page.waitForSelector('[data-testid=import-errors]', { timeout: 60_000 });
        expect(await page.textContent('[data-testid=import-refused]')).toContain(
          english
            ? 'Nothing was imported: the file has 4 problems'
            : 'Hakuna kilichopakiwa: faili lina makosa 4',
        );
        const problems = await page.$$eval('[data-testid=import-error]', (rows) =>
          rows.map((row) => [...row.children].map((cell) => cell.textContent)),
        );
        expect(problems).toEqual(
          english
            ? [
                ['2', 'price', 'Must be a whole amount, like 12500 or 12,500.'],
                ['2', 'unit', 'Must be piece, kg, litre or metre.'],
                ['3', 'name', 'Required.'],
                ['4', 'sku', 'The same as row 2.'],
              ]
            : [
                ['2', 'price', 'Iwe kiasi kizima, kama 12500 au 12,500.'],
                ['2', 'unit', 'Iwe piece, kg, litre au metre.'],
                ['3', 'name', 'Inahitajika.'],
                ['4', 'sku', 'Ni sawa na safu 2.'],
              ],
        );
        expect(await productCount(shop)).toBe(products);
        expect(await seriousViolations(page)).toEqual([]);

        // The export answers the catalogue as CSV to the page's own session.
        const exported = await page.evaluate(async () => {
          const response = await fetch('/v1/retail/products/export');
          return { type: response.headers.get('content-type'), text: await response.text() };
        });
        expect(exported.type).toMatch(/^text\/csv/);
        expect(exported.text.split('\r\n').length).toBe(rows + 2);
      } finally {
        await context.close();
      }
    },
  );

  it('creates, edits with a variant and barcodes, and archives a product', { timeout: 120_000 }, async () => {
    const shop = await anotherMerchant(office.server, { business_name: `Duka la bidhaa ${language}` });
    await shop.api.post('/v1/retail/categories', { name: 'Vinywaji' });
    const { context, page } = await openOffice(office.browser, language);
    try {
      await signInInBrowser(page, office.server.url, shop.merchant);
      await page.goto(`${office.server.url}/office/retail/products`);
      await page.click('[data-testid=new-product]');
      await page.fill('[data-testid=product-name]', 'Juisi ya Embe');
      // Amounts as the catalogue CSV takes them: with the currency, or with zero cents.
      await page.fill('[data-testid=product-price]', 'TZS 2,500');
      await page.fill('[data-testid=product-sku]', `JUISI-${language}`);
      await page.fill('[data-testid=product-barcodes]', '6200000000011 6200000000012');
      await page.selectOption('[data-testid=product-category]', { label: 'Vinywaji' });
      await page.click('[data-testid=save-product]');
      await page.waitForURL(/\/office\/retail\/products\/prod_/);
      const id = new URL(page.url()).pathname.split('/').at(-1)!;
      expect((await shop.api.get(`/v1/products/${id}`)).body).toMatchObject({
        name: 'Juisi ya Embe',
        price: 2_500,
        barcodes: ['6200000000011', '6200000000012'],
      });

      await page.waitForSelector('[data-testid=product-form]');
      await page.fill('[data-testid=product-price]', '2800');
      await page.fill('[data-testid=product-cost]', '2000.00');
      await page.click('[data-testid=add-variant]');
      const variant = page.locator('[data-testid=variant]').last();
      await variant.locator('input').nth(0).fill('Lita 1');
      await variant.locator('input').nth(1).fill(`JUISI-1L-${language}`);
      await variant.locator('input').nth(3).fill('4,000');
      await page.click('[data-testid=save-product]');
      await page.waitForSelector('[data-testid=product-saved]');
      const edited = (await shop.api.get(`/v1/products/${id}`)).body;
      expect(edited).toMatchObject({ price: 2_800, cost: 2_000 });
      expect(edited.variants).toMatchObject([{ name: 'Lita 1', sku: `JUISI-1L-${language}`, price: 4_000 }]);

      // Refused input reads as a sentence naming the field, in the page's language.
      await page.fill('[data-testid=product-price]', '12.5');
      await page.click('[data-testid=save-product]');
      await expect
        .poll(() => page.locator('.message, [role=alert]').allTextContents())
        .toEqual(expect.arrayContaining([expect.stringContaining(english ? 'Price' : 'Bei')]));

      await page.click('[data-testid=archive-product]');
      await page.click('[data-testid=confirm-archive]');
      await page.waitForURL(/\/office\/retail\/products$/);
      expect((await shop.api.get(`/v1/products/${id}`)).body.deleted).toBe(true);
      await page.waitForSelector('[data-testid=retail]');
      expect(await page.locator('[data-testid=product-row]').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it(
    'changes stock and reorder levels, and has no serious accessibility findings on any tab, on a laptop and a phone',
    { timeout: 120_000 },
    async () => {
      const shop = await anotherMerchant(office.server, { business_name: `Duka la axe ${language}` });
      await shop.api.patch('/v1/retail/store', { name: 'Duka Kuu' });
      await shop.api.post('/v1/retail/products', { name: 'Sukari 1kg', sku: `S-${language}`, price: 3_200 });
      await shop.api.post('/v1/retail/products', {
        name: 'Mchele',
        sku: `M-${language}`,
        price: 2_800,
        unit: 'kg',
      });
      const store = (await shop.api.get('/v1/retail/stores')).body.data[0];
      for (const width of [1366, 360]) {
        const { context, page } = await openOffice(office.browser, language, width);
        try {
          await signInInBrowser(page, office.server.url, shop.merchant);
          if (width === 1366) {
            // Stock received for a product found by its SKU shows in the store's levels.
            await page.goto(`${office.server.url}/office/retail/stock`);
            await page.fill('[data-testid=adjust-code]', `S-${language}`);
            await page.fill('[data-testid=adjust-by]', '12');
            await page.click('[data-testid=adjust-submit]');
            await expect.poll(() => page.textContent('[data-testid=adjust-done]')).toContain('Sukari 1kg');
            const rows = () =>
              page.$$eval('[data-testid=stock-level]', (found) =>
                found.map((row) => [...row.children].map((cell) => cell.textContent)),
              );
            const none = english ? 'None' : 'Hakuna';
            // No reorder level reads as none, never as an empty cell or 0.
            await expect.poll(rows).toEqual([['Sukari 1kg', '12', none, '']]);

            // Reorder levels in the product's unit: 15 pieces puts 12 on hand below it; 1.5 kg does not 2 kg.
            const reorder = async (code: string, by: string, level: string) => {
              await page.fill('[data-testid=adjust-code]', code);
              await page.fill('[data-testid=adjust-by]', by);
              await page.fill('[data-testid=adjust-reorder]', level);
              await page.click('[data-testid=adjust-submit]');
            };
            await reorder(`S-${language}`, '', '1.5');
            await expect
              .poll(() => page.locator('[role=alert], .message').allTextContents())
              .toEqual(
                expect.arrayContaining([
                  expect.stringContaining(english ? 'Reorder at must be whole pieces' : 'Agiza tena ikifika'),
                ]),
              );
            await reorder(`S-${language}`, '', '15');
            await expect
              .poll(() => page.textContent('[data-testid=adjust-done]'))
              .toContain(english ? 'reorder at 15' : 'agiza tena ikifika 15');
            await reorder(`M-${language}`, '2', '1.5');
            await expect
              .poll(() => page.textContent('[data-testid=adjust-done]'))
              .toContain(
                english ? 'Mchele: 2.000 on hand now, reorder at 1.500' : 'Mchele: zilizopo sasa 2.000',
              );
            const low = english ? 'Low' : 'Ndogo';
            await expect.poll(rows).toEqual([
              ['Mchele', '2.000', '1.500', ''],
              ['Sukari 1kg', '12', '15', low],
            ]);
            expect(
              (await shop.api.get(`/v1/retail/stores/${store.id}/stock?low=true`)).body.data,
            ).toMatchObject([{ reorder_level_milli: 15_000, on_hand_milli: 12_000, low: true }]);
            await page.check('[data-testid=low-only]');
            await expect.poll(rows).toEqual([['Sukari 1kg', '12', '15', low]]);

            // A reorder level cleared from the list: the field left empty is no level (null), shown as none.
            await page.uncheck('[data-testid=low-only]');
            await page.click('[data-testid=stock-level]:has-text("Sukari 1kg") [data-testid=reorder-change]');
            expect(await page.inputValue('[data-testid=reorder-level]')).toBe('15');
            expect(await seriousViolations(page)).toEqual([]);
            await page.fill('[data-testid=reorder-level]', '');
            await page.click('[data-testid=reorder-save]');
            await page.waitForSelector('[data-testid=reorder-dialog]', { state: 'detached' });
            await expect.poll(rows).toEqual([
              ['Mchele', '2.000', '1.500', ''],
              ['Sukari 1kg', '12', none, ''],
            ]);
            expect(
              (await shop.api.get(`/v1/retail/stores/${store.id}/stock`)).body.data.map(
                (level: { reorder_level_milli: number | null; low: boolean }) => [
                  level.reorder_level_milli,
                  level.low,
                ],
              ),
            ).toEqual([
              [1_500, false],
              [null, false],
            ]);

            // Until the rows' products are read, a row shows a quiet placeholder, never the product's id.
            let release!: () => void;
            const held = new Promise<void>((resolve) => (release = resolve));
            await page.route(/\/v1\/products\/prod_/, async (route) => {
              await held;
              await route.continue();
            });
            await page.reload();
            await page.waitForSelector('[data-testid=stock-level] [data-testid=name-loading]');
            const firstPaint = await rows();
            expect(firstPaint.map((row) => row[0])).toEqual(['…', '…']);
            expect(JSON.stringify(firstPaint)).not.toContain('prod_');
            release();
            await expect
              .poll(async () => (await rows()).map((row) => row[0]))
              .toEqual(['Mchele', 'Sukari 1kg']);
            await page.unroute(/\/v1\/products\/prod_/);
          }
          for (const tab of TABS) {
            await page.goto(`${office.server.url}/office/retail/${tab}`);
            await page.waitForSelector(`[data-testid=tab-${tab}][aria-current=page]`);
            await page.waitForFunction(() => !document.querySelector('[role=status].muted'));
            expect(await seriousViolations(page), `${tab} at ${width}`).toEqual([]);
          }
        } finally {
          await context.close();
        }
      }
    },
  );
});
