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
