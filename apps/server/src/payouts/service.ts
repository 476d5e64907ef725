import {
  AppError,
  PAYOUT_STATES,
  mobileNetwork,
  newId,
  notFound,
  payoutPostings,
  type Currency,
  type PayoutMethod,
  type PayoutStatus,
} from '@tz/core';
import type { Logger } from 'pino';
import { write, type Database, type Queryable } from '../db/database.ts';
import type { Actor } from '../actor.ts';
import type {
  PayoutDestination,
  PayoutOutcomeSink,
  PayoutProvider,
  ProviderOutcome,
} from '../providers/provider.ts';
import { recordEvent, type EventSignal } from '../infra/events.ts';
import { findOwned } from '../infra/owned.ts';
import { mayHaveReached } from '../providers/clickpesa-http.ts';
import { startAtProvider } from '../providers/start.ts';
import { lockAvailableBalance, postLedgerEntry } from '../ledger/service.ts';
import { markPaymentsPaidOut } from './settlement.ts';
import { storedStates, transition } from '../infra/transitions.ts';
import { unixOrNull, unixSeconds } from '../infra/time.ts';

const PAYOUTS = storedStates(PAYOUT_STATES, 'payouts');

export interface PayoutRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  amount: number;
  currency: Currency;
  status: PayoutStatus;
  method: PayoutMethod;
  phone: string | null;
  network: string | null;
  bank_name: string | null;
  account_number: string | null;
  account_name: string | null;
  bic: string | null;
  description: string | null;
  metadata: Record<string, string>;
  provider: string;
  provider_reference: string | null;
  failure_code: string | null;
  failure_message: string | null;
  created_at: Date;
  paid_at: Date | null;
  failed_at: Date | null;
  settle_at: Date | null;
}

const destinationObject = (row: PayoutRow) =>
  row.method === 'mobile_money'
    ? { type: 'mobile_money' as const, phone: row.phone!, network: row.network }
    : {
        type: 'bank' as const,
        bank_name: row.bank_name!,
        account_number: row.account_number!,
        account_name: row.account_name!,
        bic: row.bic,
      };

export const payoutObject = (row: PayoutRow) => ({
  id: row.id,
  object: 'payout' as const,
  amount: row.amount,
  currency: row.currency,
  status: row.status,
  destination: destinationObject(row),
  description: row.description,
  metadata: row.metadata,
  failure_code: row.failure_code,
  failure_message: row.failure_message,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  paid_at: unixOrNull(row.paid_at),
  failed_at: unixOrNull(row.failed_at),
});
export type PayoutObject = ReturnType<typeof payoutObject>;

export interface CreatePayoutInput {
  amount: number;
  currency: Currency;
  destination: PayoutDestination;
  description?: string | undefined;
  metadata?: Record<string, string> | undefined;
}

export interface PayoutProviderDirectory {
  forMode(livemode: boolean): PayoutProvider | undefined;
}

const destinationOf = (row: PayoutRow): PayoutDestination =>
  row.method === 'mobile_money'
    ? { type: 'mobile_money', phone: row.phone! }
    : {
        type: 'bank',
        bankName: row.bank_name!,
        accountNumber: row.account_number!,
        accountName: row.account_name!,
        bic: row.bic,
      };

export class PayoutService implements PayoutOutcomeSink {
  constructor(
    private readonly database: Database,
    private readonly providers: PayoutProviderDirectory,
    private readonly events: EventSignal,
    private readonly logger: Logger,
  ) {}

