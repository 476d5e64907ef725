import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCredentialStore, type SafeStorageLike } from './credentials.ts';

/** safeStorage as Electron presents it, with a reversible stand-in for the OS cipher. */
function fakeSafeStorage(
  state: { available?: boolean; backend?: string } = {},
): SafeStorageLike & { key: number } {
  return {
    key: 0x5a,
    isEncryptionAvailable: () => state.available ?? true,
    getSelectedStorageBackend: () =>
      (state.backend ?? 'gnome_libsecret') as ReturnType<
        NonNullable<SafeStorageLike['getSelectedStorageBackend']>
      >,
    encryptString(plain: string) {
      return Buffer.concat([Buffer.from('v10'), Buffer.from(plain, 'utf8').map((byte) => byte ^ this.key)]);
    },
    decryptString(sealed: Buffer) {
      if (sealed.subarray(0, 3).toString() !== 'v10')
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return Buffer.from(sealed.subarray(3).map((byte) => byte ^ this.key)).toString('utf8');
    },
  };
}

describe('device credential store', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'till-credential-'));
    file = join(dir, 'userData', 'device-credential.bin');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps the credential encrypted on disk, readable only to its owner, and reads it back', async () => {
    const store = createCredentialStore({ safeStorage: fakeSafeStorage(), file });
    expect(await store.load()).toBeNull();
    await store.save('tdc_live_7f3a9c');
    const onDisk = await readFile(file);
    expect(onDisk.includes(Buffer.from('tdc_live_7f3a9c'))).toBe(false);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await createCredentialStore({ safeStorage: fakeSafeStorage(), file }).load()).toBe(
      'tdc_live_7f3a9c',
    );
    await store.clear();
    expect(await store.load()).toBeNull();
    await store.clear();
  });

  it('refuses to save when the system has no encryption, and writes nothing', async () => {
    const store = createCredentialStore({ safeStorage: fakeSafeStorage({ available: false }), file });
    await expect(store.save('tdc_live_7f3a9c')).rejects.toThrow(/no encryption for stored secrets/);
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });

  it("refuses to save under Linux's basic_text fallback, whose key is public", async () => {
    const store = createCredentialStore({ safeStorage: fakeSafeStorage({ backend: 'basic_text' }), file });
    await expect(store.save('tdc_live_7f3a9c')).rejects.toThrow(/No keyring/);
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });

  it('replaces a stored credential whole', async () => {
    const store = createCredentialStore({ safeStorage: fakeSafeStorage(), file });
    await store.save('first-credential-that-is-longer');
    await store.save('second');
    expect(await store.load()).toBe('second');
  });

  it('says a stored credential cannot be decrypted rather than returning garbage or nothing', async () => {
    const store = createCredentialStore({ safeStorage: fakeSafeStorage(), file });
    await store.save('tdc_live_7f3a9c');
    await writeFile(file, Buffer.from('not what safeStorage wrote'));
    await expect(store.load()).rejects.toThrow(/cannot be decrypted .* pair this till again/);
  });

  it('rejects an empty credential', async () => {
    const store = createCredentialStore({ safeStorage: fakeSafeStorage(), file });
    await expect(store.save('')).rejects.toThrow(/1 to 4096 characters/);
  });
});
