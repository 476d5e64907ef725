import { monotonicFactory } from 'ulid';

/** Every id carries its prefix; the brand keeps a PaymentId from passing as an OrderId. */
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
} as const;

export type IdKind = keyof typeof ID_PREFIXES;
export type Id<K extends IdKind> = `${(typeof ID_PREFIXES)[K]}_${string}` & { readonly __id: K };

export type MerchantId = Id<'merchant'>;
export type ApiKeyId = Id<'apiKey'>;
export type PaymentId = Id<'payment'>;
export type CheckoutId = Id<'checkout'>;
export type CustomerId = Id<'customer'>;
export type EventId = Id<'event'>;
export type TillId = Id<'till'>;
export type EmployeeId = Id<'employee'>;
export type PrinterId = Id<'printer'>;
export type ShiftId = Id<'shift'>;
export type PayoutId = Id<'payout'>;
export type SubscriptionId = Id<'subscription'>;
export type InvoiceId = Id<'invoice'>;

// Random bytes drawn in batches: ulid asks for one byte per character, and one
// Web Crypto call per byte was a measurable part of every write request.
const randomPool = new Uint8Array(4096);
let randomIndex = randomPool.length;
function pooledRandom(): number {
  if (randomIndex === randomPool.length) {
    crypto.getRandomValues(randomPool);
    randomIndex = 0;
  }
  return randomPool[randomIndex++]! / 256;
}

const nextUlid = monotonicFactory(pooledRandom);

/** A new time-ordered id: lexical order is creation order within one process. */
export function newId<K extends IdKind>(kind: K): Id<K> {
  return `${ID_PREFIXES[kind]}_${nextUlid().toLowerCase()}` as Id<K>;
}

export function hasPrefix<K extends IdKind>(kind: K, value: string): value is Id<K> {
  return value.startsWith(`${ID_PREFIXES[kind]}_`);
}
