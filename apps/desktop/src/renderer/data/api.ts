/**
 * What the till's screens see of its data: one `TillStore`, opened once per
 * page. Everything a screen shows is an observable (RxJS) that emits the
 * current value at once and again on every change; everything a screen does is
 * an async method that either resolves or rejects with a `TillRefusal` whose
 * `code` the screen turns into words (in the cashier's language).
 *
 * Open it with `openTillStore(options)` from `./index.ts`.
 *
 * The store keeps every sale on the device first and sends it later: nothing
 * here waits for the network except pairing and mobile money.
 */
import type { RxStorage } from 'rxdb';
import type { Observable } from 'rxjs';
import type { z } from 'zod';
import { isErrorCode } from '@tz/core';
import type {
  Discount,
  ErrorCode,
  guestRegistrationSchema,
  HousekeepingStatus,
  StayQuote,
  PricedCart,
  PullDocument,
  QuantityUnit,
  ReceiptDocument,
  ReservationStatus,
  TillPayment,
  ZReportFigures,
} from '@tz/core';
import type { PrintOutcome, TillBridge } from '../../shared/bridge.ts';
import type { BridgeSource } from '../../shared/bridge-watch.ts';
import type { SalesFilter } from './after-sale/sales-search.ts';
import type { DeskConflict, DeskView } from './front-desk/desk-view.ts';
import type { DoorView } from './door/door-state.ts';
import type { DoorScan } from './door/door.ts';
import type { BoxOfficeRequest, BoxOfficeView } from './box-office/box-office.ts';

// ------------------------------------------------------------------ refusals

/**
 * Refusals the till makes on its own, for conditions the server has no code
 * for (no network, a wrong PIN, an empty cart...). `unknown` stands for any
 * failure no code names, a code a newer server sends included.
 */
export const TILL_REFUSAL_CODES = [
  'not_paired',
  'already_paired',
  'pairing_failed',
  'ended_unsynced',
  'nothing_to_export',
  'offline',
  'unreachable',
  'unsynced_commands',
  'not_signed_in',
  'pin_wrong',
  'cashiers_not_synced',
  'pin_locked',
  'manager_pin_required',
  'manager_pin_wrong',
  'not_found',
  'cart_empty',
  'invalid',
  'shift_not_open',
  'shift_already_open',
  'nothing_to_reprint',
  'choose_variant',
  'customer_name_missing',
  'scale_label_unreadable',
  'scale_label_weight_on_piece',
  'scale_label_price_not_whole',
  'scale_label_too_small',
  'unknown',
] as const;
export type TillRefusalCode = (typeof TILL_REFUSAL_CODES)[number];

/**
 * Why the store said no: one of core's codes (the server's, or core's rules
 * run on the till) or one of the till's own. Screens map each to a sentence
 * (`i18n/code-words.ts`).
 */
export type RefusalCode = ErrorCode | TillRefusalCode;

/** A code from the wire as one the till knows: a newer server's reads as `unknown`. */
export const asServerCode = (code: unknown): ErrorCode | 'unknown' => (isErrorCode(code) ? code : 'unknown');

const PAIRING_CODE_REFUSALS = [
  'pairing_code_invalid',
  'pairing_code_expired',
  'pairing_code_used',
] as const satisfies readonly ErrorCode[];
type PairingCodeRefusal = (typeof PAIRING_CODE_REFUSALS)[number];
export const isPairingCodeRefusal = (code: RefusalCode): code is PairingCodeRefusal =>
  (PAIRING_CODE_REFUSALS as readonly RefusalCode[]).includes(code);

export class TillRefusal extends Error {
  override readonly name = 'TillRefusal';
  constructor(
    readonly code: RefusalCode,
    message: string,
    /** Extra facts for the screen: `until` (unix ms) for `pin_locked`, `count` for `unsynced_commands`, the field for `invalid`. */
    readonly details: Record<string, string | number> = {},
  ) {
    super(message);
  }
}

// ------------------------------------------------------------------- pairing

