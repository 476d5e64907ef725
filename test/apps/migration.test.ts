import { afterEach, describe, expect, it } from 'vitest';
import { APP_SLUGS } from '@tz/core';
import { migrate, openDatabase, type Database } from '../../apps/server/src/db/database.ts';
import { listPage } from '../../apps/server/src/db/list-page.ts';
import { AppInstallations, appListObject, type AppListRow } from '../../apps/server/src/merchants/apps.ts';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

describe('the apps migration', () => {
  it('gives merchants from before it a referral code each, East Africa Time, every app installed and Swahili', async () => {
    database = await openDatabase({ dataDir: 'memory://', poolMax: 2 });
    await migrate(database, { upTo: '20261127000000_money_movement_ledger' });
    await database.pool.query(
      `INSERT INTO merchants (id, business_name, email, password_hash)
       VALUES ('mer_old1', 'Duka la Zamani', 'a@example.tz', 'x'), ('mer_old2', 'Duka Jingine', 'b@example.tz', 'x')`,
    );

    await migrate(database);

    const merchants = await database.pool.query<{ referral_code: string; time_zone: string }>(
      `SELECT referral_code, time_zone FROM merchants ORDER BY id`,
    );
    const codes = merchants.rows.map((row) => row.referral_code);
    expect(codes).toHaveLength(2);
    expect(new Set(codes).size).toBe(2);
    for (const code of codes) expect(code).toMatch(/^[2-9A-H]{10}$/);
    expect(merchants.rows.map((row) => row.time_zone)).toEqual([
      'Africa/Dar_es_Salaam',
      'Africa/Dar_es_Salaam',
    ]);
    const apps = await listPage(
      database.pool,
      new AppInstallations(0).listSource({ merchantId: 'mer_old1', livemode: true }),
      { limit: 100 },
      (row: AppListRow) => appListObject(row, true),
    );
    expect(apps.data.filter((app) => app.installed).map((app) => app.slug)).toEqual([...APP_SLUGS]);
    // Merchants from before the account's language speak Swahili, as their stores' receipts did.
    const languages = await database.pool.query(`SELECT default_language FROM merchants ORDER BY id`);
    expect(languages.rows).toEqual([{ default_language: 'sw' }, { default_language: 'sw' }]);
  }, 120_000);
});
