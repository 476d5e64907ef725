import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { withMerchant } from '../support/merchant.ts';
import { makeProduct, uniqueCode, type Api } from '../support/retail.ts';
import { catalogueCsv } from '../support/catalogue-csv.ts';

let server: RunningServer;
let api: Api;
let merchantId: string;

beforeAll(async () => {
  const setup = await withMerchant({ business_name: 'Duka la Bidhaa Nyingi' });
  ({ server, api } = setup);
  merchantId = setup.merchant.id;
});
afterAll(() => server?.close());

const count = async (sql: string) =>
  Number((await server.database.pool.query(sql, [merchantId])).rows[0].count);
const productCount = () =>
  count(
    `SELECT count(*) FROM retail_products WHERE merchant_id = $1 AND NOT livemode AND deleted_at IS NULL`,
  );
const variantCount = () =>
  count(
    `SELECT count(*) FROM retail_variants WHERE merchant_id = $1 AND NOT livemode AND deleted_at IS NULL`,
  );
const eventCount = () =>
  count(`SELECT count(*) FROM events WHERE merchant_id = $1 AND type LIKE 'product.%'`);

const importCsv = (csv: string) => api.post('/v1/retail/products/import', { csv });

describe('catalogue CSV', () => {
  it('imports 2,000 products from a spreadsheet file, once, and a second import changes nothing', async () => {
    const before = await productCount();
    const prefix = uniqueCode('BULK');
    const csv = catalogueCsv({ products: 2_000, prefix });
    const first = await importCsv(csv);
    expect(first.status, JSON.stringify(first.body).slice(0, 500)).toBe(200);
    expect(first.body).toMatchObject({
      object: 'product_import',
      rows: 2_400,
      created: 2_000,
      updated: 0,
      unchanged: 0,
      categories_created: 5,
    });
    expect(await productCount()).toBe(before + 2_000);
    const events = await eventCount();
    const variants = await variantCount();

    const again = await importCsv(csv);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 2_000, categories_created: 0 });
    expect(await productCount()).toBe(before + 2_000);
    expect(await variantCount()).toBe(variants);
    expect(await eventCount()).toBe(events);

    const soda = await api.get(`/v1/products?q=${encodeURIComponent(`${prefix}-7`)}`);
    expect(soda.body.data[0]).toMatchObject({ name: 'Soda "Baridi", 7 ml', price: 1_400, cost: 1_120 });
  });

  it('updates a product matched by SKU or barcode, and archives one marked archived', async () => {
    const sku = uniqueCode('UPD-');
    const barcode = uniqueCode('620');
    const bySku = await makeProduct(api, { name: 'Chai', sku, barcodes: [], price: 500 });
    const byBarcode = await makeProduct(api, {
      name: 'Maji',
      sku: undefined,
      barcodes: [barcode],
      price: 700,
    });
    const gone = await makeProduct(api, { name: 'Kahawa', price: 900 });
    const answer = await importCsv(
      'name;sku;barcodes;price;category;archived\r\n' +
        `Chai ya Tangawizi;${sku};;"1.500";Vinywaji;no\r\n` +
        `Maji Makubwa;;${barcode};1 000;;no\r\n` +
        `Kahawa;${gone.sku};;900;;yes\r\n`,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ created: 0, updated: 2, archived: 1 });
    expect((await api.get(`/v1/products/${bySku.id}`)).body).toMatchObject({
      name: 'Chai ya Tangawizi',
      price: 1_500,
    });
    expect((await api.get(`/v1/products/${byBarcode.id}`)).body).toMatchObject({
      name: 'Maji Makubwa',
      price: 1_000,
    });
    expect((await api.get(`/v1/products/${gone.id}`)).body.deleted).toBe(true);
  });

  it('refuses a file with problems, naming every row and column, and imports nothing', async () => {
    const taken = await makeProduct(api, { variants: [{ name: 'Kubwa', sku: uniqueCode('TAKEN-') }] });
    const before = await productCount();
    const prefix = uniqueCode('BAD');
    const answer = await importCsv(
      'name,sku,barcodes,price,unit\n' +
        `Sawa,${prefix}-1,,1000,piece\n` + // row 2: fine
        `,${prefix}-2,,1000,piece\n` + // row 3: no name
        `Chumvi,${prefix}-3,,12.5,box\n` + // row 4: price and unit
        `Pilipili,${taken.variants[0].sku},,300,piece\n` + // row 5: a SKU another product's variant has
        `Tena,${prefix}-1,,300,piece\n` + // row 6: repeats row 2's SKU
        `Ajabu,${prefix}-6,6.20123E+12,300,kg\n`, // row 7: Excel ate the barcode
    );
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('parameter_invalid');
    expect(answer.body.details).toEqual({
      'rows.3.name': 'is required',
      'rows.4.price': expect.stringMatching(/whole amount/),
      'rows.4.unit': 'must be piece, kg, litre or metre',
      'rows.6.sku': 'repeats row 2',
      'rows.7.barcodes': expect.stringMatching(/turned into a number/),
    });
    // The SKU another product holds is found once the file itself reads well.
    const second = await importCsv(
      `name,sku,price\nSawa,${prefix}-1,1000\nPilipili,${taken.variants[0].sku},300\n`,
    );
    expect(second.status).toBe(400);
    expect(second.body.details).toEqual({ 'rows.3.sku': 'is already used by another product or variant' });
    expect(await productCount()).toBe(before);
  });

  it('exports the catalogue, and importing the export changes nothing', async () => {
    const csv = catalogueCsv({ products: 30, prefix: uniqueCode('RT') });
    expect((await importCsv(csv)).status).toBe(200);
    const exported = await api.get('/v1/retail/products/export');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = exported.body as string;
    expect(text.startsWith('name,variant,sku,barcodes,price,cost,category')).toBe(true);
    expect(text).toContain('"Soda ""Baridi"", 7 ml"');
    const events = await eventCount();
    const back = await importCsv(text);
    expect(back.status, JSON.stringify(back.body).slice(0, 500)).toBe(200);
    expect(back.body).toMatchObject({ created: 0, updated: 0, archived: 0 });
    expect(await eventCount()).toBe(events);
    expect((await api.get('/v1/retail/products/export')).body).toBe(text);
  });

  it('answers garbage with 400s, never a 500', async () => {
    for (const body of [
      {},
      { csv: '' },
      { csv: 42 },
      { csv: '"never closed' },
      { csv: 'just,a,header\n' },
      { csv: '\u0000\u0001\u0002' },
      { csv: 'name,price\n' + 'x,1\n'.repeat(3) + '"a'.repeat(1000) },
    ]) {
      const answer = await api.post('/v1/retail/products/import', body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.error).toBe('invalid_request_error');
    }
    const notJson = await api.post('/v1/retail/products/import', 'name,price\nx,1\n', {
      'Content-Type': 'text/csv',
    });
    expect(notJson.status).toBe(400);
  });
});
