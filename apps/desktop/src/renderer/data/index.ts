/**
 * Opens the till's data layer: `openTillStore(options)` gives the screens a
 * `TillStore` (see `api.ts`).
 */
import { BehaviorSubject, distinctUntilChanged, map, shareReplay, switchMap } from 'rxjs';
import type { PullDocument } from '@tz/core';
import type { PairingState, TillSettings, TillStore, TillStoreOptions } from './api.ts';
import {
  refund,
  refundQuote,
  reprintLast,
  reprintSale,
  searchSales,
  voidSale,
} from './after-sale/after-sale.ts';
import * as cart from './cart/cart.ts';
import { watchCartStock } from './cart/cart-stock.ts';
import { watchTiles } from './catalogue/tiles.ts';
import * as catalogue from './catalogue/catalogue.ts';
import { CatalogueIndex } from './catalogue/catalogue-index.ts';
import { CatalogueSnapshot } from './catalogue/catalogue-snapshot.ts';
import * as customers from './customers/customers.ts';
import * as desk from './front-desk/front-desk.ts';
import * as door from './door/door.ts';
import * as boxOffice from './box-office/box-office.ts';
import { ScaleFormat } from './catalogue/scale-labels.ts';
import { hasEnded, refuseWhileUnsynced } from './store/context.ts';
import type { Context, Device } from './store/context.ts';
import { openDatabase } from './store/database.ts';
import { defaultJournal } from './cart/edit-journal.ts';
import { watchFirstSync } from './sync/first-sync.ts';
import type { EditJournal } from './cart/edit-journal.ts';
import { currentBridge } from './store/hardware.ts';
import { makeIds } from './store/ids.ts';
import { KV, Kv } from './store/kv.ts';
import { startMobileMoney } from './sale/payments.ts';
import { PrintJobWorker, watchPrintJobs } from './printing/print-jobs.ts';
import { ReceiptPrinting } from './printing/printing.ts';
import { noSale } from './shifts/no-sale.ts';
import { closeSales, completeSale } from './sale/sale.ts';
import { SalesIndex } from './after-sale/sales-index.ts';
import type { Tenders } from './sale/sale.ts';
import * as session from './session/session.ts';
import * as shifts from './shifts/shifts.ts';
import { SyncEngine } from './sync/sync-engine.ts';
import { abandonUnsynced, exportRefused, exportUnsynced } from './sync/till-end.ts';
import type { SyncTiming } from './sync/sync-engine.ts';
import { trpcTransport } from './sync/transport.ts';
import type { SyncTransport } from './sync/transport.ts';
import { startPruning } from './front-desk/desk-prune.ts';

export * from './api.ts';
export { currentBridge } from './store/hardware.ts';

export interface OpenOptions extends TillStoreOptions {
  /** The server calls; the tRPC client over `serverUrl` when absent. */
  transport?: SyncTransport;
  timing?: Partial<SyncTiming>;
  online?: () => boolean;
  /** False in tests and in a single-tab app; true in the browser, where tabs share the database. */
  multiInstance?: boolean;
  /** When to read the catalogue into memory after opening (ms); when Infinity, at the first lookup. */
  indexCatalogueAfterMs?: number;
  /** Where cart edits wait for their write; localStorage in the browser. */
  editJournal?: EditJournal;
}

/** The till opens and draws first; then the catalogue is read into memory (a lookup before starts it). */
const INDEX_AFTER_MS = 1000;

const browserOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

