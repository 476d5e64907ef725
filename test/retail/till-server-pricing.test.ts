/**
 * The till and the server price a sale alike. 1,000 random carts over a random
 * catalogue are each priced by the till's own code (its catalogue items built
 * from what it pulled through `sync.pull`, `toCartInput`, core's `priceCart`)
 * and sent as the till's `order.create` payload (`toOrderPayload`) through its
 * own transport's `sync.push` to a real server, which prices them again from
 * its catalogue in `createOrder`. The orders it recorded, read back over HTTP,
 * must agree with the till to the shilling: total, tax total, order discount,
 * and every line's total and tax.
 *
 * The carts are drawn with fast-check's `fc.sample` from a seed (random, or
 * `PRICING_SEED`), not `fc.assert`, so that they travel in pushes of 100
 * commands, several at once, instead of one request per cart; a disagreement
 * names the seed and the cart, and no shrinking is done.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSource } from 'eventsource';
import {
  commandPayloads,
  PULL_PAGE_MAX,
  PUSH_BATCH_MAX,
  newId,
  priceCart,
  type Command,
  type Discount,
  type PricedCart,
  type PullCollection,
  type PullDocument,
} from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import type { CartLine, CatalogueItem } from '../../apps/desktop/src/renderer/data/api.ts';
import { catalogueItem } from '../../apps/desktop/src/renderer/data/catalogue/catalogue-item.ts';
import {
  toCartInput,
  toOrderPayload,
  type StoredCart,
} from '../../apps/desktop/src/renderer/data/cart/order-mapping.ts';
import { trpcTransport, type SyncTransport } from '../../apps/desktop/src/renderer/data/sync/transport.ts';
import { withMerchant } from '../support/merchant.ts';
import type { Api } from '../support/retail.ts';
import { makeEmployee, makeTill, pullUntil } from '../support/tills.ts';

const CARTS = 1_000;
const PRODUCTS = 160;
/** Pushes in flight at once: 20 carts each would be 50 pushes; 100 each keeps the requests few. */
const PARALLEL_PUSHES = 4;
const seed = Number(process.env.PRICING_SEED ?? Date.now() % 2_147_483_647);

let server: RunningServer;
let api: Api;

/** A till as the desktop app runs it: paired with a code, then talking only through its transport. */
interface Till {
  transport: SyncTransport;
  store: PullDocument<'stores'>;
  id: string;
  name: string;
  receiptPrefix: string;
  items: CatalogueItem[];
}
const tills: Till[] = [];
let cashier: { id: string; name: string };

const productBody = fc.record({
  price: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 2_000_000 })),
  tax_rate: fc.constantFrom('standard', 'zero_rated', 'exempt' as const),
  unit: fc.constantFrom('piece', 'kg' as const),
  track_stock: fc.boolean(),
  variants: fc.oneof(
    { weight: 3, arbitrary: fc.constant<Array<number | undefined>>([]) },
    {
      weight: 1,
      arbitrary: fc.array(fc.option(fc.integer({ min: 0, max: 2_000_000 }), { nil: undefined }), {
        minLength: 1,
        maxLength: 3,
      }),
    },
  ),
});

/** Every document of `collection` the till pulls, once `done` holds of them (the feed may hold some back a moment). */
const pullAll = <C extends PullCollection>(
  transport: SyncTransport,
  collection: C,
  done: (documents: PullDocument<C>[]) => boolean,
) =>
  pullUntil<PullDocument<C>>(
    (checkpoint) => transport.pull({ collection, checkpoint, limit: PULL_PAGE_MAX }),
    done,
  );

/** How many products and variants the catalogue was made with. */
const made = { products: 0, variants: 0 };

/** What the till offers for sale, as its search builds it: every active product, and every active variant. */
async function tillCatalogue(transport: SyncTransport): Promise<CatalogueItem[]> {
  const products = await pullAll(transport, 'products', (docs) => docs.length >= made.products);
  const variants = await pullAll(transport, 'variants', (docs) => docs.length >= made.variants);
  const byId = new Map(products.map((product) => [product.id, product]));
  return [
    ...products.filter((product) => product.active).map((product) => catalogueItem(product, null, null)),
    ...variants.flatMap((variant) => {
      const product = byId.get(variant.product);
      return product?.active && variant.active ? [catalogueItem(product, variant, null)] : [];
    }),
  ];
}

