/**
 * The till's device credential, encrypted with Electron's `safeStorage` (the
 * OS keychain, DPAPI or the Linux secret service) into one file under the
 * app's user data. Never in clear: where the system has no real encryption
 * (Linux without a keyring falls back to a fixed key, `basic_text`), saving is
 * refused with a message that says so.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SafeStorage } from 'electron';
import type { CredentialStore } from '../shared/bridge.ts';

export type SafeStorageLike = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'> &
  Partial<Pick<SafeStorage, 'getSelectedStorageBackend'>>;

/** The credential file's name under `app.getPath('userData')`. */
export const CREDENTIAL_FILE = 'device-credential.bin';
const MAX_CREDENTIAL_LENGTH = 4096;

/** Why the credential cannot be encrypted here, or undefined when it can. */
export function encryptionProblem(safeStorage: SafeStorageLike): string | undefined {
  if (!safeStorage.isEncryptionAvailable()) {
    return 'This computer offers no encryption for stored secrets, so the till will not keep its device credential: pair it again after each start.';
  }
  // Linux only: `basic_text` means no keyring answered and the key is a constant in Electron's source.
  if (safeStorage.getSelectedStorageBackend?.() === 'basic_text') {
    return 'No keyring (GNOME Keyring, KWallet) is running, so stored secrets would not be protected: start one, or pair the till again after each start.';
  }
  return undefined;
}

export function createCredentialStore(options: {
  safeStorage: SafeStorageLike;
  file: string;
}): CredentialStore {
  const { safeStorage, file } = options;
  return {
    async load() {
      let sealed: Buffer;
      try {
        sealed = await readFile(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      const problem = encryptionProblem(safeStorage);
      if (problem) throw new Error(`The stored device credential cannot be read now. ${problem}`);
      try {
        return safeStorage.decryptString(sealed);
      } catch {
        throw new Error(
          'The stored device credential cannot be decrypted (the keyring changed or is locked): pair this till again.',
        );
      }
    },
    async save(credential) {
      if (
        typeof credential !== 'string' ||
        credential.length === 0 ||
        credential.length > MAX_CREDENTIAL_LENGTH
      ) {
        throw new Error(`A device credential is a string of 1 to ${MAX_CREDENTIAL_LENGTH} characters.`);
      }
      const problem = encryptionProblem(safeStorage);
      if (problem) throw new Error(problem);
      const sealed = safeStorage.encryptString(credential);
      await mkdir(dirname(file), { recursive: true });
      // Write then rename, so a crash never leaves half a credential behind.
      const partial = `${file}.partial`;
      await writeFile(partial, sealed, { mode: 0o600 });
      await rename(partial, file);
    },
    async clear() {
      await rm(file, { force: true });
    },
  };
}
