import type { RunningServer } from '../../apps/server/src/server.ts';
import { client, signUp, startTestServer, type Merchant } from './server.ts';
import type { Api } from './retail.ts';

export interface MerchantServer {
  server: RunningServer;
  merchant: Merchant;
  /** The merchant's test-mode secret key, over real HTTP. */
  api: Api;
}

/** A fresh test server with one signed-up merchant: the set-up most test files start from. */
export async function withMerchant(
  options: { business_name?: string; env?: Record<string, string> } = {},
): Promise<MerchantServer> {
  const server = await startTestServer(options.env);
  const merchant = await signUp(
    server.url,
    options.business_name === undefined ? {} : { business_name: options.business_name },
  );
  return { server, merchant, api: client(server.url, merchant.keys.secretTest) };
}
