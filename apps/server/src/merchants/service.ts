import { AppError, EAST_AFRICA_TIME_ZONE, newId, type AccountLanguage } from '@tz/core';
import type { Queryable } from '../db/database.ts';
import type { Actor } from '../actor.ts';
import { DUMMY_PASSWORD_HASH, hashPassword, randomToken, sha256, verifyPassword } from '../infra/secrets.ts';
import { unixOrNull, unixSeconds } from '../infra/time.ts';
import { newReferralCode, referrerOf } from '../referrals/service.ts';

export type KeyType = 'secret' | 'publishable';
export type Mode = 'test' | 'live';

const KEY_PREFIX: Record<KeyType, string> = { secret: 'sk', publishable: 'pk' };
const SESSION_PREFIX = 'sess_';

type AfterCommit = (task: () => Promise<void>) => void;

interface MerchantRow {
  id: string;
  business_name: string;
  email: string;
  default_language: AccountLanguage;
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

export const merchantObject = (row: Omit<MerchantRow, 'password_hash'>, livemode: boolean) => ({
  id: row.id,
  object: 'merchant' as const,
  business_name: row.business_name,
  email: row.email,
  default_language: row.default_language,
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

/** A new key as stored for an idempotent replay: masked, as listed (keys are shown once). */
export const maskedNewKey = (key: NewApiKey): NewApiKey => ({ ...key, key: mask(key.key) });

/** Sign-up as stored for replay: the keys masked. */
export const maskedSignUp = <T extends { api_keys: NewApiKey[] }>(signUp: T): T => ({
  ...signUp,
  api_keys: signUp.api_keys.map(maskedNewKey),
});

/** A login as stored for replay: the token masked (log in again for a usable one). */
export const maskedSession = <T extends { token: string }>(session: T): T => ({
  ...session,
  token: mask(session.token),
});

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

/** A time zone PostgreSQL knows (the overview's days are computed there). */
async function assertTimeZone(db: Queryable, timeZone: string): Promise<void> {
  const found = await db.query('SELECT 1 FROM pg_timezone_names WHERE name = $1', [timeZone]);
  if (!found.rowCount) {
    throw new AppError('parameter_invalid', `Unknown time zone '${timeZone}'`, {
      details: { time_zone: `must be an IANA time zone such as ${EAST_AFRICA_TIME_ZONE}` },
    });
  }
}

export class MerchantService {
  /**
   * Resolved keys, briefly: most requests skip the key lookup. Revoking or
   * rolling a key clears it here once the change has committed; other server
   * processes notice within `authCacheSeconds`.
   */
  private readonly authCache = new Map<string, { actor: Actor; until: number }>();
  /**
   * Counts forgotten credentials: a lookup that started before a revocation
   * committed may have read the key as active, so it is not cached.
   */
  private forgotten = 0;

  constructor(
    private readonly sessionTtlHours: number,
    private readonly authCacheSeconds: number,
  ) {}

  private forgetCredential(credentialId: string): void {
    this.forgotten += 1;
    for (const [hash, entry] of this.authCache)
      if (entry.actor.credentialId === credentialId) this.authCache.delete(hash);
  }

  /** Sign-up: the merchant with a secret and a publishable key for each mode. */
  async signUp(
    tx: Queryable,
    input: {
      business_name: string;
      email: string;
      password: string;
      referral_code?: string | undefined;
      time_zone?: string | undefined;
    },
  ) {
    const passwordHash = await hashPassword(input.password);
    {
      const referrer = input.referral_code === undefined ? null : await referrerOf(tx, input.referral_code);
      if (input.time_zone !== undefined) await assertTimeZone(tx, input.time_zone);
      const taken = await tx.query('SELECT 1 FROM merchants WHERE lower(email) = lower($1)', [input.email]);
      if (taken.rowCount) {
        throw new AppError('email_taken', 'An account with this email already exists', {
          details: { email: 'is already registered' },
        });
      }
      const merchant = await tx.query<MerchantRow>(
        `INSERT INTO merchants (id, business_name, email, password_hash, referral_code, referred_by, time_zone)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [
          newId('merchant'),
          input.business_name,
          input.email,
          passwordHash,
          newReferralCode(),
          referrer,
          input.time_zone ?? EAST_AFRICA_TIME_ZONE,
        ],
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

  /**
   * Checks the password (in constant time, even for unknown emails) and opens a session: a token for
   * an API client, or a browser's (`browser`, held in the back office's cookie, see services/sessions.ts).
   */
  async login(db: Queryable, input: { email: string; password: string; mode: Mode }, browser = false) {
    const found = await db.query<MerchantRow>('SELECT * FROM merchants WHERE lower(email) = lower($1)', [
      input.email,
    ]);
    const row = found.rows[0];
    const valid = await verifyPassword(input.password, row?.password_hash ?? DUMMY_PASSWORD_HASH);
    if (!row || !valid) throw new AppError('credentials_invalid', 'The email or password is incorrect');
    const { token, expires } = await this.openSession(db, row.id, input.mode, browser);
    return {
      object: 'session' as const,
      token,
      mode: input.mode,
      livemode: input.mode === 'live',
      expires_at: unixSeconds(expires),
      merchant: merchantObject(row, input.mode === 'live'),
    };
  }

  /** A new session of the merchant's, in one mode; its token is returned once and stored hashed. */
  async openSession(db: Queryable, merchantId: string, mode: Mode, browser: boolean) {
    const token = `${SESSION_PREFIX}${mode}_${randomToken(40)}`;
    const expires = new Date(Date.now() + this.sessionTtlHours * 3_600_000);
    const id = newId('session');
    await db.query(
      `INSERT INTO sessions (id, merchant_id, token_hash, livemode, expires_at, browser)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, merchantId, sha256(token), mode === 'live', expires, browser],
    );
    return { id, token, expires };
  }

  /**
   * Forgets the merchant's cached sessions once they are ended (signed out, a password changed):
   * a lookup that began before the change committed is not cached either.
   */
  forgetSessionsOf(merchantId: string): void {
    this.forgotten += 1;
    for (const [hash, entry] of this.authCache)
      if (entry.actor.kind === 'login' && entry.actor.merchantId === merchantId) this.authCache.delete(hash);
  }

  /** Resolves a presented key or session token to the caller, or null if unknown, revoked or expired. */
  async authenticate(db: Queryable, presented: string): Promise<Actor | null> {
    const hash = sha256(presented);
    const cached = this.authCache.get(hash);
    if (cached && cached.until > Date.now()) return cached.actor;
    const forgotten = this.forgotten;
    const found = await this.lookUp(db, presented, hash);
    if (!found) return null;
    if (this.authCacheSeconds > 0 && forgotten === this.forgotten) {
      if (this.authCache.size >= 10_000) this.authCache.clear();
      // A rolled key's grace period ends on time, cache or not.
      const until = Math.min(Date.now() + this.authCacheSeconds * 1000, found.expiresAt ?? Infinity);
      this.authCache.set(hash, { actor: found.actor, until });
    }
    return found.actor;
  }

  private async lookUp(
    db: Queryable,
    presented: string,
    hash: string,
  ): Promise<{ actor: Actor; expiresAt: number | null } | null> {
    if (presented.startsWith(SESSION_PREFIX)) {
      const session = await db.query<{
        id: string;
        merchant_id: string;
        livemode: boolean;
        expires_at: Date;
      }>(
        `SELECT id, merchant_id, livemode, expires_at FROM sessions WHERE token_hash = $1 AND expires_at > now()`,
        [hash],
      );
      const row = session.rows[0];
      return row
        ? {
            actor: {
              kind: 'login',
              merchantId: row.merchant_id,
              livemode: row.livemode,
              keyType: 'secret',
              credentialId: row.id,
            },
            expiresAt: row.expires_at.getTime(),
          }
        : null;
    }
    if (!/^(sk|pk)_(test|live)_[0-9A-Za-z]{32}$/.test(presented)) return null;
    const key = await db.query<{
      id: string;
      merchant_id: string;
      livemode: boolean;
      type: KeyType;
      expires_at: Date | null;
    }>(
      `SELECT id, merchant_id, livemode, type, expires_at FROM api_keys
       WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [hash],
    );
    const row = key.rows[0];
    return row
      ? {
          actor: {
            kind: 'api_key',
            merchantId: row.merchant_id,
            livemode: row.livemode,
            keyType: row.type,
            credentialId: row.id,
          },
          expiresAt: row.expires_at?.getTime() ?? null,
        }
      : null;
  }

  /**
   * Inside a key-management transaction: the caller's own credential, still
   * active, locked until commit. A request that authenticated (or hit the cache)
   * just before its key was revoked thus waits for the revocation and is refused,
   * and a revocation waits for a key being minted by the key it revokes.
   */
  private async lockCaller(db: Queryable, actor: Actor): Promise<void> {
    const found = actor.credentialId.startsWith('ses_')
      ? await db.query(`SELECT 1 FROM sessions WHERE id = $1 AND expires_at > now() FOR SHARE`, [
          actor.credentialId,
        ])
      : await db.query(
          `SELECT 1 FROM api_keys WHERE id = $1 AND revoked_at IS NULL
           AND (expires_at IS NULL OR expires_at > now()) FOR SHARE`,
          [actor.credentialId],
        );
    if (!found.rowCount) throw new AppError('api_key_invalid', 'The API key is invalid, revoked or expired');
  }

  // --- API keys -----------------------------------------------------------

  /**
   * Cleared once the change is visible to every lookup: cleared before the
   * commit, a lookup in between would cache the key as still active.
   */
  private forgetAfterCommit(credentialId: string, afterCommit: AfterCommit): void {
    afterCommit(() => {
      this.forgetCredential(credentialId);
      return Promise.resolve();
    });
  }

  listKeysQuery(
    actor: Actor,
    filters: { mode?: Mode | undefined; status?: 'active' | 'expiring' | 'revoked' | undefined } = {},
  ) {
    const params: unknown[] = [actor.merchantId];
    let where = 'merchant_id = $1';
    if (filters.mode) where += ` AND livemode = $${params.push(filters.mode === 'live')}`;
    // The same reading of the columns as `apiKeyObject`'s `status`.
    if (filters.status === 'revoked') where += ' AND revoked_at IS NOT NULL';
    if (filters.status === 'expiring') where += ' AND revoked_at IS NULL AND expires_at IS NOT NULL';
    if (filters.status === 'active') where += ' AND revoked_at IS NULL AND expires_at IS NULL';
    return { table: 'api_keys', where, params };
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
    await this.lockCaller(db, actor);
    return insertKey(db, actor.merchantId, input.type, mode, input.name ?? null);
  }

  /**
   * The key to change, locked, with the caller's own key locked first when it is
   * another one (both in id order, so two keys changing each other cannot deadlock).
   */
  private async lockKey(db: Queryable, actor: Actor, id: string): Promise<ApiKeyRow> {
    const callerIsKey = !actor.credentialId.startsWith('ses_') && actor.credentialId !== id;
    if (callerIsKey && actor.credentialId < id) await this.lockCaller(db, actor);
    const found = await db.query<ApiKeyRow>(
      `SELECT * FROM api_keys WHERE id = $1 AND merchant_id = $2 FOR UPDATE`,
      [id, actor.merchantId],
    );
    if (!callerIsKey || actor.credentialId > id) await this.lockCaller(db, actor);
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
  async revokeKey(db: Queryable, actor: Actor, id: string, afterCommit: AfterCommit) {
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
    // The time it took effect (after the locks), not the time the transaction began.
    const updated = await db.query<ApiKeyRow>(
      `UPDATE api_keys SET revoked_at = clock_timestamp() WHERE id = $1 RETURNING *`,
      [id],
    );
    this.forgetAfterCommit(id, afterCommit);
    return apiKeyObject(updated.rows[0]!);
  }

  /** Rolls a key: a new key of the same type and mode; the old one stops now or after `expires_in_hours`. */
  async rollKey(db: Queryable, actor: Actor, id: string, expiresInHours: number, afterCommit: AfterCommit) {
    const row = await this.lockKey(db, actor, id);
    this.forgetAfterCommit(id, afterCommit);
    if (expiresInHours === 0)
      await db.query(`UPDATE api_keys SET revoked_at = clock_timestamp() WHERE id = $1`, [id]);
    else
      await db.query(`UPDATE api_keys SET expires_at = now() + make_interval(hours => $2) WHERE id = $1`, [
        id,
        expiresInHours,
      ]);
    return insertKey(db, actor.merchantId, row.type, row.livemode ? 'live' : 'test', row.name);
  }
}
