/**
 * The back office's browser sessions (docs/OFFICE.md): signed in by email and
 * password through the login throttle, held in an HttpOnly cookie, one mode
 * each (switching opens a session in the other mode and ends this one), ended
 * one at a time or all together, and all but the caller's own ended when the
 * password changes. A session acts as a login (`Actor` kind `login`).
 */
import { AppError, type AccountLanguage } from '@tz/core';
import type { Queryable } from '../db/database.ts';
import type { Actor } from '../actor.ts';
import type { LoginThrottle } from '../infra/login-throttle.ts';
import { merchantObject, type MerchantService, type Mode } from './service.ts';
import { hashPassword, verifyPassword } from '../infra/secrets.ts';
import { unixSeconds } from '../infra/time.ts';

interface SessionRow {
  id: string;
  livemode: boolean;
  expires_at: Date;
  browser: boolean;
  business_name: string;
  email: string;
  default_language: AccountLanguage;
  merchant_id: string;
  created_at: Date;
}

/** A browser session as the page sees it: never its token. */
function sessionObject(row: SessionRow) {
  const mode: Mode = row.livemode ? 'live' : 'test';
  return {
    object: 'office_session' as const,
    mode,
    livemode: row.livemode,
    expires_at: unixSeconds(row.expires_at),
    merchant: merchantObject(
      {
        id: row.merchant_id,
        business_name: row.business_name,
        email: row.email,
        default_language: row.default_language,
        created_at: row.created_at,
      },
      row.livemode,
    ),
  };
}

export type OfficeSession = ReturnType<typeof sessionObject>;

const SESSION_SQL = `SELECT s.id, s.livemode, s.expires_at, s.browser, s.merchant_id,
   m.business_name, m.email, m.default_language, m.created_at
 FROM sessions s JOIN merchants m ON m.id = s.merchant_id
 WHERE s.id = $1 AND s.expires_at > now()`;

export class SessionService {
  constructor(
    private readonly merchants: MerchantService,
    private readonly throttle: LoginThrottle,
  ) {}

  /** Email and password, counted by the login throttle like `POST /v1/merchants/login`. */
  async signIn(
    db: Queryable,
    input: { email: string; password: string; mode: Mode },
    address: string,
  ): Promise<{ token: string; session: OfficeSession }> {
    const login = await this.throttle.attempt(input.email, address, () =>
      this.merchants.login(db, input, true),
    );
    // Sessions that ran out are of no use to anyone: a sign-in clears its merchant's.
    await db.query(`DELETE FROM sessions WHERE merchant_id = $1 AND expires_at <= now()`, [
      login.merchant.id,
    ]);
    const session = await this.read(db, login.token);
    return { token: login.token, session };
  }

  private async read(db: Queryable, token: string): Promise<OfficeSession> {
    const actor = await this.merchants.authenticate(db, token);
    if (!actor) throw new AppError('api_key_invalid', 'The session has ended; sign in again');
    return this.current(db, actor);
  }

  /** The caller's own session: who is signed in, in which mode, until when. */
  async current(db: Queryable, actor: Actor): Promise<OfficeSession> {
    const found = await db.query<SessionRow>(SESSION_SQL, [actor.credentialId]);
    const row = found.rows[0];
    if (!row || actor.kind !== 'login')
      throw new AppError('api_key_invalid', 'The session has ended; sign in again');
    return sessionObject(row);
  }

  /** Test or live: a new session in that mode replaces this one (its cookie, too). */
  async switchMode(
    db: Queryable,
    actor: Actor,
    mode: Mode,
  ): Promise<{ token: string; session: OfficeSession }> {
    await this.current(db, actor); // still signed in
    const opened = await this.merchants.openSession(db, actor.merchantId, mode, true);
    await this.end(db, actor.merchantId, `id = $2`, [actor.credentialId]);
    return { token: opened.token, session: await this.read(db, opened.token) };
  }

  /** Signs this browser out. */
  async signOut(db: Queryable, actor: Actor): Promise<void> {
    await this.end(db, actor.merchantId, `id = $2`, [actor.credentialId]);
  }

  /** Signs every browser of the merchant out, this one included; API login tokens stay. */
  async signOutEverywhere(db: Queryable, actor: Actor): Promise<number> {
    return this.end(db, actor.merchantId, `browser`, []);
  }

  /**
   * A new password, given the current one (its guesses count against the
   * login throttle): every session but the caller's own ends with the change,
   * in one statement.
   */
  async changePassword(
    db: Queryable,
    actor: Actor,
    input: { current_password: string; new_password: string },
    address: string,
  ) {
    const found = await db.query<{ email: string; password_hash: string }>(
      `SELECT email, password_hash FROM merchants WHERE id = $1`,
      [actor.merchantId],
    );
    const merchant = found.rows[0]!;
    await this.throttle.attempt(merchant.email, address, async () => {
      if (!(await verifyPassword(input.current_password, merchant.password_hash)))
        throw new AppError('credentials_invalid', 'The current password is incorrect', {
          details: { current_password: 'is incorrect' },
        });
    });
    const hash = await hashPassword(input.new_password);
    const ended = await db.query(
      `WITH changed AS (UPDATE merchants SET password_hash = $3 WHERE id = $1 RETURNING id)
       DELETE FROM sessions s USING changed WHERE s.merchant_id = changed.id AND s.id <> $2`,
      [actor.merchantId, actor.kind === 'login' ? actor.credentialId : '', hash],
    );
    this.merchants.forgetSessionsOf(actor.merchantId);
    return {
      object: 'password_change' as const,
      changed: unixSeconds(new Date()),
      sessions_ended: ended.rowCount ?? 0,
    };
  }

  private async end(db: Queryable, merchantId: string, which: string, params: unknown[]): Promise<number> {
    const ended = await db.query(`DELETE FROM sessions WHERE merchant_id = $1 AND ${which}`, [
      merchantId,
      ...params,
    ]);
    this.merchants.forgetSessionsOf(merchantId);
    return ended.rowCount ?? 0;
  }
}
