/**
 * A mobile money provider (aggregator). Initiation asks the provider to push
 * a payment prompt to the payer's phone; the outcome arrives later, through
 * the provider's callback, and is applied by `PaymentService.applyOutcome`.
 */
export interface PaymentRequest {
  id: string;
  amount: number;
  currency: string;
  phone: string;
  description: string | null;
}

export type ProviderOutcome =
  | { status: 'paid'; reference: string }
  | { status: 'failed'; reference: string | null; failureCode: string; failureMessage: string };

export interface PaymentProvider {
  readonly name: string;
  /** Starts collection; resolves once the provider accepted the request. */
  initiate(payment: PaymentRequest): Promise<{ reference: string | null }>;
  /**
   * For a provider whose outcome the server produces itself (the sandbox): when
   * it is due, stored with the new payment, or null for never.
   */
  settlesAt?(phone: string): Date | null;
}

/** Where providers report outcomes (the payment service implements it). */
export interface OutcomeSink {
  applyOutcome(paymentId: string, outcome: ProviderOutcome): Promise<void>;
}

/** Where a payout goes (checked at the edge; a bank's BIC is needed by live providers only). */
export type PayoutDestination =
  | { type: 'mobile_money'; phone: string }
  | { type: 'bank'; bankName: string; accountNumber: string; accountName: string; bic: string | null };

export interface PayoutRequest {
  id: string;
  amount: number;
  currency: string;
  destination: PayoutDestination;
}

/** A provider that sends money out; its outcome arrives later, as for payments. */
export interface PayoutProvider {
  readonly name: string;
  /** Starts the transfer; resolves once the provider accepted it (outcomes go to the payout sink). */
  sendPayout(payout: PayoutRequest): Promise<{ reference: string | null }>;
  /** As `settlesAt`, for a payout the server settles itself (the sandbox). */
  payoutSettlesAt?(destination: PayoutDestination): Date | null;
}

/** Where payout outcomes are reported (the payout service implements it). */
export interface PayoutOutcomeSink {
  applyPayoutOutcome(payoutId: string, outcome: ProviderOutcome): Promise<void>;
}
