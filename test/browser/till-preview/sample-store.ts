/**
 * A `TillStore` over sample state in memory, for looking at the till's screens
 * before (and apart from) the data layer and a server: screenshots and layout
 * checks only. Carts are priced by core's `priceCart`, as the real store does.
 * Never shipped: only the preview page under test/browser/till-preview uses it.
 */
import { BehaviorSubject, distinctUntilChanged, of, timer, map, takeWhile, type Observable } from 'rxjs';
import {
  itemCount,
  normalizeTanzanianMobile,
  priceCart,
  roomChargeRefusal,
  type Discount,
  type PullDocument,
  type ReceiptDocument,
  type TillPayment,
} from '@tz/core';
import type {
  Cart,
  CartLine,
  Cashier,
  CatalogueItem,
  CompletedSale,
  FirstSync,
  PairingState,
  ParkedCart,
  PrintJobView,
  PrintState,
  Sale,
  Shift,
  SyncStatus,
  TenderEntry,
  TileShelf,
  TillExportDownload,
  TillSettings,
  TillStore,
  ZReport,
} from '../../../apps/desktop/src/renderer/data/api.ts';
import { sampleDesk } from './sample-desk.ts';
import { sampleDoor, type SampleDoor } from './sample-door.ts';
import {
  filterDay,
  matchSale,
  parseSalesSearch,
  soldOn,
} from '../../../apps/desktop/src/renderer/data/after-sale/sales-search.ts';

const NOW = Date.UTC(2026, 10, 26, 7, 42);
const item = (name: string, price: number, extra: Partial<CatalogueItem> = {}): CatalogueItem => ({
  productId: `prod_${name.replace(/\W/g, '').toLowerCase()}`,
  variantId: null,
  name,
  sku: extra.sku ?? `SKU-${name.slice(0, 3).toUpperCase()}`,
  barcodes: extra.barcodes ?? [],
  price,
  currency: 'TZS',
  unit: 'piece',
  taxClass: 'standard',
  category: null,
  trackStock: true,
  onHandMilli: 24_000,
  ...extra,
});

const FOOD = 'cat_food';
const DRINKS = 'cat_drinks';
const CLEANING = 'cat_cleaning';
const AIRTIME = 'cat_airtime';

export const CATALOGUE: CatalogueItem[] = [
  item('Sukari Kilombero 1kg', 3_200, { barcodes: ['6201234567890'], category: FOOD }),
  item('Mchele Mbeya (kg)', 2_800, { unit: 'kg', onHandMilli: 182_500, sku: 'MCH-MBY', category: FOOD }),
  item('Unga wa Sembe Azam 2kg', 4_500, { barcodes: ['6009801234567'], category: FOOD }),
  item('Mafuta ya Kupikia Korie 3L', 16_500, { category: FOOD }),
  item('Maziwa Tanga Fresh 500ml', 1_500, {
    barcodes: ['6203000000017'],
    onHandMilli: 3_000,
    category: DRINKS,
  }),
  item('Chai Bora 100g', 2_300, { category: DRINKS }),
  item('Sabuni ya Kufulia Omo 1kg', 6_800, { taxClass: 'standard', category: CLEANING }),
  item('Maji Kilimanjaro 1.5L', 1_000, { barcodes: ['6201111000013'], category: DRINKS }),
  item('Mkate wa Kawaida Azam', 2_000, { taxClass: 'exempt', category: FOOD }),
  item('Soda Coca-Cola 500ml', 1_200, { category: DRINKS }),
  item('Sukari Guru 500g', 1_700, { category: FOOD }),
  item('Sukari Brown Kagera 2kg', 6_000, { category: FOOD }),
  // Loose goods and airtime: sold from the tiles, no barcode.
  ...[
    'Maharage',
    'Dengu',
    'Njegere',
    'Karanga',
    'Mtama',
    'Ulezi',
    'Choroko',
    'Kunde',
    'Ngano',
    'Mahindi',
  ].map((name, index) =>
    item(`${name} (kg)`, 2_400 + index * 200, { unit: 'kg', category: FOOD, trackStock: false }),
  ),
  ...['Maandazi', 'Chapati', 'Sambusa', 'Vitumbua', 'Kashata', 'Half cake'].map((name, index) =>
    item(name, 200 + index * 100, { category: FOOD, trackStock: false, taxClass: 'exempt' }),
  ),
  ...['Vodacom', 'Airtel', 'Yas', 'Halotel'].flatMap((network) =>
    [1_000, 2_000, 5_000].map((price) =>
      item(`Vocha ${network} ${price.toLocaleString('en')}`, price, {
        category: AIRTIME,
        trackStock: false,
        taxClass: 'exempt',
      }),
    ),
  ),
];

