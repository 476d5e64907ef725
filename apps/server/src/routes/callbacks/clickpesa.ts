import Router from '@koa/router';
import { z } from 'zod';
import { AppError, notFound } from '@tz/core';
import {
  escrowTransferId,
  escrowTransferOf,
  payerFailure,
  paymentIdFromOrderReference,
  payoutFailure,
  payoutIdFromOrderReference,
  payoutSettlementOf,
  settlementOf,
} from '../../providers/clickpesa-rules.ts';
import type { Logger } from 'pino';
import { readJsonBody } from '../../http/body.ts';
import { validationError } from '../../http/errors.ts';
import type { RequestState } from '../../http/pipeline.ts';
import type { Services } from '../../services.ts';
import { CLICKPESA } from '../../providers/clickpesa.ts';
import { checksumMatches } from '../../providers/clickpesa-http.ts';
import type { ProviderOutcome } from '../../providers/provider.ts';

/** The path to register as the webhook URL in the ClickPesa dashboard. */
export const CLICKPESA_CALLBACK_PATH = '/callbacks/clickpesa';

// Only the fields we act on; ClickPesa sends more (customer, channel, timestamps), all covered by the checksum.
const callbackSchema = z.object({
  event: z.string().min(1),
  data: z.object({
    id: z.string().min(1).optional(),
    status: z.string().min(1),
    orderReference: z.string().min(1),
    collectedAmount: z.union([z.string(), z.number()]).optional(),
    collectedCurrency: z.string().optional(),
    message: z.string().optional(),
    notes: z.string().optional(),
  }),
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Where the checksum sits. The docs sign "the webhook payload" and exclude
 * `checksum`/`checksumMethod` from it; we accept it beside `event` (covering
 * the whole body) or inside `data` (covering `data`), never unsigned.
 */
function signatureValid(checksumKey: string, body: unknown): boolean {
  if (!isObject(body)) return false;
  if (body.checksum !== undefined) return checksumMatches(checksumKey, body, body.checksum);
  if (isObject(body.data) && body.data.checksum !== undefined)
    return checksumMatches(checksumKey, body.data, body.data.checksum);
  return false;
}

interface PaymentRef {
  id: string;
  status: string;
  amount: number;
  currency: string;
}

/**
 * POST /callbacks/clickpesa: ClickPesa's PAYMENT RECEIVED / PAYMENT FAILED
 * webhooks. A missing or wrong checksum is 401 and changes nothing; an order
 * reference that is not one of our live ClickPesa payments is 404; repeats
 * are acknowledged without effect.
 */
export function clickPesaCallbackRouter(
  services: Services,
  checksumKey: string,
  logger: Logger,
): Router<RequestState> {
  const router = new Router<RequestState>();
  router.post(CLICKPESA_CALLBACK_PATH, async (ctx) => {
    const { value } = await readJsonBody(ctx, services.config);
    if (!signatureValid(checksumKey, value)) {
      logger.warn(
        { requestId: ctx.state.requestId, ip: ctx.ip },
        'ClickPesa callback with a missing or wrong checksum refused',
      );
      throw new AppError(
        'signature_invalid',
        'The callback checksum is missing or does not match its payload',
      );
    }
    const parsed = callbackSchema.safeParse(value);
    if (!parsed.success) throw validationError(parsed.error, 'body', value);
    const { event, data } = parsed.data;

    if (event.toUpperCase().startsWith('PAYOUT')) {
      await applyPayoutCallback(services, logger, data);
      ctx.body = { received: true };
      return;
    }
    const settlement = settlementOf(data.status);
    // Deposit events and interim statuses are not payment outcomes.
    if (!event.toUpperCase().startsWith('PAYMENT') || settlement === undefined || settlement === 'pending') {
      ctx.body = { received: true };
      return;
    }
    const paymentId = paymentIdFromOrderReference(data.orderReference);
    if (!paymentId) throw notFound('payment', data.orderReference);
    const found = await services.database.pool.query<PaymentRef>(
      `SELECT id, status, amount, currency FROM payments WHERE id = $1 AND provider = $2 AND livemode`,
      [paymentId, CLICKPESA],
    );
    const payment = found.rows[0];
    if (!payment) throw notFound('payment', data.orderReference);

    const reference = data.id ?? null;
    let outcome: ProviderOutcome;
    if (settlement === 'paid') {
      const collected = data.collectedAmount === undefined ? undefined : Number(data.collectedAmount);
      if (
        (collected !== undefined && collected !== payment.amount) ||
        (data.collectedCurrency !== undefined && data.collectedCurrency.toUpperCase() !== payment.currency)
      ) {
        logger.error(
          { paymentId, collectedAmount: data.collectedAmount, collectedCurrency: data.collectedCurrency },
          'ClickPesa reports a collected amount that differs from the payment; not applied',
        );
        throw new AppError('parameter_invalid', 'The collected amount does not match the payment', {
          details: { 'data.collectedAmount': `expected ${payment.amount} ${payment.currency}` },
        });
      }
      outcome = { status: 'paid', reference: reference ?? data.orderReference };
    } else {
      const reason = payerFailure(data.message);
      outcome = { status: 'failed', reference, failureCode: reason.code, failureMessage: reason.message };
    }

    try {
      await services.payments.applyOutcome(payment.id, outcome);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'state_transition_invalid') throw error;
      // A late callback contradicting a final state (e.g. paid after we failed it) needs a person, not a retry loop.
      logger.error(
        { paymentId, status: payment.status, reported: outcome.status, providerId: data.id },
        'ClickPesa outcome contradicts the payment’s final state',
      );
    }
    ctx.body = { received: true };
  });
  return router;
}

/**
 * PAYOUT INITIATED / REFUNDED / REVERSED: SUCCESS pays the payout; FAILED,
 * REFUNDED or REVERSED fails it and returns its amount. An order reference
 * that is not one of our live ClickPesa payouts is 404; interim statuses and
 * repeats change nothing; a contradiction of a final state is logged.
 */
async function applyPayoutCallback(
  services: Services,
  logger: Logger,
  data: z.infer<typeof callbackSchema>['data'],
): Promise<void> {
  const transfer = escrowTransferOf(data.orderReference);
  if (transfer) return applyEscrowTransferCallback(services, data, transfer);
  const payoutId = payoutIdFromOrderReference(data.orderReference);
  if (!payoutId) throw notFound('payout', data.orderReference);
  const found = await services.database.pool.query<{ id: string; status: string }>(
    `SELECT id, status FROM payouts WHERE id = $1 AND provider = $2 AND livemode`,
    [payoutId, CLICKPESA],
  );
  const payout = found.rows[0];
  if (!payout) throw notFound('payout', data.orderReference);
  const outcome = payoutOutcomeOf(data);
  if (!outcome) return;
  try {
    await services.payouts.applyPayoutOutcome(payout.id, outcome);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'state_transition_invalid') throw error;
    logger.error(
      { payoutId, status: payout.status, reported: data.status, providerId: data.id },
      'ClickPesa payout outcome contradicts the payout’s final state',
    );
  }
}

