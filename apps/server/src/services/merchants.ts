import { AppError, newId } from '@tz/core';
import type { Queryable } from '../db/database.ts';
import type { Actor } from '../actor.ts';
import { DUMMY_PASSWORD_HASH, hashPassword, randomToken, sha256, verifyPassword } from './secrets.ts';
import { unixOrNull, unixSeconds } from './time.ts';

export type KeyType = 'secret' | 'publishable';
export type Mode = 'test' | 'live';

const KEY_PREFIX: Record<KeyType, string> = { secret: 'sk', publishable: 'pk' };
const SESSION_PREFIX = 'sess_';

interface MerchantRow {
  id: string;
  business_name: string;
  email: string;
  password_hash: string;
  created_at: Date;
}

interface ApiKeyRow {
  id: string;
  merchant_id: string;
  type: KeyType;
  livemode: boolean;
  masked: string;
  name: string | null;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
}

export const merchantObject = (row: MerchantRow, livemode: boolean) => ({
  id: row.id,
  object: 'merchant' as const,
  business_name: row.business_name,
  email: row.email,
  livemode,
  created: unixSeconds(row.created_at),
});

export const apiKeyObject = (row: ApiKeyRow) => ({
  id: row.id,
  object: 'api_key' as const,
  type: row.type,
  mode: row.livemode ? ('live' as const) : ('test' as const),
  livemode: row.livemode,
  key: row.masked,
  name: row.name,
  status: row.revoked_at
    ? ('revoked' as const)
    : row.expires_at
      ? ('expiring' as const)
      : ('active' as const),
  created: unixSeconds(row.created_at),
  expires_at: unixOrNull(row.expires_at),
});

/** A key as shown at creation: the only time the full key leaves the server. */
export type NewApiKey = ReturnType<typeof apiKeyObject> & { key: string };

const mask = (key: string): string => `${key.slice(0, 8)}${'*'.repeat(8)}${key.slice(-4)}`;

async function insertKey(
  db: Queryable,
  merchantId: string,
  type: KeyType,
  mode: Mode,
  name: string | null,
): Promise<NewApiKey> {
  const key = `${KEY_PREFIX[type]}_${mode}_${randomToken(32)}`;
  const result = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (id, merchant_id, type, livemode, key_hash, masked, name)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
    [newId('apiKey'), merchantId, type, mode === 'live', sha256(key), mask(key), name],
  );
  return { ...apiKeyObject(result.rows[0]!), key };
}

export class MerchantService {
  /**
   * Resolved keys, briefly: most requests skip the key lookup. Revoking or
   * rolling a key clears it here at once; other server processes notice
   * within `authCacheSeconds`.
   */
  private readonly authCache = new Map<string, { actor: Actor; until: number }>();

  constructor(
    private readonly sessionTtlHours: number,
    private readonly authCacheSeconds: number,
  ) {}

  private forgetCredential(credentialId: string): void {
    for (const [hash, entry] of this.authCache)
      if (entry.actor.credentialId === credentialId) this.authCache.delete(hash);
  }

  /** Sign-up: the merchant with a secret and a publishable key for each mode. */
  async signUp(tx: Queryable, input: { business_name: string; email: string; password: string }) {
    const passwordHash = await hashPassword(input.password);
    {
      const taken = await tx.query('SELECT 1 FROM merchants WHERE lower(email) = lower($1)', [input.email]);
      if (taken.rowCount) {
        throw new AppError('email_taken', 'An account with this email already exists', {
          details: { email: 'is already registered' },
        });
      }
      const merchant = await tx.query<MerchantRow>(
        `INSERT INTO merchants (id, business_name, email, password_hash) VALUES ($1, $2, $3, $4) RETURNING *`,
        [newId('merchant'), input.business_name, input.email, passwordHash],
      );
      const row = merchant.rows[0]!;
      const keys: NewApiKey[] = [];
      for (const mode of ['test', 'live'] as const)
        for (const type of ['secret', 'publishable'] as const)
          keys.push(await insertKey(tx, row.id, type, mode, null));
      const object = merchantObject(row, false);
      return { ...object, merchant: object, api_keys: keys };
    }
  }

  /** Checks the password (in constant time, even for unknown emails) and opens a session. */
  async login(db: Queryable, input: { email: string; password: string; mode: Mode }) {
    const found = await db.query<MerchantRow>('SELECT * FROM merchants WHERE lower(email) = lower($1)', [
      input.email,
    ]);
    const row = found.rows[0];
    const valid = await verifyPassword(input.password, row?.password_hash ?? DUMMY_PASSWORD_HASH);
    if (!row || !valid) throw new AppError('credentials_invalid', 'The email or password is incorrect');
    const token = `${SESSION_PREFIX}${input.mode}_${randomToken(40)}`;
    const expires = new Date(Date.now() + this.sessionTtlHours * 3_600_000);
    await db.query(
      `INSERT INTO sessions (id, merchant_id, token_hash, livemode, expires_at) VALUES ($1, $2, $3, $4, $5)`,
      [newId('session'), row.id, sha256(token), input.mode === 'live', expires],
    );
    return {
      object: 'session' as const,
      token,
      mode: input.mode,
      livemode: input.mode === 'live',
      expires_at: unixSeconds(expires),
      merchant: merchantObject(row, input.mode === 'live'),
    };
  }