export interface TillIdentity {
  id: string;
  name: string;
  store: string;
  /** Receipt numbers read `${receiptPrefix}-000123`. */
  receiptPrefix: string;
  merchant: { id: string; businessName: string };
  livemode: boolean;
  /** The server's public address, which receipt links start with (absent for a till paired before servers sent it). */
  publicUrl?: string;
}

export type PairingState =
  | { status: 'unpaired' }
  | { status: 'paired'; till: TillIdentity }
  /** The merchant retired this till: it sells nothing new and sends what it holds. */
  | { status: 'retiring'; till: TillIdentity }
  /** A retired till whose backlog reached the server: it syncs no more. */
  | { status: 'retired'; till: TillIdentity }
  /** The server revoked this device: syncing stops, unsynced sales stay on the till and shown. */
  | { status: 'revoked'; till: TillIdentity };

/** A signed file of the commands an ended till never synced, for `POST /v1/tills/{id}/recover`. */
export interface TillExportDownload {
  filename: string;
  text: string;
  count: number;
}

// ---------------------------------------------------------------- employees

export type Employee = PullDocument<'employees'>;

/** What of this till's store has reached the till: the first sync's progress. */
export interface FirstSync {
  /** The store's own details (name, currency). */
  store: boolean;
  /** Employees of this store who can sign in with a PIN. */
  cashiers: number;
  /** Whether any products have arrived. */
  catalogue: boolean;
}

export interface Cashier {
  id: string;
  name: string;
  role: 'cashier' | 'manager';
  signedInAt: number;
}

// ---------------------------------------------------------------- catalogue

/** A product, or one variant of it, as the screens list and sell it. */
export interface CatalogueItem {
  productId: string;
  variantId: string | null;
  /** The product's name, with the variant's after it. */
  name: string;
  sku: string | null;
  barcodes: string[];
  price: number;
  currency: string;
  unit: QuantityUnit;
  taxClass: 'standard' | 'zero_rated' | 'exempt';
  category: string | null;
  trackStock: boolean;
  /**
   * On hand in this till's store, in thousandths; null when not tracked or not read (an item
   * found by barcode goes into the cart, which shows no stock, so its level is not read).
   */
  onHandMilli: number | null;
  /** A product sold only as one of its variants (`variantsOf`), never as itself. */
  hasVariants?: boolean;
}

/** A tab of the sale screen's product tiles: the Favourites, or one category's products. */
export interface TileShelf {
  /** `favourites`, or the category's id. */
  key: string;
  /** The category's name; null for the Favourites, which the till names in its own language. */
  name: string | null;
  items: CatalogueItem[];
}

/**
 * What a scan did: added the item (a scale label's weight or price gives the quantity), or left
 * it for the screen to ask which variant, or the weight of an item sold by weight whose own
 * barcode carries none; or found nothing.
 */
export type ScanOutcome =
  | { kind: 'added'; item: CatalogueItem; quantityMilli: number }
  | { kind: 'choose_variant'; item: CatalogueItem }
  | { kind: 'weigh'; item: CatalogueItem }
  | { kind: 'not_found' };

// --------------------------------------------------------------------- cart

/**
 * On hand at this till's store, in thousandths, of the cart's items whose stock the store
 * tracks and has a level for, by `productId:variantId` (`cart-stock.ts`: `stockKey`).
 */
export type CartStock = Record<string, number>;

/** The key a cart line's item has in `CartStock`. */
export const stockKey = (item: { productId: string; variantId: string | null }): string =>
  `${item.productId}:${item.variantId ?? ''}`;

export interface CartLine {
  /** Stable key for the screen's list and for edits. */
  key: string;
  item: CatalogueItem;
  /** Thousandths: 1 piece = 1000, 0.750 kg = 750. */
  quantityMilli: number;
  discount: Discount | null;
  priceOverride: { unitPrice: number; reason: string } | null;
}

