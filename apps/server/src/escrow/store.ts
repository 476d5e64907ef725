import {
  ESCROW_SPLIT_STATES,
  ESCROW_STATES,
  escrowReleasePostings,
  escrowStatusOf,
  type Currency,
  type EscrowSplitStatus,
  type EscrowStatus,
} from '@tz/core';
import type { Queryable } from '../db/database.ts';
import { recordEvent } from '../infra/events.ts';
import type { EventType } from '../infra/event-types.ts';
import { postLedgerEntry } from '../ledger/service.ts';
import { storedStates, transition } from '../infra/transitions.ts';
import { unixOrNull, unixSeconds } from '../infra/time.ts';

const ESCROWS = storedStates(ESCROW_STATES, 'escrows');
const SPLITS = storedStates(ESCROW_SPLIT_STATES, 'escrow_splits');

/** Escrow rows, their API object, and the steps release and transfer outcomes share. */
export interface EscrowRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  payment_id: string;
  currency: Currency;
  amount: number;
  platform_fee: number;
  fee_collected: boolean;
  status: EscrowStatus;
  refunded_amount: number;
  description: string | null;
  metadata: Record<string, string>;
  created_at: Date;
  released_at: Date | null;
  refunded_at: Date | null;
}

export interface SplitRow {
  id: string;
  escrow_id: string;
  position: number;
  recipient_merchant_id: string | null;
  phone: string | null;
  network: string | null;
  amount: number;
  status: EscrowSplitStatus;
  description: string | null;
  transfer_reference: string | null;
  /** The transfer to the phone under way or last made (docs/ESCROW.md); 0 before the first. */
  transfer_attempt: number;
  failure_code: string | null;
  failure_message: string | null;
  released_at: Date | null;
}

const sum = (splits: readonly SplitRow[], ...statuses: EscrowSplitStatus[]) =>
  splits.filter((s) => statuses.includes(s.status)).reduce((total, s) => total + s.amount, 0);

/** What the escrow account still holds for this escrow: unreleased splits, and the fee until it is taken. */
export const stillHeld = (row: EscrowRow, splits: readonly SplitRow[]): number =>
  row.status === 'refunded' ? 0 : sum(splits, 'held', 'sending') + (row.fee_collected ? 0 : row.platform_fee);

export const escrowObject = (row: EscrowRow, splits: readonly SplitRow[]) => ({
  id: row.id,
  object: 'escrow' as const,
  payment: row.payment_id,
  amount: row.amount,
  currency: row.currency,
  platform_fee: row.platform_fee,
  fee_collected: row.fee_collected,
  status: row.status,
  held_amount: stillHeld(row, splits),
  released_amount: sum(splits, 'released'),
  refunded_amount: row.refunded_amount,
  splits: splits.map((split) => ({
    id: split.id,
    object: 'escrow_split' as const,
    merchant: split.recipient_merchant_id,
    phone: split.phone,
    network: split.network,
    amount: split.amount,
    status: split.status,
    description: split.description,
    failure_code: split.failure_code,
    failure_message: split.failure_message,
    released_at: unixOrNull(split.released_at),
  })),
  description: row.description,
  metadata: row.metadata,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  released_at: unixOrNull(row.released_at),
  refunded_at: unixOrNull(row.refunded_at),
});
export type EscrowObject = ReturnType<typeof escrowObject>;

export async function loadSplits(db: Queryable, escrowIds: readonly string[]): Promise<SplitRow[]> {
  const found = await db.query<SplitRow>(
    'SELECT * FROM escrow_splits WHERE escrow_id = ANY($1) ORDER BY escrow_id, position',
    [escrowIds],
  );
  return found.rows;
}

/**
 * Posts one split's way out of escrow, and with the first one the platform fee.
 * A split to a merchant is that merchant's ledger transaction (it credits their
 * available balance, and lists in their transactions); one to a phone, and the
 * fee, are the holder's. Each posts once: the split's id, or the escrow's for
 * the fee, is the transaction's source; the caller holds the escrow's row lock.
 */
export async function postRelease(db: Queryable, escrow: EscrowRow, split: SplitRow): Promise<void> {
  const recipient = split.recipient_merchant_id;
  await postLedgerEntry(db, {
    merchantId: recipient ?? escrow.merchant_id,
    livemode: escrow.livemode,
    type: 'escrow_release',
    sourceId: split.id,
    currency: escrow.currency,
    amount: recipient ? split.amount : -split.amount,
    fee: 0,
    description: recipient
      ? `Released from escrow ${escrow.id}`
      : `Sent from escrow ${escrow.id} to ${split.phone}`,
    postings: escrowReleasePostings(
      escrow.currency,
      split.amount,
      recipient
        ? {
            account: 'merchant_available',
            holderMerchantId: escrow.merchant_id,
            recipientMerchantId: recipient,
          }
        : { account: 'provider_clearing' },
    ),
  });
  if (!escrow.fee_collected && escrow.platform_fee > 0) {
    await postLedgerEntry(db, {
      merchantId: escrow.merchant_id,
      livemode: escrow.livemode,
      type: 'escrow_release',
      sourceId: escrow.id,
      currency: escrow.currency,
      amount: -escrow.platform_fee,
      fee: 0,
      description: `Platform fee of escrow ${escrow.id}`,
      postings: escrowReleasePostings(escrow.currency, escrow.platform_fee, { account: 'platform_fees' }),
    });
  }
  escrow.fee_collected = true;
}

/**
 * Moves a split to its next state through the transition table. Going to
 * `sending` starts a new transfer attempt, which has no provider reference yet.
 */
export async function moveSplit(
  db: Queryable,
  split: SplitRow,
  to: EscrowSplitStatus,
  transfer: { reference?: string | null; failureCode?: string; failureMessage?: string } = {},
): Promise<void> {
  const sending = to === 'sending';
  const moved = await transition(db, SPLITS, split, to, {
    set: `released_at = CASE WHEN $1 THEN now() END,
      transfer_attempt = transfer_attempt + CASE WHEN $2 THEN 1 ELSE 0 END,
      transfer_reference = CASE WHEN $2 THEN NULL ELSE coalesce($3, transfer_reference) END,
      failure_code = $4, failure_message = $5`,
    params: [
      to === 'released',
      sending,
      transfer.reference ?? null,
      transfer.failureCode ?? null,
      transfer.failureMessage ?? null,
    ],
  });
  Object.assign(split, moved);
}

/**
 * Writes the escrow's status its splits now imply (or `refunded`), through the
 * transition table, and the event when one is due; answers the new object.
 */
export async function saveEscrow(
  db: Queryable,
  escrow: EscrowRow,
  splits: readonly SplitRow[],
  event: EventType | undefined,
  refunded?: number,
): Promise<EscrowObject> {
  const status: EscrowStatus = refunded === undefined ? escrowStatusOf(splits) : 'refunded';
  const saved = await transition(db, ESCROWS, escrow, status, {
    set: `fee_collected = $1, released_at = CASE WHEN $2 THEN now() END,
      refunded_at = CASE WHEN $3 THEN now() END, refunded_amount = refunded_amount + $4`,
    params: [escrow.fee_collected, status === 'released', status === 'refunded', refunded ?? 0],
  });
  Object.assign(escrow, saved);
  const object = escrowObject(saved, splits);
  if (event) {
    await recordEvent(db, { merchantId: escrow.merchant_id, livemode: escrow.livemode, type: event, object });
  }
  return object;
}
