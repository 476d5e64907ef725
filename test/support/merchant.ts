import type { RunningServer } from '../../apps/server/src/server.ts';
import type { Clock } from '../../apps/server/src/infra/clock.ts';
import { client, signUp, startTestServer, type Merchant } from './server.ts';
import type { Api } from './retail.ts';

export interface SignedUp {
  merchant: Merchant;
  /** The merchant's test-mode secret key, over real HTTP. */
  api: Api;
}

/** Signs up one more merchant on a running server, with a client on its test-mode secret key. */
export async function anotherMerchant(
  server: RunningServer,
  options: { business_name?: string } = {},
): Promise<SignedUp> {
  const merchant = await signUp(server.url, options);
  return { merchant, api: client(server.url, merchant.keys.secretTest) };
}

/** A fresh test server with one signed-up merchant: the set-up most test files start from. */
export async function withMerchant(
  options: { business_name?: string; env?: Record<string, string>; clock?: Clock } = {},
): Promise<SignedUp & { server: RunningServer }> {
  const server = await startTestServer(options.env, options.clock ? { clock: options.clock } : {});
  return { server, ...(await anotherMerchant(server, options)) };
}
