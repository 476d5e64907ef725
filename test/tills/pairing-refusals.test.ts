/**
 * A till being paired says which of the three things went wrong with its
 * code (wrong, already used, expired), each asking for something different,
 * through the real tRPC transport against a running server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSource } from 'eventsource';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { openTillStore, type TillStore } from '../../apps/desktop/src/renderer/data/index.ts';
import { TEST_TIMING } from '../../apps/desktop/test/till-data.ts';
import { trpcTransport } from '../../apps/desktop/src/renderer/data/sync/transport.ts';
import { refusalText } from '../../apps/desktop/src/renderer/app/refusal.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { client, signUp, startTestServer } from '../support/server.ts';
import type { Api } from '../support/retail.ts';
import { makeTill } from '../support/tills.ts';

let server: RunningServer;
let api: Api;
let opened = 0;

beforeAll(async () => {
  server = await startTestServer();
  api = client(server.url, (await signUp(server.url)).keys.secretTest);
});
afterAll(async () => {
  await server?.close();
});

/** Pairs a fresh till page with `code`, then closes it (RxDB caps the collections open at once). */
async function pairFresh(code: string): Promise<unknown> {
  const store: TillStore = await openTillStore({
    serverUrl: server.url,
    storage: getRxStorageMemory(),
    name: `pairing${++opened}${Math.random().toString(36).slice(2, 8)}`,
    multiInstance: false,
    transport: trpcTransport({ serverUrl: server.url, credential: () => null, EventSource }),
    online: () => true,
    timing: TEST_TIMING,
  });
  try {
    await store.pair(code);
    return null;
  } catch (error) {
    return error;
  } finally {
    await store.close();
  }
}

describe('pairing refusals at the till', () => {
  it('tells a wrong code, a used one and an expired one apart, in both languages', async () => {
    const wrong = await pairFresh('ZZZZ-ZZZZ-ZZZZ');
    expect(wrong).toMatchObject({ code: 'pairing_code_invalid' });

    const till = await makeTill(api);
    expect(await pairFresh(till.pairing_code)).toBeNull();
    const used = await pairFresh(till.pairing_code);
    expect(used).toMatchObject({ code: 'pairing_code_used' });

    const stale = await makeTill(api, { name: 'Kaunta 2' });
    await server.database.pool.query(
      `UPDATE tills SET pairing_expires_at = now() - interval '1 second' WHERE id = $1`,
      [stale.id],
    );
    const expired = await pairFresh(stale.pairing_code);
    expect(expired).toMatchObject({ code: 'pairing_code_expired' });

    for (const language of ['en', 'sw'] as const) {
      const sentences = [wrong, used, expired].map((error) => refusalText(language, error));
      expect(new Set(sentences).size, language).toBe(3);
      for (const sentence of sentences) expect(sentence, language).not.toMatch(/pairing_code|\{/);
    }
  });
});