/** A customer as the till shows them; `unsynced`: made on this till, and the server has not had them yet. */
export type TillCustomer = PullDocument<'customers'> & { unsynced?: boolean };

export interface Cart {
  lines: CartLine[];
  orderDiscount: Discount | null;
  customer: TillCustomer | null;
  /** Priced by core's `priceCart`, the same function the server uses. */
  priced: PricedCart;
}

export interface ParkedCart {
  id: string;
  parkedAt: number;
  cashier: string;
  label: string;
  total: number;
  /** Pieces, with a weighed line counted once (`itemCount`). */
  itemCount: number;
}

// ------------------------------------------------------------------- tenders

/** What the cashier took; the store turns it into the order's tenders and the receipt's. */
export type TenderEntry =
  | { method: 'cash'; amount: number }
  | { method: 'card'; amount: number; reference: string }
  /** A payment started with `startMobileMoney` and seen `paid`. */
  | { method: 'mobile_money'; payment: string; amount: number; network?: string }
  /**
   * Charged to a checked-in stay's folio (`resv_...`); the room's number is for the receipt, and it
   * and the guest's name for the cashier should the server refuse the charge.
   */
  | { method: 'room'; amount: number; reservation: string; room: string; guest: string };

export interface MobileMoneyRequest {
  amount: number;
  phone: string;
}

// --------------------------------------------------------------------- sales

/** `exported` / `abandoned`: held by a till that can no longer sync, put in its export file or given up. */
export type CommandStatus = 'pending' | 'applied' | 'refused' | 'exported' | 'abandoned';

export interface CommandRefusal {
  code: string;
  message: string;
  details?: Record<string, string>;
  /** A sale the server would not charge to a room: which room and guest, and the stay's state it named. */
  roomCharge?: RoomChargeRefused;
}

export interface RoomChargeRefused {
  room: string;
  guest: string | null;
  /** Null when the server's reason named none (no such stay). */
  status: ReservationStatus | null;
}

/** A sale made on this till, from its command and, once synced, the server's order. */
export interface Sale {
  commandId: string;
  clientOrderId: string;
  receiptNumber: string;
  total: number;
  currency: string;
  /** The employee's id, and the name the sale was made under (as on its receipt), kept whatever becomes of them. */
  cashier: string;
  cashierName: string;
  soldAt: number;
  status: CommandStatus;
  refusal: CommandRefusal | null;
  /** The server's order id once applied. */
  order: string | null;
  /** What the server noticed (price changed, stock ran out); the sale stands. */
  flags: string[];
  refundedAmount: number;
  voided: boolean;
  receipt: ReceiptDocument;
}

/** What the Sales list is asked: the words typed (receipt number or amount) and a shop day (`2026-11-26`) or any. */
export type { SalesFilter } from './after-sale/sales-search.ts';

/** The sales that answer a search, newest first (receipt-number matches before amounts). */
export interface SalesPage {
  sales: Sale[];
  /** How many answer in all: more than `sales` holds when the list is cut. */
  count: number;
}

export interface CompletedSale {
  sale: Sale;
  change: number;
  /** The sale's receipt page, for the customer's phone; absent when the till knows no server address. */
  digitalReceipt?: DigitalReceiptLink;
}

/** A sale's digital receipt: its page, and the sale's customer's mobile number (255…) when known. */
export interface DigitalReceiptLink {
  url: string;
  phone: string | null;
}

export type PrintState =
  | { status: 'idle' }
  | { status: 'printing'; receiptNumber: string }
  | { status: 'printed'; receiptNumber: string; paperNearEnd: boolean }
  | { status: 'failed'; receiptNumber: string; outcome: Extract<PrintOutcome, { ok: false }> }
  | { status: 'no_printer'; receiptNumber: string };

export interface RefundRequest {
  /** The sale's client order id (works before it synced). */
  clientOrderId: string;
  /** Lines by position with quantities in thousandths; everything left when absent. */
  lines?: Array<{ line: number; quantityMilli: number }>;
  restock?: boolean;
  reason?: string;
  managerPin: string;
}