export async function openTillStore(options: OpenOptions): Promise<TillStore> {
  const storage = options.storage ?? (await import('rxdb/plugins/storage-dexie')).getRxStorageDexie();
  const name = options.name ?? 'till';
  const db = await openDatabase({
    name,
    storage,
    multiInstance: options.multiInstance ?? typeof window !== 'undefined',
  });
  const kv = new Kv(db.kv);
  const now = options.now ?? Date.now;
  const credential = new BehaviorSubject<string | null>(null);
  const given = options.bridge;
  const source = given && 'recheck' in given ? given : null;
  const fixed = given && !('recheck' in given) ? given : null;
  const bridge = source ? () => source.current() : given === undefined ? currentBridge : () => fixed;
  const snapshot = new CatalogueSnapshot({
    kv: db.kv,
    products: db.products,
    variants: db.variants,
    isWriter: () => db.isLeader(),
  });
  const index = new CatalogueIndex({ products: db.products, variants: db.variants }, snapshot);
  index.follow();
  const indexAfter = options.indexCatalogueAfterMs ?? INDEX_AFTER_MS;
  if (indexAfter !== Infinity) index.buildAfter(indexAfter);
  const ctx: Context = {
    db,
    kv,
    catalogue: index,
    scale: new ScaleFormat(kv, db),
    journal: options.editJournal ?? defaultJournal(name),
    ids: makeIds(now),
    now,
    bridge,
    ...(source ? { recheckBridge: () => source.recheck() } : {}),
    appVersion: options.appVersion ?? '0.1.0',
    serverUrl: options.serverUrl,
    online: options.online ?? browserOnline,
    transport:
      options.transport ??
      trpcTransport({ serverUrl: options.serverUrl, credential: () => credential.value }),
  };
  credential.next(await session.loadCredential(ctx));
  // Edits that were on screen when the page went, before their write landed.
  void cart.replayEdits(ctx);

  const engine = new SyncEngine(ctx, options.timing);
  const printing = new ReceiptPrinting(ctx);
  // Read the first time the Sales list asks.
  const salesIndex = new SalesIndex(db.commands);
  const printJobs = new PrintJobWorker(ctx);
  const stopBridgeWatch = source?.subscribe((found) => {
    if (found.bridge) printJobs.bridgeFound();
  });
  // Set once the store is closing: a start still on its way stops at its next step.
  let closing = false;
  let stopPruning: (() => void) | null = null;
  const startSyncing = async () => {
    credential.next(await session.loadCredential(ctx));
    if (closing) return;
    await engine.start();
    if (closing) return;
    const current = await kv.get<Device>(KV.device);
    if (db.isLeader() && current && !hasEnded(current) && !current.retired) printJobs.start();
    // The leader drops the stays that left the desk's window, once now and then hourly.
    if (db.isLeader()) stopPruning = startPruning(ctx);
  };
  void db
    .waitForLeadership()
    .then(() => startSyncing())
    .catch((error: unknown) => {
      // A till closed while it started has nothing left to sync; any other failure is real.
      if (!closing) throw error;
    });

  // A cashier deactivated, moved away, or given a new PIN or role is signed out as the change arrives.
  const employeesWatch = db.employees.$.subscribe(() => void session.checkSession(ctx));

  const device$ = kv.watch<Device>(KV.device);
  // A revoked or retired till prints no more server jobs either.
  const revokedWatch = device$.subscribe((device) => {
    if (device?.revoked || device?.retired) void printJobs.stop();
  });
  const pairing$ = device$.pipe(
    map((device): PairingState => {
      if (!device) return { status: 'unpaired' };
      const status = device.revoked
        ? 'revoked'
        : device.retired === 'done'
          ? 'retired'
          : device.retired
            ? 'retiring'
            : 'paired';
      return { status, till: device.till };
    }),
  );

  const sell = async (tenders: Tenders) => {
    const { command, ...completed } = await completeSale(ctx, tenders);
    // Printing runs after the sale is written and never holds it up.
    void printing.print(completed.sale.receipt, (command.sale?.cash ?? 0) > 0);
    return completed;
  };

  const cartView$ = cart.watchCart(ctx);
  const store: TillStore = {
    pairing$,
    async pair(code) {
      const till = await session.pair(ctx, code);
      await startSyncing();
      return till;
    },
    async unpair() {
      await refuseWhileUnsynced(ctx, 'unpairing');
      await printJobs.stop();
      await engine.stop();
      await session.unpair(ctx);
      credential.next(null);
    },
    exportUnsynced: () => exportUnsynced(ctx),
    exportRefused: () => exportRefused(ctx),
    abandonUnsynced: (pin) => abandonUnsynced(ctx, pin),
    lastExport$: kv.watch(KV.tillExport),
    cashier$: kv.watch(KV.session),
    firstSync$: watchFirstSync(ctx, device$),
    signIn: (pin, employeeId) => session.signIn(ctx, pin, employeeId),
    signOut: () => session.signOut(ctx),
    store$: device$.pipe(
      map((device) => device?.till.store ?? null),
      distinctUntilChanged(),
      switchMap((id) => db.stores.findOne(id ?? '').$),
      map((doc) => (doc ? (doc.toJSON() as unknown as PullDocument<'stores'>) : null)),
    ),
    settings$: kv
      .watch<Partial<TillSettings>>(KV.settings)
      .pipe(map((saved) => ({ ...cart.DEFAULT_SETTINGS, ...saved }))),
    async updateSettings(patch) {
      await kv.update<Partial<TillSettings>>(KV.settings, {}, (current) => ({ ...current, ...patch }));
    },
    search: (text, limit) => catalogue.search(ctx, text, limit),
    findByBarcode: (code) => catalogue.findByBarcode(ctx, code),
    hasBarcode: (code) => catalogue.knownNow(ctx, code),
    variantsOf: (product) => catalogue.variantsOf(ctx, product),
    searchCustomers: (text, limit) => customers.searchCustomers(ctx, text, limit),
    createCustomer: (input) => customers.createCustomer(ctx, input),
    tiles$: watchTiles(ctx),
    cart$: cartView$,
    cartStock$: watchCartStock(ctx, cartView$),
    addItem: (item, quantity) => cart.addItem(ctx, item, quantity),
    addBarcode: (code) => cart.addBarcode(ctx, code),
    setQuantity: (key, quantity) => cart.setQuantity(ctx, key, quantity),
    removeLine: (key) => cart.removeLine(ctx, key),
    setLineDiscount: (key, discount) => cart.setLineDiscount(ctx, key, discount),
    setPriceOverride: (key, override) => cart.setPriceOverride(ctx, key, override),
    setOrderDiscount: (discount, pin) => cart.setOrderDiscount(ctx, discount, pin),
    setCustomer: (customer) => cart.setCustomer(ctx, customer),
    clearCart: () => cart.clearCart(ctx),
    parked$: cart.watchParked(ctx),
    park: (label) => cart.park(ctx, label),
    resume: (id) => cart.resume(ctx, id),
    completeSale: (tenders) => sell(tenders),
    payCashExact: () => sell((total) => [{ method: 'cash', amount: total }]),
    lastPrint$: printing.state$.asObservable(),
    reprintLast: () => reprintLast(ctx, printing),
    reprintSale: (clientOrderId) => reprintSale(ctx, printing, clientOrderId),
    sales$: searchSales(ctx, salesIndex, { text: '', day: null }).pipe(map((page) => page.sales)),
    searchSales: (filter) => searchSales(ctx, salesIndex, filter),
    async refund(request) {
      const slip = await refund(ctx, request);
      // Printed like a sale's receipt, after the refund is written and without holding it up.
      if (slip) void printing.print(slip.receipt, slip.openDrawer);
    },
    refundQuote: (clientOrderId, lines) => refundQuote(ctx, clientOrderId, lines),
    async voidSale(request) {
      const slip = await voidSale(ctx, request);
      if (slip) void printing.print(slip.receipt, slip.openDrawer);
    },
    startMobileMoney: (request) => startMobileMoney(ctx, request, engine.paymentHints$),
    shiftOpen$: shifts.watchShiftOpen(ctx),
    shift$: shifts.watchShift(ctx),
    openShift: (float) => shifts.openShift(ctx, float),
    cashMovement: (kind, amount, reason) => shifts.cashMovement(ctx, kind, amount, reason),
    noSale: (request) => noSale(ctx, printing, request),
    async closeShift(counted) {
      const report = await shifts.closeShift(ctx, counted);
      void printing.printZReport(report);
      return report;
    },
    hasDesk$: desk.watchHasDesk(ctx).pipe(distinctUntilChanged(), lastKnown()),
    desk$: desk.watchDesk(ctx),
    quoteWalkIn: (request) => desk.quoteWalkIn(ctx, request),
    walkIn: (request) => desk.walkIn(ctx, request),
    roomsFor: (reservation) => desk.roomsFor(ctx, reservation),
    checkIn: (request) => desk.checkIn(ctx, printing, request),
    moveStay: (reservation, room) => desk.moveStay(ctx, reservation, room),
    setHousekeeping: (room, status) => desk.setHousekeeping(ctx, room, status),
    balanceOf: (reservation) => desk.balanceOf(ctx, reservation),
    checkOut: (request) => desk.checkOut(ctx, printing, request),
    dismissConflict: (conflict) => desk.dismissConflict(ctx, conflict),
    hasDoor$: door.watchHasDoor(ctx).pipe(distinctUntilChanged(), lastKnown()),
    door$: door.watchDoor(ctx),
    chooseDoorEvent: (event) => door.chooseDoorEvent(ctx, event),
    scanAtDoor: (code) => door.scanAtDoor(ctx, code),
    boxOffice$: boxOffice.watchBoxOffice(ctx),
    chooseBoxOfficeEvent: (event) => boxOffice.chooseBoxOfficeEvent(ctx, event),
    async sellTickets(request) {
      const { command, ...completed } = await boxOffice.sellTickets(ctx, request);
      // Printed after the sale is written, never holding it up: the receipt carries each ticket's QR.
      void printing.print(completed.sale.receipt, (command.sale?.cash ?? 0) > 0);
      return completed;
    },
    sync$: engine.status$(),
    syncNow: () => engine.syncNow(),
    printJobs$: watchPrintJobs(ctx),
    async close() {
      closing = true;
      stopPruning?.();
      index.stop();
      salesIndex.stop();
      ctx.scale.stop();
      revokedWatch.unsubscribe();
      employeesWatch.unsubscribe();
      stopBridgeWatch?.();
      closeSales(ctx);
      await printJobs.stop();
      await engine.stop();
      await db.close();
    },
  };
  return store;
}

/**
 * Kept and replayed at once to each new subscriber: a dialog opened later (the tender's
 * Alt+4 room charge) knows at its first render whether this till has the desk, instead of
 * waiting on a fresh store query while its keys already work.
 */
function lastKnown<T>() {
  return shareReplay<T>({ bufferSize: 1, refCount: false });
}
