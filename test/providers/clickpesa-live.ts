import type { RunningServer } from '../../apps/server/src/server.ts';
import { client, signUp, startTestServer, type Merchant } from '../support/server.ts';
import {
  providerEnvFor,
  startFakeClickPesa,
  type FakeClickPesa,
  type FakeCredentials,
} from './clickpesa-fake.ts';

export interface LiveClickPesa {
  fake: FakeClickPesa;
  server: RunningServer;
  merchant: Merchant;
  /** A client on the merchant's live secret key. */
  live: ReturnType<typeof client>;
}

/** The fake ClickPesa, a server configured with it (callbacks wired back), and one merchant. */
export async function startLiveClickPesa(credentials: FakeCredentials): Promise<LiveClickPesa> {
  const fake = await startFakeClickPesa(credentials);
  const server = await startTestServer(providerEnvFor(fake.url, credentials));
  fake.setCallbackUrl(`${server.url}/callbacks/clickpesa`);
  const merchant = await signUp(server.url);
  return { fake, server, merchant, live: client(server.url, merchant.keys.secretLive) };
}