/** What a refund would give back, before it is made. */
export interface RefundQuote {
  /** The refund of the lines asked (all that is left when none are named); null when they cannot be refunded. */
  amount: number | null;
  /** Per line of the sale, in thousandths, what is not yet refunded. */
  left: number[];
}

export interface VoidRequest {
  clientOrderId: string;
  reason?: string;
  managerPin: string;
}

// -------------------------------------------------------------------- shifts

export interface Shift {
  id: string;
  cashier: string;
  openingFloat: number;
  openedAt: number;
  payIns: number;
  payOuts: number;
  /** Cash the front desk took into the drawer. */
  deskCash: number;
  /** Float + cash taken − change − cash refunds + pay-ins − pay-outs + desk cash. */
  expectedCash: number;
  /** Times the drawer was opened with no sale. */
  noSales: number;
}

/** A closed shift's Z report: core's figures, which its printed copy is made from. */
export type ZReport = ZReportFigures;

export interface NoSaleRequest {
  reason: string;
  /** Needed when the till's `noSaleNeedsManager` is on and a cashier (not a manager) is signed in. */
  managerPin?: string;
}

/** Whether the drawer opened: the no-sale is recorded either way. */
export type NoSaleOutcome =
  { drawer: 'opened' } | { drawer: 'no_printer' } | { drawer: 'failed'; message: string };

// ---------------------------------------------------------------------- sync

export type Connection = 'online' | 'offline' | 'unreachable';

export interface RefusedCommand {
  id: string;
  type: string;
  createdAt: number;
  /** The receipt number, for a sale. */
  label: string | null;
  refusal: CommandRefusal;
}

/** The truth about sync: never "synced" while a command is waiting. */
export interface SyncStatus {
  /** `offline`: the browser says so; `unreachable`: it is online but the server does not answer. */
  connection: Connection;
  /** Commands not yet applied or refused by the server. */
  unsynced: number;
  /** Unix ms of the last round in which every call succeeded; null before the first. */
  lastSyncAt: number | null;
  refused: RefusedCommand[];
  revoked: boolean;
  /** This tab pushes (the leader); other tabs of the same till only watch. */
  leader: boolean;
  /** The last failure, one sentence, for the status panel. */
  lastError: string | null;
}

export interface PrintJobView {
  id: string;
  printer: string;
  status: 'pending' | 'printed' | 'failed';
  /** Set once this till tried it; a job is tried at most once. */
  attempt: { at: number; outcome: 'printed' | 'failed'; message: string | null } | null;
}

export interface TillSettings {
  /** An order discount above this needs a manager's PIN (basis points: 1000 = 10%). */
  managerDiscountAboveBasisPoints: number;
  /** The printer receipts go to; the first of this till's printers when null. */
  receiptPrinter: string | null;
  /** A cashier opening the drawer with no sale needs a manager's PIN (a manager signed in does not). */
  noSaleNeedsManager: boolean;
  /** The sale screen shows its product tiles; folded away, only their tabs show. */
  tilesShown: boolean;
}

// ---------------------------------------------------------------- front desk

/**
 * A walk-in as the desk takes it: arriving today unless `arrival` says otherwise; for a type
 * booked for day use, from now (to the minute) for `blocks` of the type's block length, ending
 * the same day.
 */
export interface WalkInRequest {
  roomType: string;
  nights: number;
  blocks?: number;
  arrival?: string;
  adults: number;
  children: number;
  guestName: string;
  guestPhone?: string;
  /** A room of the type chosen at the desk; the first free one otherwise. */
  room?: string;
}

export interface WalkInQuote {
  arrival: string;
  departure: string;
  /** A day-use stay's hours (unix seconds); null for nights. */
  dayUse: { startsAt: number; endsAt: number } | null;
  quote: StayQuote;
  /** The room the stay would get, or null when none of the type is free. */
  room: string | null;
  freeRooms: string[];
}

/** A guest in the register, as typed (countries as two letters). */
export type GuestEntry = z.input<typeof guestRegistrationSchema>;