async function pairedTill(store: string): Promise<Till> {
  const created = await makeTill(api, { store });
  let credential: string | null = null;
  const transport = trpcTransport({ serverUrl: server.url, credential: () => credential, EventSource });
  const paired = await transport.pair({ code: created.pairing_code });
  credential = paired.credential;
  const stores = await pullAll(transport, 'stores', (docs) =>
    docs.some((doc) => doc.id === paired.till.store),
  );
  return {
    transport,
    store: stores.find((doc) => doc.id === paired.till.store)!,
    id: paired.till.id,
    name: paired.till.name,
    receiptPrefix: paired.till.receipt_prefix,
    items: await tillCatalogue(transport),
  };
}

beforeAll(async () => {
  ({ server, api } = await withMerchant({ business_name: 'Duka la Bei' }));
  const mainland = await api.post('/v1/retail/stores', { name: 'Kariakoo', vat_region: 'mainland' });
  const zanzibar = await api.post('/v1/retail/stores', { name: 'Stone Town', vat_region: 'zanzibar' });
  expect([mainland.status, zanzibar.status]).toEqual([201, 201]);
  cashier = await makeEmployee(api, [mainland.body.id, zanzibar.body.id]);

  const bodies = fc.sample(productBody, { numRuns: PRODUCTS, seed });
  for (let start = 0; start < bodies.length; start += 10) {
    const created = await Promise.all(
      bodies.slice(start, start + 10).map((body, offset) =>
        api.post('/v1/retail/products', {
          ...body,
          name: `Bidhaa ${start + offset}`,
          variants: body.variants.map((price, n) => ({
            name: `Aina ${n}`,
            ...(price === undefined ? {} : { price }),
          })),
        }),
      ),
    );
    for (const response of created) expect(response.status, JSON.stringify(response.body)).toBe(201);
  }
  made.products = bodies.length;
  made.variants = bodies.reduce((sum, body) => sum + body.variants.length, 0);
  tills.push(await pairedTill(mainland.body.id), await pairedTill(zanzibar.body.id));
}, 60_000);
afterAll(() => server?.close());

/** A discount a cashier could give on `base`: a percentage, or an amount no larger than it. */
const discountUpTo = (base: number) =>
  fc.oneof(
    fc.integer({ min: 0, max: 10_000 }).map((basisPoints): Discount => ({ type: 'percent', basisPoints })),
    fc.integer({ min: 0, max: base }).map((amount): Discount => ({ type: 'amount', amount })),
  );

const cartLine = (items: CatalogueItem[]) =>
  fc.constantFrom(...items).chain((item) =>
    fc
      .record({
        // Pieces are whole; weights in thousandths of a kilo, from 1 g to 60 kg.
        quantity:
          item.unit === 'piece'
            ? fc.integer({ min: 1, max: 40 }).map((q) => q * 1000)
            : fc.integer({ min: 1, max: 60_000 }),
        override: fc.oneof(
          { weight: 5, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: fc.integer({ min: 0, max: 2_000_000 }) },
        ),
        discounted: fc.boolean(),
      })
      .chain(({ quantity, override, discounted }) => {
        const gross = Math.round(((override ?? item.price) * quantity) / 1000);
        return (discounted ? discountUpTo(gross) : fc.constant(null)).map((discount): CartLine => ({
          key: crypto.randomUUID(),
          item,
          quantityMilli: quantity,
          discount,
          priceOverride: override === null ? null : { unitPrice: override, reason: 'bei ya jumla' },
        }));
      }),
  );

/** A cart of one of the tills; the same item may sit on several lines, as the till allows. */
const tillCart = fc.nat({ max: 1 }).chain((tillIndex) =>
  fc.array(cartLine(tills[tillIndex]!.items), { minLength: 1, maxLength: 10 }).chain((lines) => {
    const plain: StoredCart = {
      saleId: null,
      lines,
      orderDiscount: null,
      customer: null,
      discountApprovedBy: null,
    };
    const subtotal = priceCart(toCartInput(plain, tills[tillIndex]!.store)).subtotal;
    return fc
      .option(discountUpTo(subtotal), { nil: null })
      .map((orderDiscount) => ({ tillIndex, cart: { ...plain, orderDiscount } }));
  }),
);

interface Sale {
  index: number;
  tillIndex: number;
  cart: StoredCart;
  priced: PricedCart;
  command: Command;
}

const commandId = () => `cmd_${newId('request').slice(-26).toUpperCase()}`;

interface RecordedOrder {
  client_order_id: string;
  total: number;
  tax_total: number;
  order_discount: number;
  lines: Array<{ total: number; tax: number }>;
}

async function recordedOrders(): Promise<Map<string, RecordedOrder>> {
  const found = new Map<string, RecordedOrder>();
  let after: string | undefined;
  for (;;) {
    const page = await api.get(`/v1/orders?limit=100${after ? `&starting_after=${after}` : ''}`);
    expect(page.status).toBe(200);
    for (const order of page.body.data) found.set(order.client_order_id, order);
    if (!page.body.has_more) return found;
    after = page.body.data.at(-1).id;
  }
}

