/** What the payments section's tabs share: the API's objects, status badges, money and times. */
import type { ChangeEvent } from 'react';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { formatDateTime, formatMoney } from '../../shared.ts';

export interface Payment {
  id: string;
  amount: number;
  currency: string;
  status: 'pending' | 'paid' | 'failed' | 'refunded';
  fee: number | null;
  net: number | null;
  payout_status: 'not_applicable' | 'pending' | 'paid';
  payout: string | null;
  phone: string;
  network: string | null;
  description: string | null;
  customer: string | null;
  failure_code: string | null;
  failure_message: string | null;
  created: number;
  paid_at: number | null;
  refunded_at: number | null;
}

export { MOBILE_NETWORKS as NETWORKS, MOBILE_NETWORK_NAMES as NETWORK_NAMES } from '@tz/core';

export const STATUS_WORDS: Record<string, MessageKey> = {
  pending: 'payStatusPending',
  paid: 'payStatusPaid',
  failed: 'payStatusFailed',
  refunded: 'payStatusRefunded',
  succeeded: 'payStatusSucceeded',
  draft: 'payStatusDraft',
  open: 'payStatusOpen',
  void: 'payStatusVoid',
  uncollectible: 'payStatusUncollectible',
  active: 'payStatusActive',
  past_due: 'payStatusPastDue',
  canceled: 'payStatusCanceled',
  held: 'payStatusHeld',
  released: 'payStatusReleased',
  trialing: 'payStatusTrialing',
  partially_released: 'payStatusPartlyReleased',
  sending: 'payStatusSending',
};

export interface Invoice {
  id: string;
  number: string | null;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  customer: string;
  subscription: string | null;
  currency: string;
  lines: Array<{ description: string; quantity: number; unit_amount: number; amount: number; tax: number }>;
  subtotal: number;
  tax: number;
  total: number;
  amount_paid: number;
  amount_due: number;
  memo: string | null;
  due_date: number;
  hosted_invoice_url: string | null;
  created: number;
  sent_at: number | null;
}

/** A ledger line: what moved money, and which balance it moved. */
export interface Line {
  id: string;
  type: string;
  balance: string;
  source: string;
  amount: number;
  fee: number;
  net: number;
  currency: string;
  description: string | null;
  created: number;
}

const LINE_WORDS: Record<string, MessageKey> = {
  payment: 'payLinePayment',
  refund: 'payLineRefund',
  payout: 'payLinePayout',
  payout_paid: 'payLinePayoutPaid',
  payout_reversal: 'payLinePayoutReversal',
  escrow_hold: 'payLineEscrowHold',
  escrow_release: 'payLineEscrowRelease',
  escrow_refund: 'payLineEscrowRefund',
  referral_earning: 'payLineReferral',
  available: 'payBalanceAvailable',
  pending: 'payBalancePending',
  escrow: 'payBalanceEscrow',
  referral: 'payBalanceReferral',
};

/** A line's type or balance in the page's words (the API's name when it is new to the page). */
export function useLineWord(): (name: string) => string {
  const { t } = useI18n();
  return (name) => (LINE_WORDS[name] ? t(LINE_WORDS[name]) : name);
}

/** A status as a coloured badge in the page's words. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useI18n();
  const word = STATUS_WORDS[status];
  return (
    <span className={`badge status-${status}`} data-status={status}>
      {word ? t(word) : status}
    </span>
  );
}

/** An amount as `TZS 12,500`; null (not known yet) as a dash. */
export const money = (amount: number | null, currency = 'TZS') =>
  amount === null ? '—' : formatMoney(amount, currency);

/** Unix seconds as "25/11/2026 14:03" in the shop's time; null as a dash. */
export const when = (seconds: number | null) => (seconds === null ? '—' : formatDateTime(seconds * 1000));

/** "255712345678" as people write it: "+255 712 345 678". */
export const phoneText = (phone: string) =>
  /^255\d{9}$/.test(phone) ? `+255 ${phone.slice(3, 6)} ${phone.slice(6, 9)} ${phone.slice(9)}` : phone;

/** A labelled field for a Tanzanian mobile number, written any way (the API normalises it). */
export function PhoneField({
  value,
  onChange,
  testId,
  required = false,
}: {
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  testId: string;
  required?: boolean;
}) {
  const { t } = useI18n();
  return (
    <label>
      {t('payPhone')}
      <input
        type="tel"
        inputMode="tel"
        autoComplete="off"
        placeholder="0712 345 678"
        value={value}
        onChange={onChange}
        required={required}
        data-testid={testId}
      />
    </label>
  );
}
