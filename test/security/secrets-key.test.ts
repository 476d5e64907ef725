import { mkdtemp, rm, stat, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret, verifyStandardWebhook, verifyWebhookBody } from '@tz/core';
import { loadConfig } from '../../apps/server/src/config.ts';
import { startServer } from '../../apps/server/src/server.ts';
import { migrate, openDatabase, type Database } from '../../apps/server/src/db/database.ts';
import { openSecretBox, SecretsKeyError } from '../../apps/server/src/infra/secrets-at-rest.ts';
import { client, embeddedTemplate, signUp, until } from '../support/server.ts';
import { startReceiver, startWebhookServer, type Receiver } from '../webhooks/support.ts';

const OTHER_KEY = Buffer.alloc(32, 9).toString('base64');

describe('webhook secrets sealed with a key kept outside the database', () => {
  let server: Awaited<ReturnType<typeof startWebhookServer>>;
  let hook: Receiver;

  beforeAll(async () => {
    server = await startWebhookServer();
    hook = await startReceiver();
  });
  afterAll(async () => {
    await hook?.close();
    await server?.close();
  });

  it('seals a secret stored in clear before sealing existed at the next start, and signs with it', async () => {
    const api = client(server.url, (await signUp(server.url)).keys.secretTest);
    const endpoint = (await api.post('/v1/webhooks', { url: hook.url, events: ['customer.created'] })).body;
    const stored = async () =>
      (
        await server.database.pool.query<{ secret: string; previous_secret: string | null }>(
          'SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1',
          [endpoint.id],
        )
      ).rows[0]!;
    expect((await stored()).secret).toMatch(/^enc:v1:/);

    // A row as a server before sealing left it: its secret in clear.
    const legacy = generateWebhookSecret();
    await server.database.pool.query('UPDATE webhook_endpoints SET secret = $2 WHERE id = $1', [
      endpoint.id,
      legacy,
    ]);
    await openSecretBox(server.config, server.database); // what every start runs
    const sealed = (await stored()).secret;
    expect(sealed).toMatch(/^enc:v1:/);
    expect(sealed).not.toContain(legacy.slice('whsec_'.length));

    await api.post('/v1/webhook-events/test', { type: 'customer.created', data: {} });
    await until(() => hook.received.length === 1, 30_000);
    const { body, headers } = hook.received[0]!;
    expect(await verifyWebhookBody(legacy, body, headers['x-webhook-signature'] as string)).toBe(true);
    expect(await verifyStandardWebhook(legacy, body, headers)).toBe(true);
  });

  it('refuses to start with another key, saying which, instead of signing with garbage', async () => {
    const config = { ...server.config, SECRETS_KEY: OTHER_KEY };
    const refused = openSecretBox(config, server.database);
    await expect(refused).rejects.toBeInstanceOf(SecretsKeyError);
    await expect(refused).rejects.toThrow(
      "SECRETS_KEY is not the key this database's secrets were sealed with. Start with the key used before",
    );
  });

  it('does not open a sealed secret moved to another endpoint’s row', () => {
    const sealed = server.services.secretBox.seal('whsec_abc', 'we_one');
    expect(server.services.secretBox.open(sealed, 'we_one')).toBe('whsec_abc');
    expect(() => server.services.secretBox.open(sealed, 'we_two')).toThrow(SecretsKeyError);
  });

  it('requires a key with PostgreSQL and no data folder, where no process could share it', async () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
      DATA_DIR: 'memory://',
    });
    await expect(openSecretBox(config, server.database)).rejects.toThrow(
      'SECRETS_KEY (or SECRETS_KEY_FILE) is required with DATABASE_URL and DATA_DIR=memory://',
    );
  });
});

describe('the embedded database’s secrets key', () => {
  let dataDir: string;
  let database: Database | undefined;

  afterEach(async () => {
    await database?.close();
    database = undefined;
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is made owner-only in DATA_DIR at the first start, and a lost or changed key refuses the next start', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tz-key-'));
    database = await openDatabase({ dataDir, poolMax: 2, embeddedTemplate: await embeddedTemplate() });
    await migrate(database);
    const config = loadConfig({ DATA_DIR: dataDir });
    const keyFile = path.join(dataDir, 'secrets.key');

    const box = await openSecretBox(config, database);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const sealed = box.seal('whsec_kept', 'we_kept');
    expect((await openSecretBox(config, database)).open(sealed, 'we_kept')).toBe('whsec_kept');

    await expect(openSecretBox({ ...config, SECRETS_KEY: OTHER_KEY }, database)).rejects.toThrow(
      "SECRETS_KEY is not the key this database's secrets were sealed with",
    );
    // The server itself refuses to start with it, and lets go of DATA_DIR.
    await database.close();
    database = undefined;
    const env = { PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', SECRETS_KEY: OTHER_KEY };
    await expect(startServer(env)).rejects.toBeInstanceOf(SecretsKeyError);
    database = await openDatabase({ dataDir, poolMax: 2 });

    await writeFile(keyFile, `${OTHER_KEY}\n`);
    await expect(openSecretBox(config, database)).rejects.toThrow(
      `The key in ${keyFile} is not the key this database's secrets were sealed with`,
    );
    await unlink(keyFile);
    await expect(openSecretBox(config, database)).rejects.toThrow(`${keyFile} is missing`);
  }, 180_000);

  it('is made in DATA_DIR with PostgreSQL too, so `DATABASE_URL=… npm start` needs nothing more', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'tz-key-'));
    database = await openDatabase({
      dataDir: 'memory://',
      poolMax: 2,
      embeddedTemplate: await embeddedTemplate(),
    });
    await migrate(database);
    // The data folder need not exist yet with PostgreSQL.
    const folder = path.join(dataDir, 'data');
    const config = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', DATA_DIR: folder });
    const box = await openSecretBox(config, database);
    expect((await stat(path.join(folder, 'secrets.key'))).mode & 0o777).toBe(0o600);
    const sealed = box.seal('whsec_pg', 'we_pg');
    expect((await openSecretBox(config, database)).open(sealed, 'we_pg')).toBe('whsec_pg');
  }, 180_000);
});