export interface CheckInRequest {
  reservation: string;
  /** The room given now; the stay's own room when absent. */
  room?: string;
  guests: GuestEntry[];
  /** Cash taken as a deposit, in shillings. */
  deposit?: number;
  /** A deposit in another currency the desk takes (`deskCurrencies`), instead or as well. */
  depositForeign?: ForeignCash;
}

/** Cash in another currency: its code and the amount in its smallest unit (cents). */
export interface ForeignCash {
  currency: string;
  amount: number;
}

export interface CheckOutRequest {
  reservation: string;
  /** Cash taken for the balance now, in shillings. */
  cash?: number;
  /** Cash in another currency the desk takes, at the property's rate; with `cash`, no more than the balance. */
  foreign?: ForeignCash;
  /** A balance left other than zero: a manager's PIN (none when a manager is signed in) and why. */
  managerPin?: string;
  reason?: string;
}

/** What became of a slip sent to the receipt printer. */
export type DeskPrint = 'printed' | 'failed' | 'no_printer';

export type { BoardRoom, DeskConflict, DeskStay, DeskView } from './front-desk/desk-view.ts';
export type { RoomTypeDoc } from './front-desk/desk-state.ts';
export type { DoorDouble, DoorEventChoice, DoorView } from './door/door-state.ts';
export type { DoorScan } from './door/door.ts';
export type {
  BoxOfficeEvent,
  BoxOfficeRequest,
  BoxOfficeTier,
  BoxOfficeView,
} from './box-office/box-office.ts';

// --------------------------------------------------------------------- store

export interface TillStore {
  readonly pairing$: Observable<PairingState>;
  pair(code: string): Promise<TillIdentity>;
  /** Refused (`unsynced_commands`) while any command is unsynced; on an ended till, `ended_unsynced`. */
  unpair(): Promise<void>;
  /**
   * A till that can no longer sync (revoked, or retired before its backlog left): its unsynced
   * commands in a file signed with its key, which the merchant imports; they count as exported
   * from then on. With nothing unsynced, the last export again (until the device pairs again).
   */
  exportUnsynced(): Promise<TillExportDownload>;
  /** The commands the server refused, with its reasons, as a file (nothing is removed). */
  exportRefused(): Promise<TillExportDownload>;
  /** The last export of this ended till, to show and download again. */
  readonly lastExport$: Observable<TillExportDownload | null>;
  /** Gives up an ended till's unsynced commands, approved by a manager's PIN. */
  abandonUnsynced(managerPin: string): Promise<number>;

  readonly cashier$: Observable<Cashier | null>;
  /** What the first sync after pairing has brought so far; the PIN pad waits for the cashiers. */
  readonly firstSync$: Observable<FirstSync>;
  /**
   * The PIN names the employee; with `employeeId` (a screen that lists names first) only theirs is checked.
   * Refused `pin_wrong` (details.remaining) or `pin_locked` (details.until): five wrong PINs in a row lock
   * that employee's sign-in on this till (or, without `employeeId`, the till's PIN sign-in) for 5 minutes.
   */
  signIn(pin: string, employeeId?: string): Promise<Cashier>;
  /** Refused (`unsynced_commands`) while any command is unsynced. */
  signOut(): Promise<void>;

  readonly store$: Observable<PullDocument<'stores'> | null>;
  readonly settings$: Observable<TillSettings>;
  updateSettings(patch: Partial<TillSettings>): Promise<void>;

