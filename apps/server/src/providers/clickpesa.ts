import type { Logger } from 'pino';
import {
  initiationRefusal,
  orderReferenceFor,
  payerFailure,
  PROVIDER_ERROR,
  settlementOf,
} from './clickpesa-rules.ts';
import type { Config } from '../config.ts';
import type {
  OutcomeSink,
  PaymentProvider,
  PaymentRequest,
  PayoutOutcomeSink,
  PayoutProvider,
  PayoutRequest,
} from './provider.ts';
import { sendClickPesaPayout, lookupClickPesaPayout } from './clickpesa-payouts.ts';
import {
  ClickPesaError,
  clickPesaChecksum,
  failed,
  messageOf,
  type HttpResult,
  type ProviderView,
} from './clickpesa-http.ts';

/**
 * ClickPesa (https://docs.clickpesa.com) collection by USSD push: a JWT from
 * `generate-token`, `initiate-ussd-push-request` with our payment as the order
 * reference, outcomes by signed webhook (see http/clickpesa-callback.ts) and the
 * payment status query for reconciliation. Choices and sources: docs/PROVIDERS.md.
 */
export interface ClickPesaOptions {
  /** API root including `/third-parties`, e.g. https://api.clickpesa.com/third-parties */
  baseUrl: string;
  clientId: string;
  apiKey: string;
  /** The application's checksum key: signs our requests, verifies webhooks. */
  checksumKey: string;
  timeoutMs: number;
  /** Tokens live one hour; they are reused until this long after issue. */
  tokenReuseMs?: number;
}

export const CLICKPESA = 'clickpesa';
/** ClickPesa collects in TZS only (the initiate endpoint's currency enum). */
const CURRENCY = 'TZS';
const TOKEN_REUSE_MS = 55 * 60_000;
/** Errors that mean the request never reached the provider. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The live provider settings, or undefined when live mode is not configured. Half a configuration is an error. */
export function clickPesaOptionsFrom(config: Config): ClickPesaOptions | undefined {
  const settings = {
    PROVIDER_BASE_URL: config.PROVIDER_BASE_URL,
    PROVIDER_CLIENT_ID: config.PROVIDER_CLIENT_ID,
    PROVIDER_API_KEY: config.PROVIDER_API_KEY,
    PROVIDER_CHECKSUM_KEY: config.PROVIDER_CHECKSUM_KEY,
  };
  const missing = Object.entries(settings)
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length === 4) return undefined;
  if (missing.length > 0) {
    // Without every one of them live payments could start but never be confirmed (no checksum key) or never start.
    throw new Error(`Invalid configuration: live payments need ${missing.join(', ')} as well`);
  }
  return {
    baseUrl: settings.PROVIDER_BASE_URL!.replace(/\/+$/, ''),
    clientId: settings.PROVIDER_CLIENT_ID!,
    apiKey: settings.PROVIDER_API_KEY!,
    checksumKey: settings.PROVIDER_CHECKSUM_KEY!,
    timeoutMs: config.PROVIDER_TIMEOUT_MS,
  };
}

/** One entry of the payment status query (GET /payments/{orderReference}). */
export interface ClickPesaPayment {
  id: string;
  status: string;
  orderReference: string;
  message?: string;
  collectedAmount?: string | number;
  collectedCurrency?: string;
  updatedAt?: string;
}

export class ClickPesaProvider implements PaymentProvider, PayoutProvider {
  readonly name = CLICKPESA;
  private token: { value: string; reuseUntil: number } | undefined;
  private tokenRequest: Promise<string> | undefined;

  constructor(
    readonly options: ClickPesaOptions,
    private readonly sink: OutcomeSink & PayoutOutcomeSink,
    private readonly logger: Logger,
  ) {}

  /** Sends a payout: preview, then create (see clickpesa-payouts.ts). */
  sendPayout(payout: PayoutRequest): Promise<{ reference: string | null }> {
    return sendClickPesaPayout(this, this.sink, this.logger, payout);
  }

  /** What ClickPesa knows of a payout; a final answer is applied (for lost callbacks). */
  async reconcilePayout(payoutId: string): Promise<ProviderView> {
    const view = await lookupClickPesaPayout(this, payoutId);
    if (view.state === 'final') await this.sink.applyPayoutOutcome(payoutId, view.outcome);
    return view;
  }

  /**
   * Sends the USSD push. Resolves with ClickPesa's transaction id; a refusal
   * about the payer or amount fails the payment with its own code; a provider
   * that cannot be reached throws (the payment service records provider_error).
   */
  async initiate(payment: PaymentRequest): Promise<{ reference: string | null }> {
    if (payment.currency !== CURRENCY) {
      await this.sink.applyOutcome(
        payment.id,
        failed(null, {
          code: 'currency_unsupported',
          message: `Mobile money collection is in ${CURRENCY} only`,
        }),
      );
      return { reference: null };
    }
    const body: Record<string, unknown> = {
      amount: String(payment.amount),
      currency: CURRENCY,
      orderReference: orderReferenceFor(payment.id),
      phoneNumber: payment.phone,
    };
    body.checksum = clickPesaChecksum(this.options.checksumKey, body);

    let result: HttpResult;
    try {
      result = await this.call('POST', '/payments/initiate-ussd-push-request', body);
    } catch (error) {
      if (error instanceof ClickPesaError && !error.reached) throw error;
      return this.settleAmbiguous(payment.id, error);
    }
    if (result.status >= 200 && result.status < 300) {
      const id = (result.body as { id?: unknown } | null)?.id;
      return { reference: typeof id === 'string' && id ? id : null };
    }
    // 409: the order reference is already known (our earlier attempt got through); 5xx: it may have.
    if (result.status === 409 || result.status >= 500) {
      return this.settleAmbiguous(
        payment.id,
        new ClickPesaError(`initiation answered HTTP ${result.status}`, true, result.status),
      );
    }
    if (result.status === 400 || result.status === 422) {
      const providerMessage = messageOf(result.body);
      const reason = initiationRefusal(providerMessage);
      if (reason === PROVIDER_ERROR)
        this.logger.error(
          { err: new ClickPesaError(providerMessage ?? 'no message', true, result.status) },
          `ClickPesa refused payment ${payment.id}`,
        );
      await this.sink.applyOutcome(payment.id, failed(null, reason));
      return { reference: null };
    }
    throw new ClickPesaError(
      `initiation answered HTTP ${result.status}: ${messageOf(result.body) ?? ''}`,
      true,
      result.status,
    );
  }

