import { randomInt } from 'node:crypto';
import { AppError, assertTransition, TILL_STATES, newId, tillExportKey, tillPrefixFor } from '@tz/core';
import type { ReportInput, ReportResult, TillStatus } from '@tz/core';
import type { Queryable } from '../db/database.ts';
import { findOwned } from '../infra/owned.ts';
import { randomToken, sha256 } from '../infra/secrets.ts';
import { unixOrNull, unixSeconds } from '../infra/time.ts';
import { lockMerchant, storeForRequest, storeObject, type StoreRow } from '../retail/stores.ts';
import { failPendingJobs } from './print-jobs.ts';
import type { Tenant, TillActor } from '../actor.ts';

export interface TillRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  store_id: string;
  name: string;
  receipt_prefix: string;
  pairing_code_hash: string | null;
  pairing_expires_at: Date | null;
  pairing_used_at: Date | null;
  credential_hash: string | null;
  paired_at: Date | null;
  last_seen_at: Date | null;
  backlog: number | null;
  app_version: string | null;
  revoked_at: Date | null;
  retired_at: Date | null;
  finished_at: Date | null;
  export_key: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The till's state, from the moments it passed (core's `TILL_TRANSITIONS`). */
export function tillStatus(
  row: Pick<TillRow, 'revoked_at' | 'finished_at' | 'retired_at' | 'credential_hash'>,
): TillStatus {
  if (row.revoked_at) return 'revoked';
  if (row.finished_at) return 'retired';
  if (row.retired_at) return 'retiring';
  return row.credential_hash ? 'paired' : 'unpaired';
}

export const tillObject = (row: TillRow) => ({
  id: row.id,
  object: 'till' as const,
  name: row.name,
  store: row.store_id,
  receipt_prefix: row.receipt_prefix,
  status: tillStatus(row),
  paired_at: unixOrNull(row.paired_at),
  last_seen: unixOrNull(row.last_seen_at),
  backlog: row.backlog,
  app_version: row.app_version,
  retired_at: unixOrNull(row.retired_at),
  finished_at: unixOrNull(row.finished_at),
  revoked_at: unixOrNull(row.revoked_at),
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
});
export type TillObject = ReturnType<typeof tillObject>;

export interface PairingOptions {
  /** Base of `pairing_url`. */
  publicUrl: string;
  /** How long a pairing code may be exchanged. */
  ttlMinutes: number;
  now?: Date;
}

// Crockford's base32: no I, L, O or U, so a code read aloud or typed is not misread.
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 12;

/** A one-time code of 60 random bits, in groups of four (`K7QH-3MZD-9XWB`). */
function newPairingCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code.replace(/(.{4})(?!$)/g, '$1-');
}

/** The code as typed, reduced to what is hashed: case, dashes and spaces, and look-alike letters do not matter. */
function pairingCodeHash(code: string): string {
  const normalised = code
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  return sha256(`pairing:${normalised}`);
}

const CREDENTIAL_PREFIX = 'tilld_';
const CREDENTIAL = /^tilld_[0-9A-Za-z]{40}$/;

/** Gives the till a fresh pairing code, valid for `ttlMinutes`; an earlier code stops working. */
async function issuePairingCode(db: Queryable, row: TillRow, options: PairingOptions) {
  const code = newPairingCode();
  const expires = new Date((options.now ?? new Date()).getTime() + options.ttlMinutes * 60_000);
  const updated = await db.query<TillRow>(
    `UPDATE tills SET pairing_code_hash = $2, pairing_expires_at = $3, pairing_used_at = NULL, updated_at = now()
     WHERE id = $1 RETURNING *`,
    [row.id, pairingCodeHash(code), expires],
  );
  return {
    ...tillObject(updated.rows[0]!),
    pairing_code: code,
    pairing_url: `${options.publicUrl}/till/?pair=${encodeURIComponent(code)}`,
    pairing_expires_at: unixSeconds(expires),
  };
}

