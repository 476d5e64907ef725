/**
 * ClickPesa rules that need no I/O: the checksum canonical form, the order
 * reference we hand the provider, and how its statuses and messages map to
 * ours. The HMAC itself and the HTTP calls are in `clickpesa.ts`. Sources:
 * docs/PROVIDERS.md.
 */

/** Fields a checksum never covers (ClickPesa checksum docs). */
const CHECKSUM_FIELDS = new Set(['checksum', 'checksumMethod']);

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

/**
 * The string ClickPesa's HMAC-SHA256 checksum is computed over: the payload
 * without `checksum`/`checksumMethod`, keys sorted at every level, compact JSON.
 */
export function checksumCanonicalForm(payload: Record<string, unknown>): string {
  const stripped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload)) if (!CHECKSUM_FIELDS.has(key)) stripped[key] = value;
  return JSON.stringify(sortKeys(stripped));
}

/**
 * Our payment id as a ClickPesa order reference. Integrators report that
 * ClickPesa accepts letters and digits only, so the underscore is dropped:
 * `pay_01jx...` -> `pay01jx...`, which maps back without a lookup.
 */
export function orderReferenceFor(paymentId: string): string {
  return paymentId.replace('_', '');
}

/** The payment id an order reference stands for, or undefined when it is not one of ours. */
export function paymentIdFromOrderReference(reference: string): string | undefined {
  const match = /^pay_?([0-9a-z]{26})$/i.exec(reference.trim());
  return match ? `pay_${match[1]!.toLowerCase()}` : undefined;
}

export type ClickPesaSettlement = 'paid' | 'failed' | 'pending';

/** Payment statuses from the query and webhook docs: SUCCESS, SETTLED, PROCESSING, PENDING, FAILED. */
export function settlementOf(status: string): ClickPesaSettlement | undefined {
  switch (status.trim().toUpperCase()) {
    case 'SUCCESS':
    case 'SETTLED':
      return 'paid';
    case 'FAILED':
      return 'failed';
    case 'PROCESSING':
    case 'PENDING':
      return 'pending';
    default:
      return undefined;
  }
}

export interface FailureReason {
  code: string;
  message: string;
}

/**
 * ClickPesa reports why a payment failed only as free text (`message`), so
 * the failure code is read from it; anything unrecognised is `payment_declined`.
 */
const PAYER_FAILURES: ReadonlyArray<readonly [RegExp, FailureReason]> = [
  [
    /insufficient|not enough (funds|balance)|low balance/i,
    { code: 'insufficient_funds', message: 'The payer’s wallet has insufficient funds' },
  ],
  [
    /cancel|reject|declin|denied|refused/i,
    { code: 'payer_declined', message: 'The payer declined the payment prompt' },
  ],
  [
    /time ?out|timed out|expired|no response/i,
    { code: 'payer_timeout', message: 'The payer did not confirm the payment in time' },
  ],
  [/\bpin\b|password/i, { code: 'payer_authentication_failed', message: 'The payer’s PIN was not accepted' }],
  [
    /limit|exceed|maximum|minimum/i,
    { code: 'amount_limit_exceeded', message: 'The amount is outside the payer’s wallet limits' },
  ],
  [
    /phone|msisdn|subscriber|not registered|invalid (account|number)/i,
    { code: 'phone_unsupported', message: 'The phone number cannot pay with mobile money' },
  ],
];

export const PAYMENT_DECLINED: FailureReason = {
  code: 'payment_declined',
  message: 'The mobile money provider declined the payment',
};

export const PROVIDER_ERROR: FailureReason = {
  code: 'provider_error',
  message: 'The mobile money provider could not start this payment',
};

/** Why a payment the payer was prompted for failed (callback or status query). */
export function payerFailure(providerMessage: string | undefined): FailureReason {
  if (providerMessage)
    for (const [pattern, reason] of PAYER_FAILURES) if (pattern.test(providerMessage)) return reason;
  return PAYMENT_DECLINED;
}

/**
 * Why ClickPesa refused to start a payment (HTTP 4xx at initiation). Only
 * refusals about the payer or the amount get their own code; the rest mean
 * our request or credentials are wrong, which is `provider_error`.
 */
export function initiationRefusal(providerMessage: string | undefined): FailureReason {
  if (!providerMessage || /checksum|token|unauthori[sz]ed|client|forbidden/i.test(providerMessage))
    return PROVIDER_ERROR;
  const reason = payerFailure(providerMessage);
  return reason === PAYMENT_DECLINED ? PROVIDER_ERROR : reason;
}

/** The payout id a payout order reference stands for (`po01jx...` -> `po_01jx...`), or undefined. */
export function payoutIdFromOrderReference(reference: string): string | undefined {
  const match = /^po_?([0-9a-z]{26})$/i.exec(reference.trim());
  return match ? `po_${match[1]!.toLowerCase()}` : undefined;
}

/**
 * A live transfer from escrow to a phone goes out as a payout whose id is its
 * split's plus the attempt: the split id for the first (`esp_01jx...`, order
 * reference `esp01jx...`), `a2`, `a3`... appended for each release again after
 * a failure (`esp01jx...a2`). ClickPesa refuses an order reference twice, so a
 * repeat of one attempt can never pay twice, and a new attempt gets a new one.
 */
export function escrowTransferId(splitId: string, attempt: number): string {
  return attempt <= 1 ? splitId : `${splitId}a${attempt}`;
}

/**
 * The split and attempt a transfer id or its order reference stands for
 * (`esp01jx...a2` -> `esp_01jx...`, 2), or undefined when it is not one of ours.
 */
export function escrowTransferOf(reference: string): { splitId: string; attempt: number } | undefined {
  const match = /^esp_?([0-9a-z]{26})(?:a([2-9]|[1-9][0-9]{1,5}))?$/i.exec(reference.trim());
  if (!match) return undefined;
  return { splitId: `esp_${match[1]!.toLowerCase()}`, attempt: match[2] ? Number(match[2]) : 1 };
}

/**
 * Payout statuses from the create answer, the status query and the payout
 * webhooks: SUCCESS is paid; FAILED, REFUNDED and REVERSED mean the money did
 * not reach the destination; AUTHORIZED, PROCESSING and PENDING are on the way.
 */
export function payoutSettlementOf(status: string): ClickPesaSettlement | undefined {
  switch (status.trim().toUpperCase()) {
    case 'SUCCESS':
      return 'paid';
    case 'FAILED':
    case 'REFUNDED':
    case 'REVERSED':
      return 'failed';
    case 'AUTHORIZED':
    case 'PROCESSING':
    case 'PENDING':
      return 'pending';
    default:
      return undefined;
  }
}

export const PAYOUT_PROVIDER_ERROR: FailureReason = {
  code: 'provider_error',
  message: 'The payout provider could not send this payout',
};

/**
 * Why ClickPesa refused or undid a payout, read from its free-text message: a
 * destination it cannot pay (number, account, bank) is `destination_refused`;
 * anything else is on our side or the provider's, `provider_error`.
 */
export function payoutFailure(providerMessage: string | undefined): FailureReason {
  if (
    providerMessage &&
    /phone|msisdn|subscriber|not registered|account|bank|\bbic\b|beneficiary|recipient/i.test(providerMessage)
  )
    return {
      code: 'destination_refused',
      message: 'The receiving wallet or bank account refused the payout',
    };
  return PAYOUT_PROVIDER_ERROR;
}
