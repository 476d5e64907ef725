import { readdir } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Database } from '../../apps/server/src/db/database.ts';
import { claimIdempotencyKey, requestHash } from '../../apps/server/src/infra/idempotency.ts';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

describe('forward-only migrations', () => {
  it('carry a stored idempotency key over to the operation scope, so a retry made across the upgrade replays', async () => {
    database = await openDatabase({ dataDir: 'memory://', poolMax: 2 });
    await migrate(database, { upTo: '20261126020000_drop_duplicate_delivery_index' });
    const body = { amount: 2500, currency: 'TZS', phone: '0700000001' };
    await database.pool.query(
      `INSERT INTO idempotency_keys (merchant_id, livemode, method, path, key, request_hash, state, response_status, response_body)
       VALUES ('mer_old', false, 'POST', '/v1/payments', 'order-1001', $1, 'done', 201, '{"id":"pay_before"}')`,
      [requestHash(body)],
    );

    await migrate(database);

    const scope = {
      merchantId: 'mer_old',
      livemode: false,
      operation: 'POST /v1/payments',
      key: 'order-1001',
    };
    const claim = await claimIdempotencyKey(database.pool, scope, requestHash(body), 24, 'req_after');
    expect(claim).toEqual({ kind: 'replay', status: 201, body: { id: 'pay_before' } });
    // The same key under another operation is another key.
    const command = await claimIdempotencyKey(
      database.pool,
      { ...scope, operation: 'command order.create' },
      requestHash(body),
      24,
      'req_after',
    );
    expect(command).toEqual({ kind: 'claimed' });
  }, 120_000);

  it('give each migration a timestamp of its own', async () => {
    const names = (await readdir(new URL('../../apps/server/migrations', import.meta.url))).filter((name) =>
      name.endsWith('.sql'),
    );
    const stamps = names.map((name) => name.split('_')[0]);
    expect(stamps.filter((stamp, i) => stamps.indexOf(stamp) !== i)).toEqual([]);
  });

  it('migrate on a database that ran a renamed migration under its old name, without running it again', async () => {
    database = await openDatabase({ dataDir: 'memory://', poolMax: 2 });
    await migrate(database, { upTo: '20261129010100_shift_no_sales' });
    const recorded = async () =>
      (
        await database!.pool.query<{ id: number; name: string }>(
          'SELECT id, name FROM pgmigrations ORDER BY id',
        )
      ).rows;
    const before = await recorded();
    // As the database recorded them before the renames.
    await database.pool.query(
      `UPDATE pgmigrations SET name = replace(replace(name,
         '20261126100100_sandbox_settle_at', '20261126100000_sandbox_settle_at'),
         '20261129010100_shift_no_sales', '20261129010000_shift_no_sales')`,
    );
    expect((await recorded()).map((row) => row.name)).toContain('20261126100000_sandbox_settle_at');

    // Running either again would fail: their columns exist.
    await migrate(database);

    const after = await recorded();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.map((row) => row.name)).not.toContain('20261126100000_sandbox_settle_at');
    expect(after.map((row) => row.name)).not.toContain('20261129010000_shift_no_sales');
    expect(after.length).toBeGreaterThan(before.length);
  }, 120_000);
});