export class TillService {
  /** A new till at a store (the default store when none is named), with its receipt prefix and a pairing code. */
  async create(
    db: Queryable,
    tenant: Tenant,
    input: { name: string; store?: string | undefined },
    options: PairingOptions,
  ) {
    const store = await storeForRequest(db, tenant, input.store);
    await lockMerchant(db, tenant);
    const count = await db.query<{ next: number }>(
      `SELECT coalesce(max(substring(receipt_prefix from 2)::int), 0) + 1 AS next
       FROM tills WHERE merchant_id = $1 AND livemode = $2`,
      [tenant.merchantId, tenant.livemode],
    );
    const inserted = await db.query<TillRow>(
      `INSERT INTO tills (id, merchant_id, livemode, store_id, name, receipt_prefix)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [
        newId('till'),
        tenant.merchantId,
        tenant.livemode,
        store.id,
        input.name,
        tillPrefixFor(Number(count.rows[0]!.next)),
      ],
    );
    return issuePairingCode(db, inserted.rows[0]!, options);
  }

  async retrieve(db: Queryable, tenant: Tenant, id: string) {
    return tillObject(await findOwned<TillRow>(db, 'tills', 'till', tenant, id));
  }

  listSource(tenant: Tenant, filters: { store?: string | undefined }) {
    const params: unknown[] = [tenant.merchantId, tenant.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (filters.store) where += ` AND store_id = $${params.push(filters.store)}`;
    return { table: 'tills', where, params };
  }

  /**
   * A new pairing code for an existing till. The till's current credential keeps
   * working until the new code is exchanged; from then on only the new one does.
   */
  async newPairingCode(db: Queryable, tenant: Tenant, id: string, options: PairingOptions) {
    const row = await findOwned<TillRow>(db, 'tills', 'till', tenant, id, { lock: true });
    const status = tillStatus(row);
    if (status !== 'paired' && status !== 'unpaired') {
      throw new AppError('state_transition_invalid', 'This till has ended; create a new till instead', {
        details: { id: `is ${status}` },
      });
    }
    return issuePairingCode(db, row, options);
  }

  /**
   * Revokes a till: its credential and pairing code stop working at once, and
   * print jobs waiting for it fail with `till_revoked`. Revoking again changes nothing.
   */
  async revoke(db: Queryable, tenant: Tenant, id: string) {
    const row = await findOwned<TillRow>(db, 'tills', 'till', tenant, id, { lock: true });
    if (row.revoked_at) return tillObject(row);
    assertTransition(TILL_STATES, tillStatus(row), 'revoked');
    const updated = await db.query<TillRow>(
      `UPDATE tills SET revoked_at = now(), updated_at = now() WHERE id = $1 RETURNING *`,
      [id],
    );
    await failPendingJobs(db, tenant, { tillId: id }, 'till_revoked', 'The till was removed');
    return tillObject(updated.rows[0]!);
  }

  /**
   * Retires a till: from its next sync it sells nothing new and pushes what it
   * has not synced; when it reports an empty backlog it is `retired` and its
   * credential stops. A till never paired has nothing to send and is retired at
   * once. Retiring again changes nothing.
   */
  async retire(db: Queryable, tenant: Tenant, id: string) {
    const row = await findOwned<TillRow>(db, 'tills', 'till', tenant, id, { lock: true });
    const from = tillStatus(row);
    if (from === 'retiring' || from === 'retired') return tillObject(row);
    const to = from === 'unpaired' ? 'retired' : 'retiring';
    assertTransition(TILL_STATES, from, to);
    const updated = await db.query<TillRow>(
      `UPDATE tills SET retired_at = now(), finished_at = CASE WHEN $2 THEN now() END,
         pairing_code_hash = NULL, pairing_expires_at = NULL, updated_at = now()
       WHERE id = $1 RETURNING *`,
      [id, to === 'retired'],
    );
    if (to === 'retired') {
      await failPendingJobs(db, tenant, { tillId: id }, 'till_revoked', 'The till was retired');
    }
    return tillObject(updated.rows[0]!);
  }

  // ------------------------------------------------------------ device side

  /**
   * Exchanges a pairing code, once, for the till's device credential (shown only
   * here). A code already exchanged, expired or belonging to a revoked till is
   * refused, each with its own error code.
   */
  async pair(db: Queryable, code: string, now = new Date()) {
    const hash = pairingCodeHash(code);
    const credential = `${CREDENTIAL_PREFIX}${randomToken(40)}`;
    // One statement decides, so two devices racing with one code cannot both win.
    const paired = await db.query<TillRow>(
      `UPDATE tills SET pairing_used_at = $2, credential_hash = $3, paired_at = $2, export_key = $4, updated_at = now()
       WHERE pairing_code_hash = $1 AND pairing_used_at IS NULL AND revoked_at IS NULL AND retired_at IS NULL
         AND pairing_expires_at > $2
       RETURNING *`,
      [hash, now, sha256(credential), await tillExportKey(credential)],
    );
    const row = paired.rows[0];
    if (!row) throw await pairingRefusal(db, hash);
    const found = await db.query<StoreRow & { business_name: string }>(
      `SELECT s.*, m.business_name FROM retail_stores s JOIN merchants m ON m.id = s.merchant_id WHERE s.id = $1`,
      [row.store_id],
    );
    const store = found.rows[0]!;
    return {
      credential,
      till: tillObject(row),
      store: storeObject(store),
      merchant: { id: row.merchant_id, business_name: store.business_name },
      mode: row.livemode ? ('live' as const) : ('test' as const),
      livemode: row.livemode,
    };
  }

  /** Resolves a device credential to its till, or says it was revoked or is unknown. */
  async authenticate(db: Queryable, credential: string): Promise<TillAuthentication> {
    if (!CREDENTIAL.test(credential)) return { status: 'invalid' };
    const found = await db.query<
      Pick<TillRow, 'id' | 'merchant_id' | 'livemode' | 'store_id' | 'revoked_at' | 'finished_at'>
    >(
      `SELECT id, merchant_id, livemode, store_id, revoked_at, finished_at FROM tills WHERE credential_hash = $1`,
      [sha256(credential)],
    );
    const row = found.rows[0];
    if (!row) return { status: 'invalid' };
    return { status: endedAs(row) ?? 'ok', till: tillActor(row) };
  }

  /** As `this.authenticate`, throwing `till_revoked` or `till_credential_invalid` (both 401). */
  async require(db: Queryable, credential: string): Promise<TillActor> {
    const result = await this.authenticate(db, credential);
    if (result.status === 'ok') return result.till;
    throw authenticationRefusal(result.status);
  }

  /** Throws once the till was revoked or has finished retiring: what its open stream checks as it runs. */
  async assertActive(db: Queryable, till: TillActor): Promise<void> {
    const { rows } = await db.query<Pick<TillRow, 'revoked_at' | 'finished_at'>>(
      `SELECT revoked_at, finished_at FROM tills WHERE id = $1 AND merchant_id = $2`,
      [till.tillId, till.merchantId],
    );
    const ended = rows[0] ? endedAs(rows[0]) : 'revoked';
    if (ended) throw authenticationRefusal(ended);
  }

  /**
   * What a till says each time it syncs: seen now, its unsynced command count,
   * app version and printers. A retiring till that reports an empty backlog is
   * retired by it. A revoked till's report still records its backlog (what it
   * holds that only an export can bring), then is refused `till_revoked`.
   */
  async report(db: Queryable, till: TillActor, input: ReportInput): Promise<ReportResult> {
    const updated = await db.query<TillRow>(
      `UPDATE tills SET last_seen_at = now(), backlog = $4, app_version = $5, updated_at = now(),
         finished_at = CASE WHEN retired_at IS NOT NULL AND revoked_at IS NULL AND $4 = 0
           THEN coalesce(finished_at, now()) ELSE finished_at END
       WHERE id = $1 AND merchant_id = $2 AND livemode = $3 RETURNING *`,
      [till.tillId, till.merchantId, till.livemode, input.backlog, input.app_version],
    );
    const row = updated.rows[0];
    if (!row || row.revoked_at) throw authenticationRefusal('revoked');
    const status = tillStatus(row);
    const printers = input.printers ?? [];
    if (printers.length > 0) {
      // Only the till's own printers, and only when the status changed (the change feed sees real changes).
      await db.query(
        `UPDATE printers p SET status = r.status, status_at = now(), updated_at = now()
         FROM jsonb_to_recordset($2::jsonb) AS r(printer text, status text)
         WHERE p.id = r.printer AND p.till_id = $1 AND p.deleted_at IS NULL AND p.status IS DISTINCT FROM r.status`,
        [till.tillId, JSON.stringify(printers)],
      );
    }
    return { status: status === 'retired' || status === 'retiring' ? status : 'paired' };
  }
}

export type PairedTill = Awaited<ReturnType<TillService['pair']>>;

async function pairingRefusal(db: Queryable, hash: string): Promise<AppError> {
  const found = await db.query<Pick<TillRow, 'revoked_at' | 'pairing_used_at'>>(
    `SELECT revoked_at, pairing_used_at FROM tills WHERE pairing_code_hash = $1`,
    [hash],
  );
  const row = found.rows[0];
  const details = { code: 'ask for a new pairing code' };
  if (!row) return new AppError('pairing_code_invalid', 'This pairing code is not known', { details });
  if (row.revoked_at)
    return new AppError('till_revoked', 'This till was removed from the account', { details });
  if (row.pairing_used_at) {
    return new AppError('pairing_code_used', 'This pairing code was already used', { details });
  }
  return new AppError('pairing_code_expired', 'This pairing code has expired', { details });
}

export type TillAuthentication =
  | { status: 'ok'; till: TillActor }
  /** The credential was this till's, and the till was removed: the device should say so and stop syncing. */
  | { status: 'revoked'; till: TillActor }
  /** The till was retired and its backlog arrived: it has nothing more to do. */
  | { status: 'retired'; till: TillActor }
  | { status: 'invalid' };

/** Why a till syncs no more, or null while it does: revoked, or retired with its backlog in. */
const endedAs = (row: Pick<TillRow, 'revoked_at' | 'finished_at'>): 'revoked' | 'retired' | null =>
  row.revoked_at ? 'revoked' : row.finished_at ? 'retired' : null;

/** A till acting for itself: what its sync, or the import of its export, does in its name. */
export const tillActor = (row: Pick<TillRow, 'id' | 'merchant_id' | 'livemode' | 'store_id'>): TillActor => ({
  kind: 'till',
  keyType: 'secret',
  credentialId: row.id,
  merchantId: row.merchant_id,
  livemode: row.livemode,
  tillId: row.id,
  storeId: row.store_id,
});

export function authenticationRefusal(status: 'revoked' | 'retired' | 'invalid'): AppError {
  if (status === 'revoked') {
    return new AppError(
      'till_revoked',
      'This till was removed from the account; pair it again as a new till',
    );
  }
  if (status === 'retired') {
    return new AppError('till_retired', 'This till was retired and everything it held has arrived');
  }
  return new AppError('till_credential_invalid', 'The till credential is not valid; pair the till again');
}
