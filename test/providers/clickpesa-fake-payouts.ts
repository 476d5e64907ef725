import { randomUUID } from 'node:crypto';
import { fakeChecksum, type FakeCredentials } from './clickpesa-fake.ts';

/**
 * The fake's payout API (docs.clickpesa.com "Payout API"): preview and create
 * for mobile money and bank payouts, the status query, and the PAYOUT webhooks
 * a little after a payout is created. Its own ClickPesa balance is `float`.
 *
 * By destination: 255754000001 (or a bank account ending 01) is paid;
 * 255754000002 (or ending 02) is reversed ("Beneficiary account not registered");
 * 255754000003 (or ending 03) stays AUTHORIZED without a webhook;
 * 255754000009 is refused by the preview ("Invalid phone number").
 */
export const FAKE_PAYOUT_PHONES = {
  pays: '255754000001',
  reversed: '255754000002',
  silent: '255754000003',
  refused: '255754000009',
} as const;

export interface FakePayout {
  id: string;
  status: 'AUTHORIZED' | 'SUCCESS' | 'REVERSED';
  orderReference: string;
  amount: number;
  channel: 'MOBILE MONEY' | 'BANK TRANSFER';
  accountNumber: string;
  notes: string;
  createdAt: string;
  updatedAt: string;
}

type Reply = (status: number, body: unknown) => void;
type Refuse = (status: number, message: string) => void;

const MOBILE_FIELDS = ['amount', 'currency', 'orderReference', 'phoneNumber', 'checksum'];
const BANK_PREVIEW_FIELDS = [
  'amount',
  'currency',
  'orderReference',
  'accountNumber',
  'bic',
  'transferType',
  'checksum',
];

