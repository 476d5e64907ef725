/**
 * ClickPesa payouts (docs.clickpesa.com, "Payout API"): mobile money to
 * `phoneNumber`, or a bank transfer to `accountNumber`/`accountName` at a bank
 * named by its `bic`, each previewed first (`preview-...-payout` checks the
 * destination, the amount and ClickPesa's own balance) and then created
 * (`create-...-payout`) with our payout id as the order reference. Outcomes
 * arrive by the PAYOUT webhooks (http/clickpesa-callback.ts) or from the
 * status query `GET /payouts/{orderReference}`. See docs/PAYOUTS.md.
 */
import type { Logger } from 'pino';
import { orderReferenceFor, payoutFailure, payoutSettlementOf } from './clickpesa-rules.ts';
import type { PayoutOutcomeSink, PayoutRequest } from './provider.ts';
import {
  ClickPesaError,
  clickPesaChecksum,
  failed,
  messageOf,
  type ClickPesaCaller,
  type HttpResult,
  type ProviderView,
} from './clickpesa-http.ts';

/** ClickPesa pays out from a TZS account here (the currency our balances are collected in). */
const CURRENCY = 'TZS';

interface PayoutEntry {
  id: string;
  status: string;
  orderReference?: string;
  notes?: string;
  message?: string;
}

const isEntry = (value: unknown): value is PayoutEntry =>
  !!value &&
  typeof value === 'object' &&
  typeof (value as PayoutEntry).id === 'string' &&
  typeof (value as PayoutEntry).status === 'string';

/** A payout entry as our view: paid, failed (with a reason from its notes) or still on its way. */
function viewOf(entry: PayoutEntry): ProviderView {
  const settlement = payoutSettlementOf(entry.status);
  if (settlement === 'paid')
    return { state: 'final', reference: entry.id, outcome: { status: 'paid', reference: entry.id } };
  if (settlement === 'failed')
    return {
      state: 'final',
      reference: entry.id,
      outcome: failed(entry.id, payoutFailure(entry.notes ?? entry.message)),
    };
  return { state: 'pending', reference: entry.id };
}

function bodies(payout: PayoutRequest): {
  kind: string;
  preview: Record<string, unknown>;
  create: Record<string, unknown>;
} {
  const base = { amount: payout.amount, currency: CURRENCY, orderReference: orderReferenceFor(payout.id) };
  const { destination } = payout;
  if (destination.type === 'mobile_money') {
    const body = { ...base, phoneNumber: destination.phone };
    return { kind: 'mobile-money', preview: body, create: body };
  }
  const bank = {
    ...base,
    accountNumber: destination.accountNumber,
    bic: destination.bic ?? '',
    transferType: 'ACH',
  };
  return { kind: 'bank', preview: bank, create: { ...bank, accountName: destination.accountName } };
}

/**
 * Previews, then creates the payout. A refusal of either (400/422) fails the
 * payout with a code read from ClickPesa's message, and the money returns to
 * the available balance; a provider that surely never got the create call
 * throws (the payout service records provider_error); an ambiguous answer
 * (timeout, 5xx, 409) is settled by asking for the payout's status.
 */
export async function sendClickPesaPayout(
  client: ClickPesaCaller,
  sink: PayoutOutcomeSink,
  logger: Logger,
  payout: PayoutRequest,
): Promise<{ reference: string | null }> {
  if (payout.currency !== CURRENCY) {
    await sink.applyPayoutOutcome(
      payout.id,
      failed(null, { code: 'currency_unsupported', message: `Payouts are sent in ${CURRENCY} only` }),
    );
    return { reference: null };
  }
  const { kind, preview, create } = bodies(payout);
  const signed = (body: Record<string, unknown>) => ({
    ...body,
    checksum: clickPesaChecksum(client.options.checksumKey, body),
  });

  // Nothing is sent by a preview: any failure of it means the payout never started.
  const previewed = await client.call('POST', `/payouts/preview-${kind}-payout`, signed(preview));
  if (previewed.status < 200 || previewed.status >= 300) {
    if (previewed.status !== 400 && previewed.status !== 422)
      throw new ClickPesaError(`payout preview answered HTTP ${previewed.status}`, false, previewed.status);
    return refuse(sink, logger, payout.id, previewed);
  }

  let result: HttpResult;
  try {
    result = await client.call('POST', `/payouts/create-${kind}-payout`, signed(create));
  } catch (error) {
    if (error instanceof ClickPesaError && !error.reached) throw error;
    return settleAmbiguous(client, sink, logger, payout.id, error);
  }
  if (result.status >= 200 && result.status < 300) {
    if (!isEntry(result.body)) return { reference: null };
    const view = viewOf(result.body);
    if (view.state === 'final') await sink.applyPayoutOutcome(payout.id, view.outcome);
    return { reference: view.state === 'unknown' ? null : view.reference };
  }
  if (result.status === 409 || result.status >= 500)
    return settleAmbiguous(
      client,
      sink,
      logger,
      payout.id,
      new ClickPesaError(`payout answered HTTP ${result.status}`, true, result.status),
    );
  if (result.status === 400 || result.status === 422) return refuse(sink, logger, payout.id, result);
  throw new ClickPesaError(
    `payout answered HTTP ${result.status}: ${messageOf(result.body) ?? ''}`,
    true,
    result.status,
  );
}

async function refuse(
  sink: PayoutOutcomeSink,
  logger: Logger,
  payoutId: string,
  result: HttpResult,
): Promise<{ reference: null }> {
  const message = messageOf(result.body);
  const reason = payoutFailure(message);
  if (reason.code === 'provider_error')
    logger.error(
      { err: new ClickPesaError(message ?? 'no message', true, result.status) },
      `ClickPesa refused payout ${payoutId}`,
    );
  await sink.applyPayoutOutcome(payoutId, failed(null, reason));
  return { reference: null };
}

/** The create call may or may not have arrived: ask before deciding, as for payments. */
async function settleAmbiguous(
  client: ClickPesaCaller,
  sink: PayoutOutcomeSink,
  logger: Logger,
  payoutId: string,
  cause: unknown,
): Promise<{ reference: string | null }> {
  let view: ProviderView;
  try {
    view = await lookupClickPesaPayout(client, payoutId);
  } catch (error) {
    logger.error(
      { err: error },
      `ClickPesa status of payout ${payoutId} unknown after: ${String(cause)}; left pending`,
    );
    return { reference: null };
  }
  if (view.state === 'unknown')
    throw new ClickPesaError(`ClickPesa has no record of payout ${payoutId}`, true, undefined, { cause });
  if (view.state === 'final') await sink.applyPayoutOutcome(payoutId, view.outcome);
  return { reference: view.reference };
}

/** The payout status query by order reference; a SUCCESS among several entries wins. */
export async function lookupClickPesaPayout(
  client: ClickPesaCaller,
  payoutId: string,
): Promise<ProviderView> {
  const orderReference = orderReferenceFor(payoutId);
  const result = await client.call('GET', `/payouts/${encodeURIComponent(orderReference)}`);
  if (result.status === 404) return { state: 'unknown' };
  if (result.status < 200 || result.status >= 300)
    throw new ClickPesaError(`payout status query answered HTTP ${result.status}`, true, result.status);
  const entries = (Array.isArray(result.body) ? result.body : [result.body])
    .filter(isEntry)
    .filter((entry) => entry.orderReference === undefined || entry.orderReference === orderReference);
  if (entries.length === 0) return { state: 'unknown' };
  const paid = entries.find((entry) => payoutSettlementOf(entry.status) === 'paid');
  return viewOf(paid ?? entries[entries.length - 1]!);
}
