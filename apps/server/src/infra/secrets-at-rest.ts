import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../db/database.ts';

/** A sealed secret's text: this prefix, then base64 of the 12-byte nonce, the 16-byte tag and the ciphertext. */
const SEALED = 'enc:v1:';
const KEY_BYTES = 32;

/** A refusal to start that waiting cannot cure: the key does not open the database's secrets. */
export class SecretsKeyError extends Error {}

/** Where the key comes from: these settings of `Config`. */
export interface SecretsKeySettings {
  SECRETS_KEY?: string | undefined;
  SECRETS_KEY_FILE?: string | undefined;
  DATA_DIR: string;
  DATABASE_URL?: string | undefined;
}

/**
 * Secrets the server must use in clear (webhook signing secrets) are kept in
 * the database sealed with AES-256-GCM under a key that is not in the database,
 * so a copy of the database, a dump or a client reading its rows sees no
 * secret. Each is bound to its row (the additional data), so a sealed value
 * moved to another row does not open there.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {}

  seal(plain: string, row: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce).setAAD(Buffer.from(row));
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return SEALED + Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString('base64');
  }

  /** The secret in clear. A value stored before sealing existed opens as itself until the startup sweep seals it. */
  open(stored: string, row: string): string {
    if (!stored.startsWith(SEALED)) return stored;
    const bytes = Buffer.from(stored.slice(SEALED.length), 'base64');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12))
        .setAAD(Buffer.from(row))
        .setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretsKeyError(`the secret of ${row} does not open with this SECRETS_KEY`);
    }
  }

  /** Names the key without revealing it, so a start with another key is refused before anything is sealed. */
  get fingerprint(): string {
    return createHmac('sha256', this.key).update('secrets key fingerprint').digest('hex').slice(0, 32);
  }
}

export const isSealed = (stored: string): boolean => stored.startsWith(SEALED);

/**
 * The secrets key: `SECRETS_KEY` (base64 of 32 bytes), else the file
 * `SECRETS_KEY_FILE`, which defaults to `DATA_DIR/secrets.key`, created
 * (owner-only) on the first start. Processes on several machines sharing one
 * PostgreSQL database must be given the same key. Checked against
 * the fingerprint the database keeps; then any secret still stored in clear is
 * sealed.
 */
export async function openSecretBox(config: SecretsKeySettings, database: Database): Promise<SecretBox> {
  const known = await database.pool.query<{ fingerprint: string }>('SELECT fingerprint FROM secrets_key');
  const fingerprint = known.rows[0]?.fingerprint;
  const box = new SecretBox(await secretsKey(config, fingerprint !== undefined));
  if (fingerprint !== undefined && fingerprint !== box.fingerprint) {
    throw new SecretsKeyError(
      `${keySource(config)} is not the key this database's secrets were sealed with. ` +
        'Start with the key used before (a lost key cannot be recovered: each webhook endpoint then needs its secret rotated by hand).',
    );
  }
  await database.pool.query('INSERT INTO secrets_key (fingerprint) VALUES ($1) ON CONFLICT DO NOTHING', [
    box.fingerprint,
  ]);
  await sealWebhookSecrets(database, box);
  return box;
}

const defaultKeyFile = (config: SecretsKeySettings) =>
  config.DATA_DIR !== 'memory://' ? path.resolve(config.DATA_DIR, 'secrets.key') : undefined;

const keySource = (config: SecretsKeySettings) =>
  config.SECRETS_KEY ? 'SECRETS_KEY' : `The key in ${config.SECRETS_KEY_FILE ?? defaultKeyFile(config)}`;

async function secretsKey(config: SecretsKeySettings, sealedBefore: boolean): Promise<Buffer> {
  if (config.SECRETS_KEY) return decodeKey(config.SECRETS_KEY, 'SECRETS_KEY');
  const file = config.SECRETS_KEY_FILE ?? defaultKeyFile(config);
  if (!file) {
    if (config.DATABASE_URL) {
      throw new SecretsKeyError(
        'SECRETS_KEY (or SECRETS_KEY_FILE) is required with DATABASE_URL and DATA_DIR=memory://: every process needs the same key ' +
          'to seal and open webhook secrets. Make one with `openssl rand -base64 32`.',
      );
    }
    return randomBytes(KEY_BYTES); // an in-memory database lives and dies with this process
  }
  const existing = await readKeyFile(file);
  if (existing !== undefined) return existing;
  if (sealedBefore) {
    throw new SecretsKeyError(
      `${file} is missing, and this database's secrets were sealed with the key it held: restore it.`,
    );
  }
  const key = randomBytes(KEY_BYTES);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const made = await writeFile(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' }).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false; // another process on this machine made it first
      throw error;
    },
  );
  return made ? key : ((await readKeyFile(file)) ?? key);
}

async function readKeyFile(file: string): Promise<Buffer | undefined> {
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing === undefined) return undefined;
  if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
  return decodeKey(existing.trim(), file);
}

function decodeKey(text: string, source: string): Buffer {
  const key = Buffer.from(text, 'base64');
  if (key.length !== KEY_BYTES || key.toString('base64') !== text) {
    throw new SecretsKeyError(
      `${source} must be the base64 of ${KEY_BYTES} random bytes (openssl rand -base64 32)`,
    );
  }
  return key;
}

/** Seals webhook secrets stored in clear (before sealing existed, or by a process that predates it). */
async function sealWebhookSecrets(database: Database, box: SecretBox): Promise<void> {
  const clear = await database.pool.query<{ id: string; secret: string; previous_secret: string | null }>(
    `SELECT id, secret, previous_secret FROM webhook_endpoints
     WHERE secret NOT LIKE 'enc:%' OR previous_secret NOT LIKE 'enc:%'`,
  );
  for (const row of clear.rows) {
    const seal = (value: string) => (isSealed(value) ? value : box.seal(value, row.id));
    // Only if unchanged since read: a rotation in between wins.
    await database.pool.query(
      `UPDATE webhook_endpoints SET secret = $3, previous_secret = $5
       WHERE id = $1 AND secret = $2 AND previous_secret IS NOT DISTINCT FROM $4`,
      [
        row.id,
        row.secret,
        seal(row.secret),
        row.previous_secret,
        row.previous_secret && seal(row.previous_secret),
      ],
    );
  }
}