  /** What ClickPesa knows of a payment (payment status query by order reference). */
  async lookup(paymentId: string): Promise<ProviderView> {
    const orderReference = orderReferenceFor(paymentId);
    const result = await this.call('GET', `/payments/${encodeURIComponent(orderReference)}`);
    if (result.status === 404) return { state: 'unknown' };
    if (result.status < 200 || result.status >= 300) {
      throw new ClickPesaError(`status query answered HTTP ${result.status}`, true, result.status);
    }
    const entries = (Array.isArray(result.body) ? result.body : [result.body]).filter(
      (entry): entry is ClickPesaPayment =>
        !!entry &&
        typeof entry === 'object' &&
        typeof (entry as ClickPesaPayment).status === 'string' &&
        typeof (entry as ClickPesaPayment).id === 'string' &&
        (entry as ClickPesaPayment).orderReference === orderReference,
    );
    if (entries.length === 0) return { state: 'unknown' };
    // A paid attempt wins over any other; otherwise the most recently updated.
    const latest =
      entries.find((entry) => settlementOf(entry.status) === 'paid') ??
      [...entries].sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''))[0]!;
    const settlement = settlementOf(latest.status);
    if (settlement === 'paid')
      return { state: 'final', reference: latest.id, outcome: { status: 'paid', reference: latest.id } };
    if (settlement === 'failed')
      return {
        state: 'final',
        reference: latest.id,
        outcome: failed(latest.id, payerFailure(latest.message)),
      };
    return { state: 'pending', reference: latest.id };
  }

  /** Asks ClickPesa for a payment's status and applies a final one; for lost callbacks. */
  async reconcile(paymentId: string): Promise<ProviderView> {
    const view = await this.lookup(paymentId);
    if (view.state === 'final') await this.sink.applyOutcome(paymentId, view.outcome);
    return view;
  }

  /**
   * After a timeout, a reset connection, a 5xx or a 409 the push may or may
   * not have gone out: ask before deciding. Unknown to the provider means it
   * never started (provider_error); no answer leaves it pending for the reconciler.
   */
  private async settleAmbiguous(paymentId: string, cause: unknown): Promise<{ reference: string | null }> {
    let view: ProviderView;
    try {
      view = await this.lookup(paymentId);
    } catch (error) {
      this.logger.error(
        { err: error },
        `ClickPesa status of ${paymentId} unknown after: ${String(cause)}; left pending`,
      );
      return { reference: null };
    }
    if (view.state === 'unknown')
      throw new ClickPesaError(`ClickPesa has no record of ${paymentId}`, true, undefined, { cause });
    if (view.state === 'final') await this.sink.applyOutcome(paymentId, view.outcome);
    return { reference: view.reference };
  }

  /** A bearer token, fetched once and shared by concurrent callers until shortly before it expires. */
  private async bearer(): Promise<string> {
    if (this.token && Date.now() < this.token.reuseUntil) return this.token.value;
    this.tokenRequest ??= this.fetchToken().finally(() => {
      this.tokenRequest = undefined;
    });
    return this.tokenRequest;
  }

  private async fetchToken(): Promise<string> {
    const result = await this.send('POST', '/generate-token', {
      'client-id': this.options.clientId,
      'api-key': this.options.apiKey,
    });
    const token = (result.body as { token?: unknown } | null)?.token;
    if (result.status < 200 || result.status >= 300 || typeof token !== 'string' || !token) {
      // A refused token request means no payment request was sent either.
      throw new ClickPesaError(
        `token request answered HTTP ${result.status}: ${messageOf(result.body) ?? ''}`,
        false,
        result.status,
      );
    }
    // The documented token already carries its "Bearer " prefix.
    const value = /^bearer\s/i.test(token) ? token : `Bearer ${token}`;
    this.token = { value, reuseUntil: Date.now() + (this.options.tokenReuseMs ?? TOKEN_REUSE_MS) };
    return value;
  }

  /**
   * An authorised call; a 401 drops the token (ClickPesa revokes tokens when checksum settings change) and
   * retries once. The payout adapter (clickpesa-payouts.ts) calls through it too.
   */
  async call(method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<HttpResult> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.bearer();
      const result = await this.send(method, path, { Authorization: token }, body);
      if (result.status !== 401 || attempt > 0) return result;
      if (this.token?.value === token) this.token = undefined;
    }
  }

  private async send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<HttpResult> {
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl}${path}`, {
        method,
        headers: {
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? null : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const code = (error as { cause?: { code?: unknown } }).cause?.code;
      const reached = !(typeof code === 'string' && UNREACHABLE_CODES.has(code));
      throw new ClickPesaError(
        `${method} ${path} failed: ${(error as Error).message}${typeof code === 'string' ? ` (${code})` : ''}`,
        reached,
        undefined,
        { cause: error },
      );
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new ClickPesaError(`${method} ${path}: response unreadable`, true, response.status, {
        cause: error,
      });
    }
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = { message: text.slice(0, 200) };
    }
    return { status: response.status, body: parsed };
  }
}