  /** Name, SKU or barcode prefix, case-insensitive; indexed, at most `limit` (default 50). */
  search(text: string, limit?: number): Promise<CatalogueItem[]>;
  findByBarcode(code: string): Promise<CatalogueItem | null>;
  /**
   * Whether the catalogue in memory sells something with exactly this barcode (false while it is
   * being built): a memory lookup, for an Enter that may end a scan that reached the page in pieces.
   */
  hasBarcode(code: string): boolean;
  /** The variants of a product with variants that are for sale, by name. */
  variantsOf(productId: string): Promise<CatalogueItem[]>;
  /** By name, or by phone in any written form: pulled customers, and those made here not yet back from the server. */
  searchCustomers(text: string, limit?: number): Promise<TillCustomer[]>;
  /**
   * A customer made at the counter, offline too (a `customer.create` command); a phone the till
   * already knows answers that customer, `existing`. Refused `customer_name_missing`, `phone_invalid`.
   */
  createCustomer(input: {
    name: string;
    phone: string;
  }): Promise<{ customer: TillCustomer; existing: boolean }>;

  /** The product tiles' shelves (docs/TILL.md, "Tiles"), again whenever the catalogue changes. */
  readonly tiles$: Observable<TileShelf[]>;
  readonly cart$: Observable<Cart>;
  /** Stock left of the cart's tracked items, for its lines to show; a sale is never refused for stock. */
  readonly cartStock$: Observable<CartStock>;
  addItem(item: CatalogueItem, quantityMilli?: number): Promise<void>;
  /**
   * Scans a barcode into the cart. A scale label (docs/TILL.md, "Scale labels") adds its product
   * with the weight or price it carries; one that cannot be read or sells nothing is refused
   * (`scale_label_…`). A product with variants, or one sold by weight scanned by its own barcode,
   * is not added: the screen asks which variant, or the weight.
   */
  addBarcode(code: string): Promise<ScanOutcome>;
  setQuantity(lineKey: string, quantityMilli: number): Promise<void>;
  removeLine(lineKey: string): Promise<void>;
  setLineDiscount(lineKey: string, discount: Discount | null): Promise<void>;
  setPriceOverride(lineKey: string, override: { unitPrice: number; reason: string } | null): Promise<void>;
  /** Above the configured percentage needs `managerPin` (refused `manager_pin_required`). */
  setOrderDiscount(discount: Discount | null, managerPin?: string): Promise<void>;
  setCustomer(customerId: string | null): Promise<void>;
  clearCart(): Promise<void>;
  readonly parked$: Observable<ParkedCart[]>;
  park(label?: string): Promise<void>;
  /** Parks the current cart first when it has lines. */
  resume(parkedId: string): Promise<void>;

  /** Writes the sale and its command in one local write; printing never blocks or fails it. */
  completeSale(tenders: TenderEntry[]): Promise<CompletedSale>;
  /** Completes the sale in cash for exactly its total, as priced when the sale is written. */
  payCashExact(): Promise<CompletedSale>;
  readonly lastPrint$: Observable<PrintState>;
  reprintLast(): Promise<PrintOutcome | null>;
  /** Prints any sale's receipt again (by its client order id), through the same path as `reprintLast`. */
  reprintSale(clientOrderId: string): Promise<PrintOutcome | null>;
  /** The newest sales (as `searchSales` with nothing typed, any day). */
  readonly sales$: Observable<Sale[]>;
  /** This till's sales by receipt number, amount and day; searched in memory, only those shown are read. */
  searchSales(filter: SalesFilter): Observable<SalesPage>;
  refund(request: RefundRequest): Promise<void>;
  /** Prices a refund without making it: the form shows what it gives back as lines are picked. */
  refundQuote(clientOrderId: string, lines?: RefundRequest['lines']): Promise<RefundQuote>;
  voidSale(request: VoidRequest): Promise<void>;

  /** Online only: refused `offline`/`unreachable` with a reason; emits the payment until it ends. */
  startMobileMoney(request: MobileMoneyRequest): Promise<Observable<TillPayment>>;