/**
 * A payout whose order reference is an escrow split's attempt (`esp...`,
 * `esp...a2`): a live transfer from escrow to a phone. Not one of our live
 * phone splits, or an attempt not made yet, is 404; a repeat, a late outcome
 * for a split no longer sending, or one of an earlier attempt changes nothing.
 */
async function applyEscrowTransferCallback(
  services: Services,
  data: z.infer<typeof callbackSchema>['data'],
  transfer: { splitId: string; attempt: number },
): Promise<void> {
  const found = await services.database.pool.query(
    `SELECT s.id FROM escrow_splits s JOIN escrows e ON e.id = s.escrow_id
     WHERE s.id = $1 AND s.phone IS NOT NULL AND e.livemode AND s.transfer_attempt >= $2`,
    [transfer.splitId, transfer.attempt],
  );
  if (found.rowCount === 0) throw notFound('escrow_split', data.orderReference);
  const outcome = payoutOutcomeOf(data);
  if (outcome)
    await services.escrowTransfers.applyProviderOutcome(
      escrowTransferId(transfer.splitId, transfer.attempt),
      outcome,
    );
}

/** SUCCESS pays; FAILED, REFUNDED or REVERSED fails with a reason from the notes; interim statuses: none. */
function payoutOutcomeOf(data: z.infer<typeof callbackSchema>['data']): ProviderOutcome | undefined {
  const settlement = payoutSettlementOf(data.status);
  if (settlement === undefined || settlement === 'pending') return undefined;
  const reference = data.id ?? null;
  return settlement === 'paid'
    ? { status: 'paid', reference: reference ?? data.orderReference }
    : { status: 'failed', reference, ...failureOf(payoutFailure(data.notes ?? data.message)) };
}

const failureOf = (reason: { code: string; message: string }) => ({
  failureCode: reason.code,
  failureMessage: reason.message,
});
