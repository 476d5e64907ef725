import type { Currency } from './money.ts';

/**
 * Ledger accounts. `provider_clearing` is money held by (or sent out through)
 * the mobile money provider on our behalf; `merchant_*` are what we owe the
 * merchant: `merchant_escrow` is held for a marketplace sale until released,
 * `merchant_payouts_in_transit` has left the available balance for a payout
 * the provider has not confirmed yet.
 */
export type LedgerAccount =
  | 'merchant_available'
  | 'merchant_pending'
  | 'merchant_referral'
  | 'merchant_escrow'
  | 'merchant_payouts_in_transit'
  | 'platform_fees'
  | 'provider_clearing';

/** What moved money: each is unique per source, so a movement posts once. */
export const LEDGER_TRANSACTION_TYPES = [
  'payment',
  'refund',
  'payout',
  'payout_paid',
  'payout_reversal',
  'escrow_hold',
  'escrow_release',
  'escrow_refund',
  'referral_earning',
] as const;
export type LedgerTransactionType = (typeof LEDGER_TRANSACTION_TYPES)[number];

export interface Posting {
  account: LedgerAccount;
  currency: Currency;
  /** Signed: credits to the merchant are positive on merchant accounts. */
  amount: number;
  /** Whose account, when not the transaction's merchant: an escrow release credits another merchant. */
  merchantId?: string;
}

/** A paid payment: the provider owes us the amount, split into the merchant's net and our fee. */
export function paymentPostings(currency: Currency, amount: number, fee: number): Posting[] {
  const postings: Posting[] = [
    { account: 'provider_clearing', currency, amount: -amount },
    { account: 'merchant_available', currency, amount: amount - fee },
  ];
  if (fee > 0) postings.push({ account: 'platform_fees', currency, amount: fee });
  return postings;
}

/** A refund reverses the payment's postings exactly (the fee is returned too). */
export function reversePostings(postings: readonly Posting[]): Posting[] {
  return postings.map((p) => ({ ...p, amount: -p.amount }));
}

/**
 * A payout's three movements. Creating it moves the amount out of the available
 * balance into transit (so nothing else can spend it); the provider's answer
 * then sends it out through the provider (paid) or back to available (failed).
 * Payouts carry no fee in this version.
 */
export function payoutPostings(
  movement: 'payout' | 'payout_paid' | 'payout_reversal',
  currency: Currency,
  amount: number,
): Posting[] {
  const from: LedgerAccount = movement === 'payout' ? 'merchant_available' : 'merchant_payouts_in_transit';
  const to: LedgerAccount =
    movement === 'payout'
      ? 'merchant_payouts_in_transit'
      : movement === 'payout_paid'
        ? 'provider_clearing'
        : 'merchant_available';
  return [
    { account: from, currency, amount: -amount },
    { account: to, currency, amount },
  ];
}

/** Holding a paid payment's net: it leaves the available balance for the escrow account. */
export function escrowHoldPostings(currency: Currency, amount: number): Posting[] {
  return [
    { account: 'merchant_available', currency, amount: -amount },
    { account: 'merchant_escrow', currency, amount },
  ];
}

/**
 * Money leaving escrow: to another merchant's available balance (the postings
 * then name both merchants), to a phone through the provider
 * (`provider_clearing`), or as the platform's fee.
 */
export function escrowReleasePostings(
  currency: Currency,
  amount: number,
  to:
    | { account: 'merchant_available'; holderMerchantId: string; recipientMerchantId: string }
    | { account: 'provider_clearing' | 'platform_fees' },
): Posting[] {
  if (to.account === 'merchant_available') {
    return [
      { account: 'merchant_escrow', currency, amount: -amount, merchantId: to.holderMerchantId },
      { account: 'merchant_available', currency, amount, merchantId: to.recipientMerchantId },
    ];
  }
  return [
    { account: 'merchant_escrow', currency, amount: -amount },
    { account: to.account, currency, amount },
  ];
}

/** What was not released goes back to the payer through the provider. */
export function escrowRefundPostings(currency: Currency, amount: number): Posting[] {
  return escrowReleasePostings(currency, amount, { account: 'provider_clearing' });
}

/**
 * The balances `GET /v1/balance` reports, each the sum of one merchant account.
 * `merchant_payouts_in_transit` is none of them: a payout leaves `available`
 * when it is made.
 */
export const MERCHANT_BALANCES = ['available', 'pending', 'escrow', 'referral'] as const;
export type MerchantBalance = (typeof MERCHANT_BALANCES)[number];

/** The account each balance sums. */
export const BALANCE_ACCOUNTS = {
  available: 'merchant_available',
  pending: 'merchant_pending',
  escrow: 'merchant_escrow',
  referral: 'merchant_referral',
} as const satisfies Record<MerchantBalance, LedgerAccount>;

const BALANCE_OF_ACCOUNT = new Map<LedgerAccount, MerchantBalance>(
  MERCHANT_BALANCES.map((balance) => [BALANCE_ACCOUNTS[balance], balance]),
);

/** One line of a merchant's transaction list: how one ledger transaction moved one of its balances. */
export interface BalanceMovement {
  merchantId: string;
  balance: MerchantBalance;
  currency: Currency;
  /** What moved before the fee (a payment's gross); `amount - fee = net`. */
  amount: number;
  fee: number;
  /** The signed change to `balance`: per balance and currency, the nets sum to the balance. */
  net: number;
  /** The transaction's merchant's first line: it carries the transaction's id and its fee. */
  main: boolean;
}

/**
 * The lines a ledger transaction adds to merchants' transaction lists: one per
 * posting on a balance account, on that posting's merchant (a hold moves two of
 * its merchant's balances; a release to a merchant moves the holder's escrow and
 * the recipient's available). A transaction that moves none of its merchant's
 * balances (a paid payout, which left `available` when it was made) still shows,
 * at 0 on `available`, so each movement of the merchant's money is listed.
 */
export function balanceMovements(entry: {
  merchantId: string;
  currency: Currency;
  fee: number;
  postings: ReadonlyArray<Posting>;
}): BalanceMovement[] {
  const lines: BalanceMovement[] = [];
  const line = (merchantId: string, balance: MerchantBalance, currency: Currency, net: number) => {
    const main = merchantId === entry.merchantId && !lines.some((l) => l.main);
    const fee = main ? entry.fee : 0;
    lines.push({ merchantId, balance, currency, amount: net + fee, fee, net, main });
  };
  for (const posting of entry.postings) {
    const balance = BALANCE_OF_ACCOUNT.get(posting.account);
    if (balance) line(posting.merchantId ?? entry.merchantId, balance, posting.currency, posting.amount);
  }
  if (!lines.some((l) => l.main)) line(entry.merchantId, 'available', entry.currency, 0);
  return lines;
}

export function isBalanced(postings: readonly Posting[]): boolean {
  const sums = new Map<string, number>();
  for (const p of postings) sums.set(p.currency, (sums.get(p.currency) ?? 0) + p.amount);
  return [...sums.values()].every((sum) => sum === 0);
}