  /** Whether a shift is open: what the screens switch on, without re-reading the shift's sales at each one. */
  readonly shiftOpen$: Observable<boolean>;
  /** The open shift with its totals, summed from every command of the shift at each change: watch it only where shown. */
  readonly shift$: Observable<Shift | null>;
  openShift(openingFloat: number): Promise<Shift>;
  cashMovement(kind: 'pay_in' | 'pay_out', amount: number, reason: string): Promise<void>;
  /**
   * Opens the cash drawer with no sale: recorded in the shift (`shift.no_sale`) first, then the
   * drawer kicked through the receipt printer. Refused `manager_pin_required` / `manager_pin_wrong`
   * when the setting asks for a manager; resolves with whether the drawer opened.
   */
  noSale(request: NoSaleRequest): Promise<NoSaleOutcome>;
  /** Closes with the cash counted, prints the Z report and returns it. */
  closeShift(countedCash: number): Promise<ZReport>;

  /** Whether this till has a front desk: the hospitality app's property has been pulled. */
  readonly hasDesk$: Observable<boolean>;
  /** The front desk's board, arrivals, departures and conflicts; null with no property pulled. */
  readonly desk$: Observable<DeskView | null>;
  quoteWalkIn(request: WalkInRequest): Promise<WalkInQuote>;
  /** Queues `reservation.create` with an id made here; refused `room_unavailable` with no room free. */
  walkIn(request: WalkInRequest): Promise<{ reservation: string; room: string }>;
  /** The rooms a stay may be given or moved to. */
  roomsFor(reservation: string): Promise<string[]>;
  /** Queues the check-in (and the deposit); prints the registration card. */
  checkIn(request: CheckInRequest): Promise<DeskPrint>;
  moveStay(reservation: string, room: string): Promise<void>;
  setHousekeeping(room: string, status: HousekeepingStatus): Promise<void>;
  /** What the stay owes now (`deskBalance`). */
  balanceOf(reservation: string): Promise<number>;
  /** Takes the cash, queues the check-out; a balance left needs `managerPin` and `reason`. Prints the folio. */
  checkOut(request: CheckOutRequest): Promise<{ balance: number; print: DeskPrint }>;
  /** Takes a conflict off the desk once dealt with. */
  dismissConflict(conflict: Pick<DeskConflict, 'command' | 'id'>): Promise<void>;

  /** Whether this till has a door: a ticketed event has been pulled. */
  readonly hasDoor$: Observable<boolean>;
  /** The door's event, counts and double admissions; null with no event pulled. */
  readonly door$: Observable<DoorView | null>;
  /** Picks the event the door admits to, where several are on. */
  chooseDoorEvent(event: string): Promise<void>;
  /**
   * A scanned or typed code's verdict: the server's when it answers within
   * `DOOR_ONLINE_WAIT_MS`, the door's own otherwise (an admission then queued
   * as `ticket.checkin`). Refused only with no event chosen.
   */
  scanAtDoor(code: string): Promise<DoorScan>;
  /** The box office: the events on sale, the chosen one's tiers and what is left of each; null with none on sale. */
  readonly boxOffice$: Observable<BoxOfficeView | null>;
  chooseBoxOfficeEvent(event: string): Promise<void>;
  /**
   * Sells tickets at the counter (a shift open): one `event_order.sell` command with the tickets'
   * ids and codes; the receipt prints each ticket's QR. Refused `sold_out` past what is left.
   */
  sellTickets(request: BoxOfficeRequest): Promise<CompletedSale>;

  readonly sync$: Observable<SyncStatus>;
  /** Pull and push now rather than at the next tick. */
  syncNow(): Promise<void>;
  readonly printJobs$: Observable<PrintJobView[]>;

  close(): Promise<void>;
}

/** What opens a store: the page passes the real ones, tests pass memory storage, a fake clock and transport. */
export interface TillStoreOptions {
  /** Where `/trpc` lives, e.g. `location.origin`. */
  serverUrl: string;
  /** An RxDB storage: Dexie in the browser, memory in tests. */
  storage?: RxStorage<unknown, unknown>;
  /** The database name; one per device. */
  name?: string;
  /**
   * The hardware bridge, or a source that keeps looking for one (`BridgeWatch`);
   * `currentBridge()` when absent.
   */
  bridge?: TillBridge | BridgeSource | null;
  now?: () => number;
  appVersion?: string;
}
