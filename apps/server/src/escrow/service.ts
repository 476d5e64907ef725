import {
  AppError,
  assertSplitsAddUp,
  escrowHoldPostings,
  escrowRefundPostings,
  hasPrefix,
  mobileNetwork,
  newId,
  type EscrowStatus,
} from '@tz/core';
import { write, type Queryable } from '../db/database.ts';
import { listPage, type ListEnvelope, type ListQuery } from '../db/list-page.ts';
import type { Actor } from '../actor.ts';
import { recordEvent } from '../infra/events.ts';
import { assertAvailable, postLedgerEntry } from '../ledger/service.ts';
import { findOwned } from '../infra/owned.ts';
import type { PaymentRow } from '../payments/service.ts';
import {
  escrowObject,
  loadSplits,
  moveSplit,
  postRelease,
  saveEscrow,
  stillHeld,
  type EscrowObject,
  type EscrowRow,
  type SplitRow,
} from './store.ts';
import type { EscrowTransfers } from './transfers.ts';

export interface SplitInput {
  amount: number;
  merchant?: string | undefined;
  phone?: string | undefined;
  description?: string | undefined;
}

export interface CreateEscrowInput {
  payment: string;
  splits: SplitInput[];
  platform_fee: number;
  description?: string | undefined;
  metadata?: Record<string, string> | undefined;
}

type AfterCommit = (task: () => Promise<void>) => void;

/**
 * Escrow: holds a paid payment's net (what the merchant received for it) in
 * the merchant's escrow account, releases it split by split to other merchants
 * or phones with the platform's fee, and refunds to the payer what was not
 * released. Every step locks the escrow's row first, so steps on one escrow
 * run one at a time; the ledger's UNIQUE (type, source) makes each movement post once.
 */
export class EscrowService {
  constructor(private readonly transfers: EscrowTransfers) {}

  async create(db: Queryable, actor: Actor, input: CreateEscrowInput): Promise<EscrowObject> {
    // The balance lock before the payment's row lock, the order refunds and payouts take them in.
    // A paid payment's net never changes, so it can be read before the lock.
    const seen = await findOwned<PaymentRow>(db, 'payments', 'payment', actor, input.payment);
    await assertAvailable(db, { ...actor, currency: seen.currency }, seen.net ?? 0, 'hold', 'payment');
    const payment = await findOwned<PaymentRow>(db, 'payments', 'payment', actor, input.payment, {
      lock: true,
    });
    if (payment.status !== 'paid') {
      throw new AppError(
        'payment_not_paid',
        `Payment ${payment.id} is ${payment.status}; only a paid payment can be held`,
        {
          details: { payment: `is '${payment.status}'` },
        },
      );
    }
    const existing = await db.query<{ id: string }>('SELECT id FROM escrows WHERE payment_id = $1', [
      payment.id,
    ]);
    if (existing.rows[0]) {
      throw new AppError(
        'payment_already_used',
        `Payment ${payment.id} is already held in escrow ${existing.rows[0].id}`,
        {
          details: { payment: `is held in escrow ${existing.rows[0].id}` },
        },
      );
    }
    const held = payment.net ?? 0;
    assertSplitsAddUp(
      held,
      input.platform_fee,
      input.splits.map((split) => split.amount),
    );
    await assertRecipientsExist(db, input.splits);
    const escrow: EscrowRow = {
      id: newId('escrow'),
      merchant_id: actor.merchantId,
      livemode: actor.livemode,
      payment_id: payment.id,
      currency: payment.currency,
      amount: held,
      platform_fee: input.platform_fee,
      fee_collected: false,
      status: 'held',
      refunded_amount: 0,
      description: input.description ?? null,
      metadata: input.metadata ?? {},
      created_at: new Date(),
      released_at: null,
      refunded_at: null,
    };
    const splits: SplitRow[] = input.splits.map((split, position) => ({
      id: newId('escrowSplit'),
      escrow_id: escrow.id,
      position,
      recipient_merchant_id: split.merchant ?? null,
      phone: split.phone ?? null,
      network: split.phone ? (mobileNetwork(split.phone) ?? null) : null,
      amount: split.amount,
      status: 'held',
      description: split.description ?? null,
      transfer_reference: null,
      transfer_attempt: 0,
      failure_code: null,
      failure_message: null,
      released_at: null,
    }));
    await write(
      db,
      `INSERT INTO escrows (id, merchant_id, livemode, payment_id, currency, amount, platform_fee, status,
         description, metadata, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'held', $8, $9, $10)`,
      [
        escrow.id,
        escrow.merchant_id,
        escrow.livemode,
        escrow.payment_id,
        escrow.currency,
        escrow.amount,
        escrow.platform_fee,
        escrow.description,
        JSON.stringify(escrow.metadata),
        escrow.created_at,
      ],
    );
    await write(
      db,
      `INSERT INTO escrow_splits (id, escrow_id, position, recipient_merchant_id, phone, network, amount, status, description)
       SELECT s.id, $1, s.position, s.merchant, s.phone, s.network, s.amount, 'held', s.description
       FROM jsonb_to_recordset($2::jsonb) AS s(id text, position int, merchant text, phone text, network text,
         amount bigint, description text)`,
      [
        escrow.id,
        JSON.stringify(
          splits.map((s) => ({
            id: s.id,
            position: s.position,
            merchant: s.recipient_merchant_id,
            phone: s.phone,
            network: s.network,
            amount: s.amount,
            description: s.description,
          })),
        ),
      ],
    );
    await postLedgerEntry(db, {
      merchantId: escrow.merchant_id,
      livemode: escrow.livemode,
      type: 'escrow_hold',
      sourceId: escrow.id,
      currency: escrow.currency,
      amount: -held,
      fee: 0,
      description: `Held in escrow ${escrow.id} from ${payment.id}`,
      postings: escrowHoldPostings(escrow.currency, held),
    });
    const object = escrowObject(escrow, splits);
    await recordEvent(db, {
      merchantId: escrow.merchant_id,
      livemode: escrow.livemode,
      type: 'escrow.held',
      object,
    });
    return object;
  }

