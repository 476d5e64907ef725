import http from 'node:http';
import { createHmac, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { fakePayoutApi } from './clickpesa-fake-payouts.ts';

/**
 * A local stand-in for the ClickPesa API (https://docs.clickpesa.com), on a
 * real HTTP port. It checks what the adapter sends (token headers, bearer
 * token, body fields, checksum) and, like ClickPesa, POSTs a checksummed
 * webhook to the registered URL a little after a USSD push is accepted.
 *
 * Payer behaviour by phone number:
 *   255754000001 pays, 255754000002 fails ("Insufficient balance"),
 *   255754000003 never answers (stays PROCESSING, no webhook),
 *   255754000009 is refused at initiation (400 "Invalid phone number").
 * Payouts: see clickpesa-fake-payouts.ts.
 */
export const FAKE_PHONES = {
  pays: '255754000001',
  insufficient: '255754000002',
  silent: '255754000003',
  refused: '255754000009',
} as const;

export interface FakeCredentials {
  clientId: string;
  apiKey: string;
  checksumKey: string;
}

/** The server settings that point live mode at a fake on `baseUrl` (reconciler off: tests call it). */
export const providerEnvFor = (baseUrl: string, credentials: FakeCredentials) => ({
  PROVIDER_BASE_URL: `${baseUrl}/third-parties`,
  PROVIDER_CLIENT_ID: credentials.clientId,
  PROVIDER_API_KEY: credentials.apiKey,
  PROVIDER_CHECKSUM_KEY: credentials.checksumKey,
  PROVIDER_TIMEOUT_MS: '3000',
  PROVIDER_RECONCILE_INTERVAL_MS: '0',
});

interface FakePayment {
  id: string;
  status: 'PROCESSING' | 'SUCCESS' | 'FAILED';
  orderReference: string;
  amount: string;
  phone: string;
  message: string;
  createdAt: string;
  updatedAt: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** Why the fake refused the request, if it did. */
  problem?: string;
}

/** Independent of the adapter's code on purpose: the docs' canonical form, written again. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** HMAC-SHA256 hex over the canonical payload, `checksum` and `checksumMethod` left out. */
export function fakeChecksum(key: string, payload: Record<string, unknown>): string {
  const { checksum: _checksum, checksumMethod: _method, ...signed } = payload;
  return createHmac('sha256', key).update(canonical(signed)).digest('hex');
}

export async function startFakeClickPesa(
  credentials: FakeCredentials,
  options: { callbackDelayMs?: number } = {},
) {
  const requests: RecordedRequest[] = [];
  const payments = new Map<string, FakePayment>();
  const callbacks: Array<{ body: any; status: number; response: any }> = [];
  const validTokens = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let tokenCount = 0;
  let callbackUrl: string | undefined;
  /** One-shot faults for the next initiation. */
  let nextInitiation: 'accept-then-502' | 'reject-502' | undefined;

  const postWebhook = async (body: Record<string, unknown>) => {
    if (!callbackUrl) return;
    const response = await fetch(callbackUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    callbacks.push({ body, status: response.status, response: text ? JSON.parse(text) : undefined });
  };
  const payouts = fakePayoutApi(
    credentials,
    (run, delayMs) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        run();
      }, delayMs);
      timers.add(timer);
    },
    postWebhook,
    options.callbackDelayMs ?? 150,
  );
  const state = {
    url: '',
    requests,
    payments,
    /** The payout API: its payouts, its balance, lost callbacks (clickpesa-fake-payouts.ts). */
    payouts,
    callbacks,
    get tokenRequests() {
      return requests.filter((r) => r.path === '/third-parties/generate-token').length;
    },
    setCallbackUrl(url: string) {
      callbackUrl = url;
    },
    /** Invalidates every issued token, as ClickPesa does when checksum settings change. */
    revokeTokens() {
      validTokens.clear();
    },
    failNextInitiation(fault: 'accept-then-502' | 'reject-502') {
      nextInitiation = fault;
    },
    /** Settles a payment on the provider's side without sending the webhook (a lost callback). */
    settleSilently(orderReference: string, status: 'SUCCESS' | 'FAILED', message = 'success') {
      const payment = payments.get(orderReference);
      if (!payment) throw new Error(`fake has no payment ${orderReference}`);
      Object.assign(payment, { status, message, updatedAt: new Date().toISOString() });
    },
    /** The webhook body ClickPesa would send for a payment, checksummed unless told otherwise. */
    webhookBody(
      orderReference: string,
      overrides: { status?: 'SUCCESS' | 'FAILED'; message?: string; key?: string } = {},
    ) {
      const payment = payments.get(orderReference);
      const status = overrides.status ?? payment?.status ?? 'SUCCESS';
      const body: Record<string, unknown> = {
        event: status === 'SUCCESS' ? 'PAYMENT RECEIVED' : 'PAYMENT FAILED',
        data: {
          id: payment?.id ?? `CP${randomUUID().replace(/-/g, '').slice(0, 14).toUpperCase()}`,
          status,
          paymentReference: randomUUID().replace(/-/g, ''),
          orderReference,
          collectedAmount: payment?.amount ?? '1000',
          collectedCurrency: 'TZS',
          message: overrides.message ?? payment?.message ?? 'success',
          channel: 'M-PESA',
          updatedAt: new Date().toISOString(),
          createdAt: payment?.createdAt ?? new Date().toISOString(),
          customer: {
            customerName: 'Asha Juma',
            customerPhoneNumber: payment?.phone ?? FAKE_PHONES.pays,
            customerEmail: null,
          },
        },
      };
      body.checksum = fakeChecksum(overrides.key ?? credentials.checksumKey, body);
      return body;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const sendWebhook = (payment: FakePayment) => postWebhook(state.webhookBody(payment.orderReference));

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      const record: RecordedRequest = {
        method: req.method ?? '',
        path,
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
      };
      requests.push(record);
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const refuse = (status: number, message: string) => {
        record.problem = message;
        reply(status, {
          statusCode: status,
          message,
          error: status === 401 ? 'Unauthorized' : 'Bad Request',
        });
      };

      if (req.method === 'POST' && path === '/third-parties/generate-token') {
        if (
          req.headers['client-id'] !== credentials.clientId ||
          req.headers['api-key'] !== credentials.apiKey
        ) {
          return refuse(401, 'Invalid client-id or api-key');
        }
        const token = `Bearer tok${++tokenCount}.${randomUUID()}`;
        validTokens.add(token);
        return reply(200, { success: true, token });
      }
      if (!validTokens.has(String(req.headers.authorization))) return refuse(401, 'Unauthorized');

      if (req.method === 'POST' && path === '/third-parties/payments/initiate-ussd-push-request') {
        const body = record.body as Record<string, unknown> | undefined;
        if (!body || typeof body.amount !== 'string' || !/^\d+(\.\d+)?$/.test(body.amount))
          return refuse(400, 'amount must be a numeric string');
        if (body.currency !== 'TZS') return refuse(400, 'currency must be TZS');
        if (typeof body.orderReference !== 'string' || !/^[A-Za-z0-9]+$/.test(body.orderReference)) {
          return refuse(400, 'orderReference must be alphanumeric');
        }
        if (typeof body.phoneNumber !== 'string' || !/^255\d{9}$/.test(body.phoneNumber))
          return refuse(400, 'Invalid phone number');
        if (body.checksum !== fakeChecksum(credentials.checksumKey, body))
          return refuse(400, 'Invalid checksum');
        const unexpected = Object.keys(body).filter(
          (k) => !['amount', 'currency', 'orderReference', 'phoneNumber', 'checksum'].includes(k),
        );
        if (unexpected.length) return refuse(400, `property ${unexpected[0]} should not exist`);
        if (payments.has(body.orderReference)) return refuse(409, 'Order reference already exists');
        if (body.phoneNumber === FAKE_PHONES.refused) return refuse(400, 'Invalid phone number');
        const fault = nextInitiation;
        nextInitiation = undefined;
        if (fault === 'reject-502') return refuse(502, 'Bad gateway');

        const now = new Date().toISOString();
        const payment: FakePayment = {
          id: `CP${randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase()}`,
          status: 'PROCESSING',
          orderReference: body.orderReference,
          amount: body.amount,
          phone: body.phoneNumber,
          message: 'processing',
          createdAt: now,
          updatedAt: now,
        };
        payments.set(payment.orderReference, payment);
        if (body.phoneNumber !== FAKE_PHONES.silent) {
          const timer = setTimeout(() => {
            timers.delete(timer);
            if (body.phoneNumber === FAKE_PHONES.insufficient)
              state.settleSilently(payment.orderReference, 'FAILED', 'Insufficient balance');
            else state.settleSilently(payment.orderReference, 'SUCCESS', 'success');
            sendWebhook(payment).catch(() => undefined);
          }, options.callbackDelayMs ?? 150);
          timers.add(timer);
        }
        if (fault === 'accept-then-502') return refuse(502, 'Bad gateway');
        return reply(200, {
          id: payment.id,
          status: payment.status,
          channel: 'M-PESA',
          orderReference: payment.orderReference,
          collectedAmount: payment.amount,
          collectedCurrency: 'TZS',
          createdAt: payment.createdAt,
          clientId: credentials.clientId,
        });
      }

      const query = /^\/third-parties\/payments\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && query) {
        const payment = payments.get(decodeURIComponent(query[1]!));
        if (!payment) return refuse(404, 'Payment not found');
        return reply(200, [
          {
            id: payment.id,
            status: payment.status,
            paymentReference: 'ref',
            orderReference: payment.orderReference,
            collectedAmount: Number(payment.amount),
            collectedCurrency: 'TZS',
            message: payment.message,
            updatedAt: payment.updatedAt,
            createdAt: payment.createdAt,
            customer: { customerName: 'Asha Juma', customerPhoneNumber: payment.phone },
            clientId: credentials.clientId,
          },
        ]);
      }
      if (payouts.handle(record.method, path, record.body, reply, refuse)) return;
      refuse(404, `Cannot ${req.method} ${path}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

export type FakeClickPesa = Awaited<ReturnType<typeof startFakeClickPesa>>;