export function fakePayoutApi(
  credentials: FakeCredentials,
  schedule: (run: () => void, delayMs: number) => void,
  sendWebhook: (body: Record<string, unknown>) => Promise<void>,
  callbackDelayMs: number,
) {
  const payouts = new Map<string, FakePayout>();
  const api = {
    payouts,
    /** ClickPesa's own balance, which a payout's preview checks. */
    float: 10_000_000,
    /**
     * The next create answers 502: without creating the payout (`reject-502`), or
     * after creating it (`accept-then-502`): an answer that says nothing of the outcome.
     */
    failNextCreate: undefined as 'reject-502' | 'accept-then-502' | undefined,
    /** Settles a payout on the provider's side without sending the webhook (a lost callback). */
    settleSilently(orderReference: string, status: 'SUCCESS' | 'REVERSED', notes = '') {
      const payout = payouts.get(orderReference);
      if (!payout) throw new Error(`fake has no payout ${orderReference}`);
      Object.assign(payout, { status, notes, updatedAt: new Date().toISOString() });
    },
    webhookBody(payout: FakePayout, key = credentials.checksumKey) {
      const body: Record<string, unknown> = {
        event: payout.status === 'SUCCESS' ? 'PAYOUT INITIATED' : 'PAYOUT REVERSED',
        data: {
          id: payout.id,
          orderReference: payout.orderReference,
          amount: `${payout.amount}.00`,
          currency: 'TZS',
          fee: '47.00',
          status: payout.status,
          channel: payout.channel,
          channelProvider: payout.channel === 'MOBILE MONEY' ? 'MPESA TANZANIA' : 'CRDB BANK PLC',
          notes: payout.notes,
          beneficiary: { accountNumber: payout.accountNumber, accountName: 'Asha Juma' },
          createdAt: payout.createdAt,
          updatedAt: payout.updatedAt,
        },
      };
      body.checksum = fakeChecksum(key, body);
      return body;
    },
    /** Handles a payout request; false when the path is not a payout one. */
    handle(method: string, path: string, body: any, reply: Reply, refuse: Refuse): boolean {
      const action = /^\/third-parties\/payouts\/(preview|create)-(mobile-money|bank)-payout$/.exec(path);
      if (method === 'POST' && action) {
        const [, step, kind] = action;
        const fields =
          kind === 'mobile-money'
            ? MOBILE_FIELDS
            : step === 'preview'
              ? BANK_PREVIEW_FIELDS
              : [...BANK_PREVIEW_FIELDS, 'accountName'];
        const problem = problemWith(body, fields, kind === 'bank', step === 'create');
        if (problem) {
          refuse(400, problem);
          return true;
        }
        if (body.checksum !== fakeChecksum(credentials.checksumKey, body)) {
          refuse(400, 'Invalid checksum');
          return true;
        }
        const account: string = kind === 'mobile-money' ? body.phoneNumber : body.accountNumber;
        if (account === FAKE_PAYOUT_PHONES.refused) {
          refuse(400, 'Invalid phone number');
          return true;
        }
        if (body.amount + 47 > api.float) {
          refuse(400, 'Insufficient balance');
          return true;
        }
        if (step === 'preview') {
          reply(200, {
            amount: body.amount + 47,
            balance: api.float,
            fee: 47,
            channelProvider: kind === 'bank' ? 'CRDB BANK PLC' : 'MPESA TANZANIA',
            order: { amount: body.amount, currency: 'TZS', id: body.orderReference },
            payoutFeeBearer: 'merchant',
            receiver: { accountNumber: account },
          });
          return true;
        }
        const fault = api.failNextCreate;
        api.failNextCreate = undefined;
        if (fault === 'reject-502') {
          refuse(502, 'Bad gateway');
          return true;
        }
        if (payouts.has(body.orderReference)) {
          refuse(409, 'Order reference already exists');
          return true;
        }
        api.float -= body.amount + 47;
        const now = new Date().toISOString();
        const payout: FakePayout = {
          id: `PO${randomUUID().replace(/-/g, '').slice(0, 14).toUpperCase()}`,
          status: 'AUTHORIZED',
          orderReference: body.orderReference,
          amount: body.amount,
          channel: kind === 'bank' ? 'BANK TRANSFER' : 'MOBILE MONEY',
          accountNumber: account,
          notes: '',
          createdAt: now,
          updatedAt: now,
        };
        payouts.set(payout.orderReference, payout);
        if (!account.endsWith('03')) {
          schedule(() => {
            if (account.endsWith('02'))
              api.settleSilently(payout.orderReference, 'REVERSED', 'Beneficiary account not registered');
            else api.settleSilently(payout.orderReference, 'SUCCESS');
            sendWebhook(api.webhookBody(payout)).catch(() => undefined);
          }, callbackDelayMs);
        }
        if (fault === 'accept-then-502') {
          refuse(502, 'Bad gateway');
          return true;
        }
        reply(200, {
          id: payout.id,
          orderReference: payout.orderReference,
          amount: `${payout.amount + 47}.00`,
          currency: 'TZS',
          fee: '47.00',
          status: payout.status,
          channel: payout.channel,
          beneficiary: { accountNumber: account, accountName: 'Asha Juma' },
          createdAt: now,
          updatedAt: now,
          clientId: credentials.clientId,
        });
        return true;
      }
      const query = /^\/third-parties\/payouts\/([^/]+)$/.exec(path);
      if (method === 'GET' && query) {
        const payout = payouts.get(decodeURIComponent(query[1]!));
        if (!payout) refuse(404, 'Payout not found');
        else reply(200, [{ ...payout, amount: `${payout.amount}.00`, currency: 'TZS', fee: '47.00' }]);
        return true;
      }
      return false;
    },
  };
  return api;
}

function problemWith(body: any, fields: string[], bank: boolean, create: boolean): string | undefined {
  if (!body || typeof body.amount !== 'number' || !Number.isInteger(body.amount) || body.amount <= 0)
    return 'amount must be a positive number';
  if (body.currency !== 'TZS') return 'currency must be TZS';
  if (typeof body.orderReference !== 'string' || !/^[A-Za-z0-9]+$/.test(body.orderReference))
    return 'orderReference must be alphanumeric';
  if (!bank && (typeof body.phoneNumber !== 'string' || !/^255\d{9}$/.test(body.phoneNumber)))
    return 'Invalid phone number';
  if (bank && (typeof body.accountNumber !== 'string' || typeof body.bic !== 'string' || !body.bic))
    return 'accountNumber and bic are required';
  if (bank && body.transferType !== 'ACH' && body.transferType !== 'RTGS')
    return 'transferType must be ACH or RTGS';
  if (bank && create && typeof body.accountName !== 'string') return 'accountName is required';
  const unexpected = Object.keys(body).filter((key) => !fields.includes(key));
  return unexpected.length ? `property ${unexpected[0]} should not exist` : undefined;
}