/** The tiles: Favourites, then each category by name. */
export const SHELVES: TileShelf[] = [
  {
    key: 'favourites',
    name: null,
    items: [
      'Mkate wa Kawaida',
      'Maandazi',
      'Sukari Kilombero',
      'Maji Kilimanjaro',
      'Vocha Vodacom 1,000',
    ].map((name) => CATALOGUE.find((one) => one.name.startsWith(name))!),
  },
  ...[
    { key: FOOD, name: 'Chakula' },
    { key: AIRTIME, name: 'Muda wa maongezi' },
    { key: CLEANING, name: 'Usafi' },
    { key: DRINKS, name: 'Vinywaji' },
  ].map((shelf) => ({
    ...shelf,
    items: CATALOGUE.filter((one) => one.category === shelf.key).sort((a, b) => a.name.localeCompare(b.name)),
  })),
];

/** Where the sample sales' receipt pages live. */
export const RECEIPT_BASE = 'https://pay.example.co.tz/receipt';

const customers: Array<PullDocument<'customers'> & { unsynced?: boolean }> = [
  { id: 'cus_1', _deleted: false, name: 'Asha Mohamed', phone: '255754000111', email: null },
  { id: 'cus_2', _deleted: false, name: 'Juma Kassim', phone: '255713222333', email: 'juma@example.tz' },
];

const store: PullDocument<'stores'> = {
  id: 'store_1',
  _deleted: false,
  name: 'Duka la Mama — Kariakoo',
  address_lines: ['Mtaa wa Msimbazi 12', 'Dar es Salaam'],
  phone: '255222000000',
  tin: '123-456-789',
  vrn: null,
  vat_region: 'mainland',
  currency: 'TZS',
  receipt_header: [],
  receipt_footer: ['Asante kwa kununua!'],
  receipt_language: 'sw',
};

const till = {
  id: 'till_1',
  name: 'Kaunta 1',
  store: 'store_1',
  receiptPrefix: 'T01',
  merchant: { id: 'mer_1', businessName: 'Duka la Mama' },
  livemode: true,
};

function refusal(code: string, message: string, details: Record<string, string | number> = {}): Error {
  return Object.assign(new Error(message), { name: 'TillRefusal', code, details });
}

export interface SampleControls {
  setPairing(state: PairingState['status']): void;
  setCashier(signedIn: boolean): void;
  setShift(open: boolean): void;
  setSync(patch: Partial<SyncStatus>): void;
  fillCart(): void;
  addSales(count: number, status: Sale['status']): void;
  /** Sales over the last few days, some refunded in part or in full, one voided; 7,800 twice. */
  addHistory(): void;
  /** The client order ids reprinted from the Sales list, in order. */
  reprinted(): string[];
  /** The tenders of each sale completed, in order. */
  tendered(): TenderEntry[][];
  setPrint(state: PrintState): void;
  setFirstSync(patch: Partial<FirstSync>): void;
  /** The tiles' shelves; none, as a store that sells by barcode only. */
  setTiles(shelves: 'sample' | 'none'): void;
  setSettings(patch: Partial<TillSettings>): void;
  /** Customer searches wait (a slow till) until `false` answers them all. */
  holdCustomerSearches(held: boolean): void;
  /** The hospitality app's property pulled: the front desk shows. */
  setDesk(shown: boolean): void;
  /** The next check-in comes back refused (`room_unavailable`), a conflict on the desk. */
  refuseNextCheckIn(): void;
  /** Another desk's step refused over a room this desk's guest holds, as the server records it. */
  clashElsewhere(): void;
  /** The front desk's steps queued, in order. */
  deskSteps(): Array<{ type: string; payload: Record<string, unknown> }>;
  /** The last sale, charged to a room, comes back refused: the guest checked out on another desk. */
  refuseRoomCharge(): void;
  /** A ticketed event (or two) pulled: the door shows. */
  setDoor(shown: SampleDoor): Promise<void>;
  /** The door's ticket codes by holder, and one of an event it does not hold. */
  doorCodes(): { tickets: Array<{ holder: string; code: string }>; foreign: string };
}