  /**
   * Moves `amount` out of the available balance into transit and records the
   * pending payout and its event; the provider is asked after commit. The
   * balance is checked under the balance lock, so racing payouts and refunds
   * never spend more than there is; a refusal moves nothing.
   */
  async create(
    db: Queryable,
    actor: Actor,
    input: CreatePayoutInput,
    afterCommit: (task: () => Promise<void>) => void,
  ): Promise<PayoutObject> {
    const provider = this.providers.forMode(actor.livemode);
    if (!provider) {
      throw new AppError('provider_unavailable', 'Live payouts are not configured for this account yet', {
        retryAfter: 60,
      });
    }
    const { destination } = input;
    if (actor.livemode && destination.type === 'bank' && !destination.bic) {
      throw new AppError('parameter_missing', 'A live bank payout needs the bank’s BIC (SWIFT code)', {
        details: { 'destination.bic': 'is required for live bank payouts' },
      });
    }
    const available = await lockAvailableBalance(db, actor.merchantId, actor.livemode, input.currency);
    if (input.amount > available) {
      throw new AppError(
        'insufficient_funds',
        `The available ${input.currency} balance is ${available}, less than the payout of ${input.amount}`,
        { details: { amount: `exceeds the available balance of ${available} ${input.currency}` } },
      );
    }
    const mobile = destination.type === 'mobile_money' ? destination : undefined;
    const bank = destination.type === 'bank' ? destination : undefined;
    const row: PayoutRow = {
      id: newId('payout'),
      merchant_id: actor.merchantId,
      livemode: actor.livemode,
      amount: input.amount,
      currency: input.currency,
      status: 'pending',
      method: destination.type,
      phone: mobile?.phone ?? null,
      network: mobile ? (mobileNetwork(mobile.phone) ?? null) : null,
      bank_name: bank?.bankName ?? null,
      account_number: bank?.accountNumber ?? null,
      account_name: bank?.accountName ?? null,
      bic: bank?.bic ?? null,
      description: input.description ?? null,
      metadata: input.metadata ?? {},
      provider: provider.name,
      provider_reference: null,
      failure_code: null,
      failure_message: null,
      created_at: new Date(),
      paid_at: null,
      failed_at: null,
      settle_at: provider.payoutSettlesAt?.(destination) ?? null,
    };
    await write(
      db,
      `INSERT INTO payouts (id, merchant_id, livemode, amount, currency, status, method, phone, network,
         bank_name, account_number, account_name, bic, description, metadata, provider, created_at, settle_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
      [
        row.id,
        row.merchant_id,
        row.livemode,
        row.amount,
        row.currency,
        row.status,
        row.method,
        row.phone,
        row.network,
        row.bank_name,
        row.account_number,
        row.account_name,
        row.bic,
        row.description,
        JSON.stringify(row.metadata),
        row.provider,
        row.created_at,
        row.settle_at,
      ],
    );
    await postLedgerEntry(db, {
      merchantId: row.merchant_id,
      livemode: row.livemode,
      type: 'payout',
      sourceId: row.id,
      currency: row.currency,
      amount: -row.amount,
      fee: 0,
      description: `Payout ${row.id}`,
      postings: payoutPostings('payout', row.currency, row.amount),
    });
    const object = payoutObject(row);
    await recordEvent(db, {
      merchantId: row.merchant_id,
      livemode: row.livemode,
      type: 'payout.created',
      object,
    });
    afterCommit(() => this.send(provider, row));
    return object;
  }

  /**
   * The provider is asked after commit; a refusal fails the payout and returns
   * its amount. A send that may have reached the provider unseen stays pending
   * for the reconciler (same order reference, so never paid twice).
   */
  private send(provider: PayoutProvider, row: PayoutRow): Promise<void> {
    return startAtProvider(
      this.database,
      { table: 'payouts', id: row.id, provider: provider.name },
      () =>
        provider
          .sendPayout({
            id: row.id,
            amount: row.amount,
            currency: row.currency,
            destination: destinationOf(row),
          })
          .catch((error: unknown) => {
            if (!mayHaveReached(error)) throw error;
            this.logger.error(
              { err: error },
              `payout ${row.id} may have reached ${provider.name}; left pending`,
            );
            return { reference: null };
          }),
      (outcome) => this.applyPayoutOutcome(row.id, outcome),
      this.logger,
      'The provider could not start this payout',
    );
  }

  async retrieve(db: Queryable, actor: Actor, id: string): Promise<PayoutObject> {
    return payoutObject(await findOwned<PayoutRow>(db, 'payouts', 'payout', actor, id));
  }

  listSource(actor: Actor, filters: { status?: PayoutStatus | undefined }) {
    const params: unknown[] = [actor.merchantId, actor.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (filters.status) where += ` AND status = $${params.push(filters.status)}`;
    return { table: 'payouts', where, params };
  }

  /**
   * Applies the provider's outcome in one transaction: status, ledger entry,
   * the payments the payout paid out, and `payout.paid` or `payout.failed`.
   * A repeated or late outcome for a payout already settled changes nothing;
   * one contradicting it (failed after paid) is refused by the transition table.
   */
  async applyPayoutOutcome(payoutId: string, outcome: ProviderOutcome): Promise<void> {
    const changed = await this.database.transaction(async (tx) => {
      const peek = await tx.query<PayoutRow>('SELECT * FROM payouts WHERE id = $1', [payoutId]);
      const seen = peek.rows[0];
      if (!seen) throw notFound('payout', payoutId);
      if (seen.status === outcome.status) return false;
      // The balance lock first, as every mover of this balance takes it, then the payout row.
      await lockAvailableBalance(tx, seen.merchant_id, seen.livemode, seen.currency);
      const found = await tx.query<PayoutRow>('SELECT * FROM payouts WHERE id = $1 FOR UPDATE', [payoutId]);
      const row = found.rows[0]!;
      if (row.status === outcome.status) return false;
      const settled =
        outcome.status === 'paid'
          ? await transition(tx, PAYOUTS, row, 'paid', {
              set: 'paid_at = now(), settle_at = NULL, provider_reference = coalesce(provider_reference, $1)',
              params: [outcome.reference],
            })
          : await transition(tx, PAYOUTS, row, 'failed', {
              set: `failure_code = $1, failure_message = $2, failed_at = now(), settle_at = NULL,
                provider_reference = coalesce(provider_reference, $3)`,
              params: [outcome.failureCode, outcome.failureMessage, outcome.reference],
            });
      const paid = settled.status === 'paid';
      await postLedgerEntry(tx, {
        merchantId: settled.merchant_id,
        livemode: settled.livemode,
        type: paid ? 'payout_paid' : 'payout_reversal',
        sourceId: settled.id,
        currency: settled.currency,
        // Signed as the available balance moves: a paid payout had already left it.
        amount: paid ? 0 : settled.amount,
        fee: 0,
        description: paid ? `Payout ${settled.id} paid` : `Payout ${settled.id} failed: returned`,
        postings: payoutPostings(paid ? 'payout_paid' : 'payout_reversal', settled.currency, settled.amount),
      });
      if (paid) await markPaymentsPaidOut(tx, settled);
      await recordEvent(tx, {
        merchantId: settled.merchant_id,
        livemode: settled.livemode,
        type: paid ? 'payout.paid' : 'payout.failed',
        object: payoutObject(settled),
      });
      return true;
    });
    if (changed) this.events.notify();
  }
}