  async retrieve(db: Queryable, actor: Actor, id: string): Promise<EscrowObject> {
    const escrow = await findOwned<EscrowRow>(db, 'escrows', 'escrow', actor, id);
    return escrowObject(escrow, await loadSplits(db, [escrow.id]));
  }

  async list(
    db: Queryable,
    actor: Actor,
    query: ListQuery & { status?: EscrowStatus | undefined; payment?: string | undefined },
  ): Promise<ListEnvelope<EscrowObject>> {
    const params: unknown[] = [actor.merchantId, actor.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (query.status) where += ` AND status = $${params.push(query.status)}`;
    if (query.payment) where += ` AND payment_id = $${params.push(query.payment)}`;
    const page = await listPage(db, { table: 'escrows', where, params }, query, (row: EscrowRow) => row);
    const splits = await loadSplits(
      db,
      page.data.map((row) => row.id),
    );
    return {
      ...page,
      data: page.data.map((row) =>
        escrowObject(
          row,
          splits.filter((split) => split.escrow_id === row.id),
        ),
      ),
    };
  }

  /**
   * Releases the named splits, or every held one: a split to a merchant posts
   * at once, one to a phone is sent after commit and posts when the provider
   * confirms. The first release to post also takes the platform fee.
   */
  async release(
    db: Queryable,
    actor: Actor,
    id: string,
    splitIds: readonly string[] | undefined,
    afterCommit: AfterCommit,
  ): Promise<EscrowObject> {
    const escrow = await findOwned<EscrowRow>(db, 'escrows', 'escrow', actor, id, { lock: true });
    const splits = await loadSplits(db, [escrow.id]);
    const chosen = splitIds ? namedSplits(splits, splitIds) : splits.filter((s) => s.status === 'held');
    if (chosen.length === 0) {
      throw new AppError('state_transition_invalid', `Escrow ${escrow.id} holds no split to release`, {
        details: { id: `is '${escrow.status}' with no held split` },
      });
    }
    const toPhones = chosen.filter((split) => split.phone !== null);
    if (toPhones.length > 0) this.transfers.assertCanSend(escrow.livemode);
    let posted = false;
    for (const split of chosen) {
      if (split.phone !== null) {
        await moveSplit(db, split, 'sending');
      } else {
        await postRelease(db, escrow, split);
        await moveSplit(db, split, 'released');
        posted = true;
      }
    }
    if (toPhones.length > 0) afterCommit(this.transfers.send(escrow, toPhones));
    return saveEscrow(db, escrow, splits, posted ? 'escrow.released' : undefined);
  }

  /**
   * Returns to the payer what is still held: the held splits, and the fee when
   * nothing was released yet. Refused while a transfer to a phone is under way.
   */
  async refund(db: Queryable, actor: Actor, id: string): Promise<EscrowObject> {
    const escrow = await findOwned<EscrowRow>(db, 'escrows', 'escrow', actor, id, { lock: true });
    const splits = await loadSplits(db, [escrow.id]);
    splits.forEach((split, index) => {
      if (split.status === 'sending') {
        throw new AppError(
          'state_transition_invalid',
          `Split ${split.id} is being sent; refund once its transfer ends`,
          {
            details: { [`splits.${index}`]: `is 'sending'` },
          },
        );
      }
    });
    const rest = stillHeld(escrow, splits);
    if (rest === 0) {
      throw new AppError('state_transition_invalid', `Escrow ${escrow.id} holds nothing to refund`, {
        details: { id: `is '${escrow.status}'` },
      });
    }
    for (const split of splits) if (split.status === 'held') await moveSplit(db, split, 'refunded');
    await postLedgerEntry(db, {
      merchantId: escrow.merchant_id,
      livemode: escrow.livemode,
      type: 'escrow_refund',
      sourceId: escrow.id,
      currency: escrow.currency,
      amount: -rest,
      fee: 0,
      description: `Refund of escrow ${escrow.id} to the payer of ${escrow.payment_id}`,
      postings: escrowRefundPostings(escrow.currency, rest),
    });
    return saveEscrow(db, escrow, splits, 'escrow.refunded', rest);
  }
}

/** The splits a release names, each once, each still held: a 400 naming the entry otherwise. */
function namedSplits(splits: readonly SplitRow[], ids: readonly string[]): SplitRow[] {
  return ids.map((id, index) => {
    const field = `splits.${index}`;
    const split = splits.find((s) => s.id === id);
    if (!split) throw invalidSplit('parameter_invalid', field, `${id} is not a split of this escrow`);
    if (ids.indexOf(id) !== index) throw invalidSplit('parameter_duplicate', field, `names ${id} twice`);
    if (split.status !== 'held') {
      throw invalidSplit(
        'state_transition_invalid',
        field,
        `is '${split.status}'; only a held split can be released`,
      );
    }
    return split;
  });
}

const invalidSplit = (
  code: 'parameter_invalid' | 'parameter_duplicate' | 'state_transition_invalid',
  field: string,
  message: string,
) => new AppError(code, `Invalid ${field}: ${message}`, { details: { [field]: message } });

/** A split to a merchant names one on the platform (in the escrow's mode: the release posts in it). */
async function assertRecipientsExist(db: Queryable, splits: readonly SplitInput[]): Promise<void> {
  const named = splits.flatMap((split) => (split.merchant === undefined ? [] : [split.merchant]));
  if (named.length === 0) return;
  const found = await db.query<{ id: string }>('SELECT id FROM merchants WHERE id = ANY($1)', [
    named.filter((id) => hasPrefix('merchant', id)),
  ]);
  const known = new Set(found.rows.map((row) => row.id));
  splits.forEach((split, index) => {
    if (split.merchant !== undefined && !known.has(split.merchant)) {
      throw invalidSplit(
        'parameter_invalid',
        `splits.${index}.merchant`,
        `${split.merchant} is not a merchant on the platform`,
      );
    }
  });
}