/** Answers now, or, while held, when let go: a slow store's answers, in order. */
function holdable() {
  let held = false;
  const waiting: Array<() => void> = [];
  return {
    answer<T>(value: () => T): Promise<T> {
      if (!held) return Promise.resolve(value());
      return new Promise((resolve) => waiting.push(() => resolve(value())));
    },
    hold(on: boolean) {
      held = on;
      if (!on) for (const release of waiting.splice(0)) release();
    },
  };
}

export function sampleStore(): { store: TillStore; controls: SampleControls } {
  const customerSearches = holdable();
  const pairing$ = new BehaviorSubject<PairingState>({ status: 'unpaired' });
  const cashier$ = new BehaviorSubject<Cashier | null>(null);
  const firstSync$ = new BehaviorSubject<FirstSync>({ store: true, cashiers: 2, catalogue: true });
  const shift$ = new BehaviorSubject<Shift | null>(null);
  const settings$ = new BehaviorSubject<TillSettings>({
    managerDiscountAboveBasisPoints: 1000,
    receiptPrinter: null,
    noSaleNeedsManager: false,
    tilesShown: true,
  });
  const emptyCart = (): Cart => ({
    lines: [],
    orderDiscount: null,
    customer: null,
    priced: priceCart({ currency: 'TZS', lines: [] }),
  });
  const cart$ = new BehaviorSubject<Cart>(emptyCart());
  const parked$ = new BehaviorSubject<ParkedCart[]>([]);
  const tiles$ = new BehaviorSubject<TileShelf[]>(SHELVES);
  const parkedCarts = new Map<string, Cart>();
  const sales$ = new BehaviorSubject<Sale[]>([]);
  const lastPrint$ = new BehaviorSubject<PrintState>({ status: 'idle' });
  const sync$ = new BehaviorSubject<SyncStatus>({
    connection: 'online',
    unsynced: 0,
    lastSyncAt: NOW - 60_000,
    refused: [],
    revoked: false,
    leader: true,
    lastError: null,
  });
  let lineCounter = 0;
  let receiptCounter = 120;
  const reprinted: string[] = [];
  const tendered: TenderEntry[][] = [];

  const reprice = (lines: CartLine[], orderDiscount: Discount | null, customer: Cart['customer']) => {
    const priced = priceCart({
      currency: 'TZS',
      vatRegion: 'mainland',
      lines: lines.map((line) => ({
        productId: line.item.productId as never,
        description: line.item.name,
        unitPrice: line.item.price,
        unit: line.item.unit,
        quantityMilli: line.quantityMilli,
        taxClass: line.item.taxClass,
        discount: line.discount ?? undefined,
        priceOverride: line.priceOverride ?? undefined,
      })),
      orderDiscount: orderDiscount ?? undefined,
    });
    cart$.next({ lines, orderDiscount, customer, priced });
  };
  const editLines = (edit: (lines: CartLine[]) => CartLine[]) => {
    const cart = cart$.value;
    reprice(edit([...cart.lines]), cart.orderDiscount, cart.customer);
    return Promise.resolve();
  };
  const receipt = (number: string, total: number): ReceiptDocument =>
    ({
      receiptNumber: number,
      store: { name: store.name, addressLines: store.address_lines, headerLines: [] },
      total,
      tenders: [],
      lines: [
        {
          description: 'Sukari Kilombero 1kg',
          quantityText: '2',
          quantityMilli: 2000,
          unitPrice: 3200,
          total: 6400,
        },
        {
          description: 'Mchele Mbeya (kg)',
          quantityText: '0.500 kg',
          quantityMilli: 500,
          unitPrice: 2800,
          total: 1400,
        },
      ],
    }) as unknown as ReceiptDocument;
  /** A fuller receipt: a discounted line, an order discount, a split tender. */
  const fullReceipt = (sale: Sale): Sale => {
    const plain = receipt(sale.receiptNumber, sale.total);
    return {
      ...sale,
      receipt: {
        ...plain,
        currency: 'TZS',
        subtotal: sale.total + 500,
        orderDiscount: { label: 'Punguzo', amount: 500 },
        taxLines: [],
        tenders: [
          { label: 'Taslimu', amount: sale.total - 2_000 },
          { label: 'M-Pesa', amount: 2_000, reference: 'QK7P2M' },
        ],
        change: 0,
        lines: [
          ...plain.lines,
          {
            description: 'Mafuta ya Kupikia Korie 3L',
            quantityText: '1',
            quantityMilli: 1000,
            unitPrice: sale.total - 7_300 + 825,
            total: sale.total - 7_300,
            discount: { label: 'Punguzo 5%', amount: 825 },
          },
        ],
      },
    };
  };
  const makeSale = (total: number, status: Sale['status'], at: number): Sale => {
    const number = `T01-${String(++receiptCounter).padStart(6, '0')}`;
    return {
      commandId: `cmd_${receiptCounter}`,
      clientOrderId: `cli_${receiptCounter}`,
      receiptNumber: number,
      total,
      currency: 'TZS',
      cashier: 'emp_neema',
      cashierName: 'Neema',
      soldAt: at,
      status,
      refusal:
        status === 'refused'
          ? { code: 'product_not_found', message: 'A product on this sale was deleted.' }
          : null,
      order: status === 'applied' ? `ord_${receiptCounter}` : null,
      flags: [],
      refundedAmount: 0,
      voided: false,
      receipt: receipt(number, total),
    };
  };
  const search = (text: string, limit = 50) => {
    const needle = text.toLowerCase();
    return Promise.resolve(
      CATALOGUE.filter(
        (one) =>
          one.name.toLowerCase().includes(needle) ||
          one.sku?.toLowerCase().startsWith(needle) ||
          one.barcodes.some((code) => code.startsWith(text)),
      ).slice(0, limit),
    );
  };

  const lastExport$ = new BehaviorSubject<TillExportDownload | null>(null);
  const deskShown$ = new BehaviorSubject(false);
  const { refuseNext, clashElsewhere, deskSteps, ...desk } = sampleDesk(NOW, deskShown$);
  const { setDoor, doorCodes, ...door } = sampleDoor(NOW, (total) => makeSale(total, 'pending', NOW));
  const tillStore: TillStore = {
    ...desk,
    ...door,
    pairing$,
    exportUnsynced: () => {
      const file = {
        filename: 'till_sample-unsynced-20261126-0742.json',
        text: '{}',
        count: sync$.value.unsynced,
      };
      lastExport$.next(file);
      sync$.next({ ...sync$.value, unsynced: 0 });
      return Promise.resolve(file);
    },
    exportRefused: () =>
      Promise.resolve({
        filename: 'till_sample-refused-20261126-0742.json',
        text: '{}',
        count: sync$.value.refused.length,
      }),
    abandonUnsynced: (pin) => {
      if (pin !== '9999') return Promise.reject(refusal('manager_pin_wrong', 'wrong'));
      const count = sync$.value.unsynced;
      sync$.next({ ...sync$.value, unsynced: 0 });
      return Promise.resolve(count);
    },
    lastExport$,
    pair: (code) => {
      if (code.length < 6) return Promise.reject(refusal('pairing_failed', 'bad code'));
      pairing$.next({ status: 'paired', till });
      return Promise.resolve(till);
    },
    unpair: () =>
      sync$.value.unsynced > 0
        ? Promise.reject(refusal('unsynced_commands', 'unsynced', { count: sync$.value.unsynced }))
        : Promise.resolve(pairing$.next({ status: 'unpaired' })),
    cashier$,
    firstSync$,
    signIn: (pin) => {
      if (pin === '0000') return Promise.reject(refusal('pin_locked', 'locked', { until: NOW + 5 * 60_000 }));
      if (pin !== '1234') return Promise.reject(refusal('pin_wrong', 'wrong'));
      const cashier: Cashier = { id: 'emp_1', name: 'Neema', role: 'cashier', signedInAt: NOW };
      cashier$.next(cashier);
      return Promise.resolve(cashier);
    },
    signOut: () =>
      sync$.value.unsynced > 0
        ? Promise.reject(refusal('unsynced_commands', 'unsynced', { count: sync$.value.unsynced }))
        : Promise.resolve(cashier$.next(null)),
    store$: of(store),
    settings$,
    updateSettings: (patch) => Promise.resolve(settings$.next({ ...settings$.value, ...patch })),
    search,
    findByBarcode: (code) => Promise.resolve(CATALOGUE.find((one) => one.barcodes.includes(code)) ?? null),
    hasBarcode: (code) => CATALOGUE.some((one) => one.barcodes.includes(code)),
    // The sample catalogue has no products with variants.
    variantsOf: () => Promise.resolve([]),
    searchCustomers: (text) =>
      customerSearches.answer(() =>
        customers.filter((one) => `${one.name} ${one.phone}`.toLowerCase().includes(text.toLowerCase())),
      ),
    createCustomer: ({ name, phone }) => {
      const normal = normalizeTanzanianMobile(phone);
      if (name.trim() === '') return Promise.reject(refusal('customer_name_missing', 'no name'));
      if (normal === null) return Promise.reject(refusal('phone_invalid', 'not a mobile number'));
      const known = customers.find((one) => one.phone === normal);
      if (known) return Promise.resolve({ customer: known, existing: true });
      const customer = {
        id: `cus_${customers.length + 1}`,
        _deleted: false,
        name: name.trim(),
        phone: normal,
        email: null,
        unsynced: true,
      };
      customers.push(customer);
      return Promise.resolve({ customer, existing: false });
    },
    tiles$,
    cart$,
    cartStock$: cart$.pipe(
      map((cart) =>
        Object.fromEntries(
          cart.lines.flatMap(({ item: one }) =>
            one.trackStock && one.onHandMilli !== null
              ? [[`${one.productId}:${one.variantId ?? ''}`, one.onHandMilli]]
              : [],
          ),
        ),
      ),
    ),
    addItem: (added, quantityMilli = 1000) =>
      editLines((lines) => {
        const same = lines.findIndex(
          (line) => line.item.productId === added.productId && added.unit === 'piece',
        );
        const existing = lines[same];
        if (existing) lines[same] = { ...existing, quantityMilli: existing.quantityMilli + quantityMilli };
        else
          lines.push({
            key: `l${++lineCounter}`,
            item: added,
            quantityMilli,
            discount: null,
            priceOverride: null,
          });
        return lines;
      }),
    addBarcode: async (code) => {
      const found = CATALOGUE.find((one) => one.barcodes.includes(code)) ?? null;
      if (!found) return { kind: 'not_found' };
      if (found.unit !== 'piece') return { kind: 'weigh', item: found };
      await tillStore.addItem(found);
      return { kind: 'added', item: found, quantityMilli: 1000 };
    },
    setQuantity: (key, quantityMilli) =>
      editLines((lines) => lines.map((l) => (l.key === key ? { ...l, quantityMilli } : l))),
    removeLine: (key) => editLines((lines) => lines.filter((l) => l.key !== key)),
    setLineDiscount: (key, discount) =>
      editLines((lines) => lines.map((l) => (l.key === key ? { ...l, discount } : l))),
    setPriceOverride: (key, priceOverride) =>
      editLines((lines) => lines.map((l) => (l.key === key ? { ...l, priceOverride } : l))),
    setOrderDiscount: (discount, managerPin) => {
      if (
        discount?.type === 'percent' &&
        discount.basisPoints > settings$.value.managerDiscountAboveBasisPoints
      ) {
        if (!managerPin) return Promise.reject(refusal('manager_pin_required', 'pin'));
        if (managerPin !== '9999') return Promise.reject(refusal('manager_pin_wrong', 'pin'));
      }
      reprice(cart$.value.lines, discount, cart$.value.customer);
      return Promise.resolve();
    },
    setCustomer: (id) => {
      reprice(cart$.value.lines, cart$.value.orderDiscount, customers.find((one) => one.id === id) ?? null);
      return Promise.resolve();
    },
    clearCart: () => Promise.resolve(cart$.next(emptyCart())),
    parked$,
    park: (label) => {
      const cart = cart$.value;
      const id = `park_${parkedCarts.size + 1}`;
      parkedCarts.set(id, cart);
      parked$.next([
        ...parked$.value,
        {
          id,
          parkedAt: NOW,
          cashier: 'Neema',
          label: label ?? cart.lines[0]?.item.name ?? id,
          total: cart.priced.total,
          itemCount: itemCount(cart.priced.lines),
        },
      ]);
      cart$.next(emptyCart());
      return Promise.resolve();
    },
    resume: (id) => {
      const cart = parkedCarts.get(id);
      if (cart) cart$.next(cart);
      parked$.next(parked$.value.filter((one) => one.id !== id));
      return Promise.resolve();
    },
    payCashExact: () => tillStore.completeSale([{ method: 'cash', amount: cart$.value.priced.total }]),
    // Resolves in a later task, as the real store's database write does (not within the key's event).
    completeSale: async (tenders: TenderEntry[]): Promise<CompletedSale> => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const total = cart$.value.priced.total;
      if (total === 0) throw refusal('cart_empty', 'empty');
      const taken = tenders.reduce((sum, one) => sum + one.amount, 0);
      if (taken < total) throw refusal('tender_insufficient', 'short');
      const sale = makeSale(total, 'pending', NOW);
      tendered.push(tenders);
      const phone = cart$.value.customer?.phone ?? null;
      sales$.next([sale, ...sales$.value]);
      sync$.next({ ...sync$.value, unsynced: sync$.value.unsynced + 1 });
      cart$.next(emptyCart());
      lastPrint$.next({ status: 'no_printer', receiptNumber: sale.receiptNumber });
      const digitalReceipt = { url: `${RECEIPT_BASE}/q7Xk2mN9vB4tR8wE1yU6hA`, phone };
      return { sale, change: taken - total, digitalReceipt };
    },
    lastPrint$,
    reprintLast: () => Promise.resolve(sales$.value.length === 0 ? null : { ok: true, paperNearEnd: false }),
    reprintSale: (clientOrderId) => {
      reprinted.push(clientOrderId);
      return Promise.resolve({ ok: true, paperNearEnd: false });
    },
    sales$,
    searchSales: (filter) =>
      sales$.pipe(
        map((all) => {
          const search = parseSalesSearch(filter.text);
          const day = filterDay(filter.day, NOW);
          const newest = [...all].sort((a, b) => b.soldAt - a.soldAt);
          const found = newest.flatMap((sale) => {
            const entry = { id: sale.commandId, ...sale };
            const how = day !== null && !soldOn(entry, day) ? null : matchSale(entry, search);
            return how ? [{ sale, how }] : [];
          });
          const ordered = [
            ...found.filter((one) => one.how === 'receipt'),
            ...found.filter((one) => one.how === 'amount'),
          ].map((one) => one.sale);
          return { sales: ordered.slice(0, 50), count: ordered.length };
        }),
      ),
    refund: () => Promise.resolve(),
    refundQuote: (clientOrderId, lines) => {
      const receipt = sales$.value.find((sale) => sale.clientOrderId === clientOrderId)?.receipt;
      const all = receipt?.lines ?? [];
      const picked = lines ?? all.map((line, at) => ({ line: at, quantityMilli: line.quantityMilli }));
      const amount = picked.reduce((sum, { line, quantityMilli }) => {
        const sold = all[line];
        return sold ? sum + Math.round((sold.total * quantityMilli) / sold.quantityMilli) : sum;
      }, 0);
      return Promise.resolve({
        amount: picked.length > 0 ? amount : null,
        left: all.map((line) => line.quantityMilli),
      });
    },
    voidSale: () => Promise.resolve(),
    startMobileMoney: (request): Promise<Observable<TillPayment>> => {
      if (sync$.value.connection !== 'online') return Promise.reject(refusal('offline', 'offline'));
      const payment = (status: TillPayment['status']): TillPayment => ({
        id: 'pay_1',
        status,
        amount: request.amount,
        currency: 'TZS',
        phone: request.phone,
        failure_code: null,
      });
      return Promise.resolve(
        timer(0, 1500).pipe(
          map((tick) => payment(tick < 2 ? 'pending' : 'paid')),
          takeWhile((one) => one.status === 'pending', true),
        ),
      );
    },
    shiftOpen$: shift$.pipe(
      map((shift) => shift !== null),
      distinctUntilChanged(),
    ),
    shift$,
    openShift: (openingFloat) => {
      const shift: Shift = {
        id: 'shf_1',
        cashier: 'Neema',
        openingFloat,
        openedAt: NOW - 3 * 3_600_000,
        payIns: 0,
        payOuts: 0,
        deskCash: 0,
        expectedCash: openingFloat,
        noSales: 0,
      };
      shift$.next(shift);
      return Promise.resolve(shift);
    },
    cashMovement: (kind, amount) => {
      const shift = shift$.value;
      if (!shift) return Promise.reject(refusal('shift_not_open', 'no shift'));
      const signed = kind === 'pay_in' ? amount : -amount;
      shift$.next({
        ...shift,
        payIns: shift.payIns + (kind === 'pay_in' ? amount : 0),
        payOuts: shift.payOuts + (kind === 'pay_out' ? amount : 0),
        expectedCash: shift.expectedCash + signed,
      });
      return Promise.resolve();
    },
    noSale: ({ reason, managerPin }) => {
      const shift = shift$.value;
      if (!shift) return Promise.reject(refusal('shift_not_open', 'no shift'));
      if (reason.trim() === '') return Promise.reject(refusal('invalid', 'reason'));
      if (settings$.value.noSaleNeedsManager && cashier$.value?.role !== 'manager') {
        if (!managerPin) return Promise.reject(refusal('manager_pin_required', 'pin'));
        if (managerPin !== '9999') return Promise.reject(refusal('manager_pin_wrong', 'pin'));
      }
      shift$.next({ ...shift, noSales: shift.noSales + 1 });
      // The preview has no printer unless a screen says it printed.
      return Promise.resolve(
        lastPrint$.value.status === 'printed'
          ? { drawer: 'opened' as const }
          : { drawer: 'no_printer' as const },
      );
    },
    closeShift: (countedCash): Promise<ZReport> => {
      const shift = shift$.value;
      if (!shift) return Promise.reject(refusal('shift_not_open', 'no shift'));
      if (sync$.value.unsynced > 0)
        return Promise.reject(refusal('unsynced_commands', 'unsynced', { count: sync$.value.unsynced }));
      shift$.next(null);
      return Promise.resolve({
        shift: shift.id,
        cashier: shift.cashier,
        openedAt: shift.openedAt,
        closedAt: NOW,
        currency: 'TZS',
        sales: { count: 42, total: 1_254_300 },
        byMethod: { cash: 912_300, mobile_money: 342_000, card: 0 },
        refunds: { count: 1, total: 3_200 },
        voids: 0,
        openingFloat: shift.openingFloat,
        payIns: shift.payIns,
        payOuts: shift.payOuts,
        deskCash: shift.deskCash,
        expectedCash: shift.expectedCash + 909_100,
        countedCash,
        difference: countedCash - (shift.expectedCash + 909_100),
        noSales: shift.noSales + 3,
        cashiers: [
          { name: shift.cashier, count: 30, sales: 901_300, refunds: 3_200, noSales: shift.noSales + 1 },
          { name: 'Baraka', count: 12, sales: 353_000, refunds: 0, noSales: 2 },
        ],
      });
    },
    sync$,
    syncNow: () => Promise.resolve(),
    printJobs$: of<PrintJobView[]>([]),
    close: () => Promise.resolve(),
  };

  const controls: SampleControls = {
    setPairing: (status) => pairing$.next(status === 'unpaired' ? { status } : { status, till }),
    setCashier: (signedIn) =>
      cashier$.next(signedIn ? { id: 'emp_1', name: 'Neema', role: 'cashier', signedInAt: NOW } : null),
    setShift: (open) => void (open ? tillStore.openShift(50_000) : shift$.next(null)),
    setSync: (patch) => sync$.next({ ...sync$.value, ...patch }),
    fillCart: () => {
      const pick = (name: string) => CATALOGUE.find((one) => one.name.startsWith(name))!;
      const lines: CartLine[] = [
        {
          key: 'a',
          item: pick('Sukari Kilombero'),
          quantityMilli: 2000,
          discount: null,
          priceOverride: null,
        },
        { key: 'b', item: pick('Mchele'), quantityMilli: 2_500, discount: null, priceOverride: null },
        {
          key: 'c',
          item: pick('Mafuta'),
          quantityMilli: 1000,
          discount: { type: 'percent', basisPoints: 500 },
          priceOverride: null,
        },
        { key: 'd', item: pick('Maziwa'), quantityMilli: 4000, discount: null, priceOverride: null },
        { key: 'e', item: pick('Mkate'), quantityMilli: 1000, discount: null, priceOverride: null },
      ];
      reprice(lines, null, customers[0] ?? null);
    },
    addSales: (count, status) => {
      const made = Array.from({ length: count }, (_, index) =>
        makeSale(8_000 + index * 3_150, status, NOW - index * 540_000),
      );
      sales$.next([...made, ...sales$.value]);
    },
    addHistory: () => {
      const hour = 3_600_000;
      const made = [
        makeSale(7_800, 'applied', NOW - 50 * hour),
        makeSale(12_400, 'applied', NOW - 30 * hour),
        { ...makeSale(9_100, 'applied', NOW - 26 * hour), refundedAmount: 9_100 },
        { ...makeSale(7_800, 'applied', NOW - 5 * hour), refundedAmount: 1_400 },
        { ...makeSale(23_650, 'applied', NOW - 3 * hour), voided: true },
        makeSale(15_250, 'refused', NOW - 2 * hour),
        makeSale(8_300, 'pending', NOW - hour),
      ]
        .map(fullReceipt)
        .reverse();
      sales$.next([...made, ...sales$.value]);
    },
    reprinted: () => [...reprinted],
    tendered: () => [...tendered],
    setPrint: (state) => lastPrint$.next(state),
    setFirstSync: (patch) => firstSync$.next({ ...firstSync$.value, ...patch }),
    setSettings: (patch) => settings$.next({ ...settings$.value, ...patch }),
    setTiles: (shelves) => tiles$.next(shelves === 'sample' ? SHELVES : []),
    holdCustomerSearches: (held) => customerSearches.hold(held),
    setDesk: (shown) => deskShown$.next(shown),
    refuseNextCheckIn: () => refuseNext(),
    deskSteps: () => deskSteps(),
    clashElsewhere: () => clashElsewhere(),
    refuseRoomCharge: () => {
      const [sale, ...rest] = sales$.value;
      const tenders = tendered.at(-1) ?? [];
      const index = tenders.findIndex((one) => one.method === 'room');
      const tender = tenders[index];
      if (!sale || tender?.method !== 'room') return;
      const field = `tenders.${index}.reservation`;
      const why = roomChargeRefusal('checked_out');
      const refused: Sale = {
        ...sale,
        status: 'refused',
        refusal: {
          code: 'parameter_invalid',
          message: `${field}: ${why}`,
          details: { [field]: why },
          roomCharge: { room: tender.room, guest: tender.guest, status: 'checked_out' },
        },
      };
      sales$.next([refused, ...rest]);
      sync$.next({
        ...sync$.value,
        unsynced: Math.max(0, sync$.value.unsynced - 1),
        refused: [
          ...sync$.value.refused,
          {
            id: sale.commandId,
            type: 'order.create',
            createdAt: sale.soldAt,
            label: sale.receiptNumber,
            refusal: refused.refusal!,
          },
        ],
      });
    },
    setDoor,
    doorCodes,
  };
  return { store: tillStore, controls };
}
