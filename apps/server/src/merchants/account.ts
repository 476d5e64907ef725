/**
 * The account: the business as its people and its customers see it (its
 * name, in the back office's frame, on invoices and hosted pages; its default
 * language), read and changed by a secret key or a login of either mode,
 * since it is one business in both.
 */
import type { AccountLanguage, AccountUpdate } from '@tz/core';
import type { Queryable } from '../db/database.ts';
import type { Actor } from '../actor.ts';
import { merchantObject } from './service.ts';

interface AccountRow {
  id: string;
  business_name: string;
  email: string;
  default_language: AccountLanguage;
  created_at: Date;
}

const COLUMNS = 'id, business_name, email, default_language, created_at';

export class AccountService {
  async retrieve(db: Queryable, actor: Actor) {
    const found = await db.query<AccountRow>(`SELECT ${COLUMNS} FROM merchants WHERE id = $1`, [
      actor.merchantId,
    ]);
    return merchantObject(found.rows[0]!, actor.livemode);
  }

  /** Fields left out keep their value. */
  async update(db: Queryable, actor: Actor, input: AccountUpdate) {
    const updated = await db.query<AccountRow>(
      `UPDATE merchants SET business_name = COALESCE($2, business_name),
         default_language = COALESCE($3, default_language)
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [actor.merchantId, input.business_name ?? null, input.default_language ?? null],
    );
    return merchantObject(updated.rows[0]!, actor.livemode);
  }
}
