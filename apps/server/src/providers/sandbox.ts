import type { OutcomeSink, PaymentProvider, PaymentRequest } from './provider.ts';

/**
 * Test-mode phone numbers with fixed outcomes (DESIGN.md, README). Any other valid number succeeds.
 * They mean something only here: the sandbox runs in test mode alone, and a live payment to one of
 * them, or to any other 070 number (a Mixx by Yas range), goes to the live provider.
 */
export const SANDBOX_NUMBERS = {
  succeeds: '255700000001',
  insufficientFunds: '255700000002',
  staysPending: '255700000003',
} as const;

export const sandboxReference = (paymentId: string): string => `sbx_${paymentId.slice(4)}`;

/**
 * The built-in test-mode provider. It settles asynchronously after `settleMs`,
 * through the same outcome path a real provider's callback takes.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly sink: OutcomeSink,
    private readonly settleMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** The reference is stored with the outcome, sparing the payment a second write at start. */
  initiate(payment: PaymentRequest): Promise<{ reference: string | null }> {
    this.schedule(payment.id, payment.phone, sandboxReference(payment.id), this.settleMs);
    return Promise.resolve({ reference: null });
  }

  /** Schedules the outcome a phone number stands for; used again at start for payments left pending. */
  schedule(paymentId: string, phone: string, reference: string, delayMs: number): void {
    if (phone === SANDBOX_NUMBERS.staysPending) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const outcome =
        phone === SANDBOX_NUMBERS.insufficientFunds
          ? ({
              status: 'failed',
              reference,
              failureCode: 'insufficient_funds',
              failureMessage: 'The payer’s wallet has insufficient funds',
            } as const)
          : ({ status: 'paid', reference } as const);
      this.sink.applyOutcome(paymentId, outcome).catch(this.onError);
    }, delayMs);
    this.timers.add(timer);
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
