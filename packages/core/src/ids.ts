import { monotonicFactory } from 'ulid';

/** Every id carries its prefix. */
export const ID_PREFIXES = {
  merchant: 'mer',
  apiKey: 'key',
  session: 'ses',
  payment: 'pay',
  refund: 're',
  checkout: 'cs',
  customer: 'cus',
  ledgerTransaction: 'txn',
  event: 'evt',
  requestLog: 'log',
  request: 'req',
  webhookEndpoint: 'we',
  webhookDelivery: 'whd',
  product: 'prod',
  variant: 'var',
  category: 'cat',
  store: 'store',
  order: 'ord',
  orderRefund: 'oref',
  stockLevel: 'stk',
  printer: 'prn',
  printJob: 'pjob',
  till: 'till',
  employee: 'emp',
  shift: 'shift',
  payout: 'po',
  escrow: 'esc',
  escrowSplit: 'esp',
  subscription: 'sub',
  invoice: 'in',
  roomType: 'rt',
  room: 'room',
  roomRate: 'rate',
  blackout: 'blk',
  reservation: 'resv',
  guestRegistration: 'greg',
  channelFeed: 'chfeed',
  channelConflict: 'chcon',
  folioLine: 'fol',
  nightAudit: 'naud',
  // ticketed events (`evt_` is a webhook event's)
  ticketedEvent: 'tev',
  eventTier: 'tier',
  eventOrder: 'eord',
  ticket: 'tkt',
  checkin: 'chk',
  scan: 'scn',
  doubleAdmission: 'dadm',
  eventPromo: 'promo',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;
export type Id<K extends IdKind> = `${(typeof ID_PREFIXES)[K]}_${string}` & { readonly __id: K };

/**
 * Branded where a rule takes ids of several kinds side by side, so one cannot
 * pass for another: a tender's payment (`retail/tender.ts`), a cart line's product and variant
 * (`retail/pricing.ts`), a stock level's store (`retail/stock.ts`). Elsewhere an
 * id is a string, checked at the boundary by `hasPrefix` or `idPattern`.
 */
export type PaymentId = Id<'payment'>;

// Random bytes drawn in batches: ulid asks for one byte per character, and one
// Web Crypto call per byte was a measurable part of every write request (and of a scan at the till).
const randomPool = new Uint8Array(4096);
let randomIndex = randomPool.length;
function pooledRandom(): number {
  if (randomIndex === randomPool.length) {
    crypto.getRandomValues(randomPool);
    randomIndex = 0;
  }
  return randomPool[randomIndex++]! / 256;
}

/** The ULID of a prefixed id: lowercase, as `newId` writes it. */
const LOWER_ULID = '[0-9a-hjkmnp-tv-z]{26}';

/** What `newId(kind)` makes: its prefix and a lowercase ULID. */
export const idPattern = (kind: IdKind): RegExp => new RegExp(`^${ID_PREFIXES[kind]}_${LOWER_ULID}$`);

/** A till's command id: `cmd_` and an uppercase ULID, the idempotency key of the write it asks for. */
export const COMMAND_ID_PATTERN = /^cmd_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * Time-ordered ids from one monotonic ULID source: lexical order is creation
 * order, even within a millisecond. `at` is the time an id is made at (unix ms,
 * now when absent): the till passes its own clock, which its tests move.
 */
export function idSource() {
  const next = monotonicFactory(pooledRandom);
  return {
    /** A bare ULID (uppercase): a till's sale id, local keys. */
    ulid: (at?: number): string => next(at),
    newId: <K extends IdKind>(kind: K, at?: number): Id<K> =>
      `${ID_PREFIXES[kind]}_${next(at).toLowerCase()}` as Id<K>,
    commandId: (at?: number): string => `cmd_${next(at)}`,
  };
}

const ids = idSource();

/** A new time-ordered id: lexical order is creation order within one process. */
export const newId = ids.newId;

export function hasPrefix<K extends IdKind>(kind: K, value: string): value is Id<K> {
  return value.startsWith(`${ID_PREFIXES[kind]}_`);
}