  /** Resolves a presented key or session token to the caller, or null if unknown, revoked or expired. */
  async authenticate(db: Queryable, presented: string): Promise<Actor | null> {
    const hash = sha256(presented);
    const cached = this.authCache.get(hash);
    if (cached && cached.until > Date.now()) return cached.actor;
    const actor = await this.lookUp(db, presented, hash);
    if (actor && this.authCacheSeconds > 0) {
      if (this.authCache.size >= 10_000) this.authCache.clear();
      this.authCache.set(hash, { actor, until: Date.now() + this.authCacheSeconds * 1000 });
    }
    return actor;
  }

  private async lookUp(db: Queryable, presented: string, hash: string): Promise<Actor | null> {
    if (presented.startsWith(SESSION_PREFIX)) {
      const session = await db.query<{ id: string; merchant_id: string; livemode: boolean }>(
        `SELECT id, merchant_id, livemode FROM sessions WHERE token_hash = $1 AND expires_at > now()`,
        [hash],
      );
      const row = session.rows[0];
      return row
        ? { kind: 'login', merchantId: row.merchant_id, livemode: row.livemode, keyType: 'secret', credentialId: row.id }
        : null;
    }
    if (!/^(sk|pk)_(test|live)_[0-9A-Za-z]{32}$/.test(presented)) return null;
    const key = await db.query<{ id: string; merchant_id: string; livemode: boolean; type: KeyType }>(
      `SELECT id, merchant_id, livemode, type FROM api_keys
       WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [hash],
    );
    const row = key.rows[0];
    return row
      ? { kind: 'api_key', merchantId: row.merchant_id, livemode: row.livemode, keyType: row.type, credentialId: row.id }
      : null;
  }

  // --- API keys -----------------------------------------------------------

  listKeysQuery(actor: Actor) {
    return { table: 'api_keys', where: 'merchant_id = $1', params: [actor.merchantId] };
  }

  private assertSameMode(actor: Actor, mode: Mode): void {
    if ((mode === 'live') !== actor.livemode) {
      throw new AppError(
        'livemode_mismatch',
        `Manage ${mode} keys with a ${mode} secret key or a ${mode} login`,
        {
          details: { mode: `differs from the caller's mode` },
        },
      );
    }
  }

  async createKey(
    db: Queryable,
    actor: Actor,
    input: { type: KeyType; mode?: Mode | undefined; name?: string | undefined },
  ) {
    const mode = input.mode ?? (actor.livemode ? 'live' : 'test');
    this.assertSameMode(actor, mode);
    return insertKey(db, actor.merchantId, input.type, mode, input.name ?? null);
  }

  private async lockKey(db: Queryable, actor: Actor, id: string): Promise<ApiKeyRow> {
    const found = await db.query<ApiKeyRow>(
      `SELECT * FROM api_keys WHERE id = $1 AND merchant_id = $2 FOR UPDATE`,
      [id, actor.merchantId],
    );
    const row = found.rows[0];
    if (!row)
      throw new AppError('resource_missing', `No such API key: '${id}'`, {
        details: { id: 'unknown API key' },
      });
    this.assertSameMode(actor, row.livemode ? 'live' : 'test');
    if (row.revoked_at) {
      throw new AppError('state_transition_invalid', 'This API key is already revoked', {
        details: { id: 'is revoked' },
      });
    }
    return row;
  }

  /** Revokes a key at once. The last active secret key of a mode cannot be revoked: roll it instead. */
  async revokeKey(db: Queryable, actor: Actor, id: string) {
    const row = await this.lockKey(db, actor, id);
    if (row.type === 'secret') {
      const others = await db.query(
        `SELECT 1 FROM api_keys WHERE merchant_id = $1 AND livemode = $2 AND type = 'secret' AND id <> $3
         AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
        [actor.merchantId, row.livemode, id],
      );
      if (!others.rowCount) {
        throw new AppError(
          'api_key_last',
          'This is the last active secret key of its mode; roll it instead',
          {
            details: { id: 'is the last active secret key' },
          },
        );
      }
    }
    const updated = await db.query<ApiKeyRow>(
      `UPDATE api_keys SET revoked_at = now() WHERE id = $1 RETURNING *`,
      [id],
    );
    this.forgetCredential(id);
    return apiKeyObject(updated.rows[0]!);
  }

  /** Rolls a key: a new key of the same type and mode; the old one stops now or after `expires_in_hours`. */
  async rollKey(db: Queryable, actor: Actor, id: string, expiresInHours: number) {
    const row = await this.lockKey(db, actor, id);
    this.forgetCredential(id);
    if (expiresInHours === 0) await db.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [id]);
    else
      await db.query(`UPDATE api_keys SET expires_at = now() + make_interval(hours => $2) WHERE id = $1`, [
        id,
        expiresInHours,
      ]);
    return insertKey(db, actor.merchantId, row.type, row.livemode ? 'live' : 'test', row.name);
  }
}