describe('a till’s sale priced by the till and by the server', () => {
  it(`agrees to the shilling on total, tax and every line, for ${CARTS} random carts`, async () => {
    const soldAt = Math.floor(Date.now() / 1000);
    const sequence = [0, 0];
    const sales = fc.sample(tillCart, { numRuns: CARTS, seed }).map(({ tillIndex, cart }, index): Sale => {
      const till = tills[tillIndex]!;
      const priced = priceCart(toCartInput(cart, till.store));
      const receipt = ++sequence[tillIndex]!;
      const payload = toOrderPayload(cart, {
        clientOrderId: `sale-${seed}-${index}`,
        store: till.store.id,
        till: { id: till.id, name: till.name },
        cashier: { id: cashier.id, name: cashier.name },
        receiptNumber: `${till.receiptPrefix}-${String(receipt).padStart(6, '0')}`,
        currency: till.store.currency,
        soldAt,
        tenders: priced.total > 0 ? [{ method: 'cash', amount: priced.total }] : [],
      });
      // The till checks its payload with the server's schema before queueing it.
      expect(commandPayloads['order.create'].safeParse(payload).success, `seed ${seed}, cart ${index}`).toBe(
        true,
      );
      return {
        index,
        tillIndex,
        cart,
        priced,
        command: { id: commandId(), type: 'order.create', created_at: Date.now(), payload },
      };
    });

    // The draw holds every kind of cart the issue names: a generator that stopped making one would pass vacuously.
    const lines = sales.flatMap((sale) => sale.cart.lines);
    const drawn = {
      zanzibar: sales.some((sale) => sale.tillIndex === 1),
      orderDiscount: sales.some((sale) => sale.cart.orderDiscount !== null),
      weighed: lines.some((line) => line.item.unit === 'kg' && line.quantityMilli % 1000 !== 0),
      variant: lines.some((line) => line.item.variantId !== null),
      zeroRated: lines.some((line) => line.item.taxClass === 'zero_rated'),
      exempt: lines.some((line) => line.item.taxClass === 'exempt'),
      percentOff: lines.some((line) => line.discount?.type === 'percent'),
      amountOff: lines.some((line) => line.discount?.type === 'amount'),
      priceOverride: lines.some((line) => line.priceOverride !== null),
    };
    expect(Object.entries(drawn).filter(([, seen]) => !seen)).toEqual([]);

    // Each till pushes its own sales in batches of 100; the batches go a few at a time.
    const batches = [0, 1].flatMap((tillIndex) => {
      const own = sales.filter((sale) => sale.tillIndex === tillIndex);
      return Array.from({ length: Math.ceil(own.length / PUSH_BATCH_MAX) }, (_, n) => ({
        till: tills[tillIndex]!,
        sales: own.slice(n * PUSH_BATCH_MAX, (n + 1) * PUSH_BATCH_MAX),
      }));
    });
    for (let start = 0; start < batches.length; start += PARALLEL_PUSHES) {
      await Promise.all(
        batches.slice(start, start + PARALLEL_PUSHES).map(async (batch) => {
          // A push answers the commands it got through, in order, and stops at a transient failure
          // (a lock wait past the statement timeout on a busy host); the till pushes the rest again.
          let left = batch.sales.map((sale) => sale.command);
          for (let round = 0; round < 5 && left.length > 0; round++) {
            const pushed = await batch.till.transport.push({ commands: left });
            const refused = pushed.results.filter((result) => result.status !== 'applied');
            expect(refused, `seed ${seed}`).toEqual([]);
            expect(pushed.results.map((result) => result.id)).toEqual(
              left.slice(0, pushed.results.length).map((command) => command.id),
            );
            left = left.slice(pushed.results.length);
          }
          expect(left, `seed ${seed}: commands never applied`).toEqual([]);
        }),
      );
    }

    const orders = await recordedOrders();
    for (const sale of sales) {
      const order = orders.get(`sale-${seed}-${sale.index}`);
      const till = {
        total: sale.priced.total,
        tax_total: sale.priced.taxTotal,
        order_discount: sale.priced.orderDiscount,
        lines: sale.priced.lines.map((line) => ({ total: line.total, tax: line.tax })),
      };
      const recorded = order && {
        total: order.total,
        tax_total: order.tax_total,
        order_discount: order.order_discount,
        lines: order.lines.map((line) => ({ total: line.total, tax: line.tax })),
      };
      expect(recorded, `seed ${seed}, cart ${sale.index}: ${JSON.stringify(sale.command.payload)}`).toEqual(
        till,
      );
    }
    expect(orders.size).toBe(CARTS);
  }, 120_000);
});
