import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import { Poller } from '../infra/poller.ts';
import type {
  OutcomeSink,
  PaymentProvider,
  PaymentRequest,
  PayoutDestination,
  PayoutOutcomeSink,
  PayoutProvider,
  PayoutRequest,
  ProviderOutcome,
} from './provider.ts';

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

/** The sandbox's reference for a payment or payout: its id without the prefix. */
export const sandboxReference = (id: string): string => `sbx_${id.slice(id.indexOf('_') + 1)}`;

/**
 * Test-mode payout destinations with fixed outcomes (docs/PAYOUTS.md): the same three numbers for
 * mobile money, and for a bank account the end of its account number. Anything else is paid.
 */
export const SANDBOX_BANK_ACCOUNT_SUFFIXES = { fails: '0002', staysPending: '0003' } as const;

type SandboxFate = 'paid' | 'failed' | 'never';

function payoutFate(destination: PayoutDestination): SandboxFate {
  if (destination.type === 'mobile_money') {
    if (destination.phone === SANDBOX_NUMBERS.insufficientFunds) return 'failed';
    return destination.phone === SANDBOX_NUMBERS.staysPending ? 'never' : 'paid';
  }
  if (destination.accountNumber.endsWith(SANDBOX_BANK_ACCOUNT_SUFFIXES.fails)) return 'failed';
  return destination.accountNumber.endsWith(SANDBOX_BANK_ACCOUNT_SUFFIXES.staysPending) ? 'never' : 'paid';
}

function payoutOutcomeFor(payoutId: string, fate: SandboxFate): ProviderOutcome {
  const reference = sandboxReference(payoutId);
  return fate === 'failed'
    ? {
        status: 'failed',
        reference,
        failureCode: 'destination_refused',
        failureMessage: 'The receiving wallet or bank account refused the payout',
      }
    : { status: 'paid', reference };
}

/** How often due settlements are looked for, besides the wake-up at each one's due time. */
const POLL_INTERVAL_MS = 1_000;
/** A claimed settlement not applied by then (its process died, the database failed) is due again. */
const CLAIM_LEASE_SECONDS = 5;
const BATCH = 100;

function outcomeFor(paymentId: string, phone: string): ProviderOutcome {
  const reference = sandboxReference(paymentId);
  return phone === SANDBOX_NUMBERS.insufficientFunds
    ? {
        status: 'failed',
        reference,
        failureCode: 'insufficient_funds',
        failureMessage: 'The payer’s wallet has insufficient funds',
      }
    : { status: 'paid', reference };
}

/**
 * The built-in test-mode provider. A payment's outcome is due at `settle_at`,
 * written with the payment (see `settlesAt`); a poller in every server process
 * claims due payments oldest first and applies their outcomes through the same
 * path a real provider's callback takes. A claim is a lease: if the outcome
 * cannot be applied (the database is down, the process dies), the payment is due
 * again when the lease ends, so no settlement is lost.
 */
export class SandboxProvider implements PaymentProvider, PayoutProvider {
  readonly name = 'sandbox';
  private readonly poller: Poller;

  constructor(
    private readonly database: Database,
    private readonly sink: OutcomeSink,
    private readonly payoutSink: PayoutOutcomeSink,
    private readonly settleMs: number,
    logger: Logger,
  ) {
    this.poller = new Poller(
      async () => (await this.settleDue()) === BATCH || (await this.settleDuePayouts()) === BATCH,
      { intervalMs: POLL_INTERVAL_MS, logger, failure: 'sandbox settlement failed' },
    );
  }

  /** When the outcome of a payment to `phone` is due; never, for the stays-pending number. */
  settlesAt(phone: string): Date | null {
    return phone === SANDBOX_NUMBERS.staysPending ? null : new Date(Date.now() + this.settleMs);
  }

  /** When the outcome of a payout to `destination` is due; never, for the stays-pending ones. */
  payoutSettlesAt(destination: PayoutDestination): Date | null {
    return payoutFate(destination) === 'never' ? null : new Date(Date.now() + this.settleMs);
  }

  /** The outcome is already due in the database; this only wakes the poller on time. */
  initiate(payment: PaymentRequest): Promise<{ reference: string | null }> {
    if (payment.phone !== SANDBOX_NUMBERS.staysPending) this.poller.wakeAfter(this.settleMs);
    return Promise.resolve({ reference: null });
  }

  sendPayout(payout: PayoutRequest): Promise<{ reference: string | null }> {
    if (payoutFate(payout.destination) !== 'never') this.poller.wakeAfter(this.settleMs);
    return Promise.resolve({ reference: null });
  }

  start(): void {
    this.poller.start();
  }

  stop(): Promise<void> {
    return this.poller.stop();
  }

  /** Claims up to a batch of due settlements, oldest due first, and applies them. */
  private async settleDue(): Promise<number> {
    const claimed = await this.database.pool.query<{ id: string; phone: string }>(
      `UPDATE payments SET settle_at = now() + make_interval(secs => $1)
       WHERE id IN (SELECT id FROM payments WHERE settle_at <= now() AND status = 'pending'
                    ORDER BY settle_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id, phone`,
      [CLAIM_LEASE_SECONDS, BATCH],
    );
    for (const { id, phone } of claimed.rows) {
      // A failure leaves the claim to lapse; the payment is due again after the lease.
      await this.sink.applyOutcome(id, outcomeFor(id, phone));
    }
    return claimed.rows.length;
  }

  /** The same for payouts, whose fate is read from their destination. */
  private async settleDuePayouts(): Promise<number> {
    const claimed = await this.database.pool.query<{
      id: string;
      phone: string | null;
      account_number: string | null;
    }>(
      `UPDATE payouts SET settle_at = now() + make_interval(secs => $1)
       WHERE id IN (SELECT id FROM payouts WHERE settle_at <= now() AND status = 'pending'
                    ORDER BY settle_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id, phone, account_number`,
      [CLAIM_LEASE_SECONDS, BATCH],
    );
    for (const { id, phone, account_number } of claimed.rows) {
      const destination: PayoutDestination = phone
        ? { type: 'mobile_money', phone }
        : { type: 'bank', bankName: '', accountName: '', accountNumber: account_number ?? '', bic: null };
      await this.payoutSink.applyPayoutOutcome(id, payoutOutcomeFor(id, payoutFate(destination)));
    }
    return claimed.rows.length;
  }
}
