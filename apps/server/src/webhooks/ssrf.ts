import dns from 'node:dns';
import net from 'node:net';
import { AppError } from '@tz/core';
import { blockedAddressKind } from '@tz/core/addresses';

/** The host of a URL as Node connects to it: brackets off IPv6 literals. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

const DNS_TIMEOUT_MS = 3_000;

async function resolveAll(host: string): Promise<string[]> {
  if (net.isIP(host)) return [host];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('DNS lookup timed out')), DNS_TIMEOUT_MS);
  });
  try {
    const found = await Promise.race([dns.promises.lookup(host, { all: true, verbatim: true }), timeout]);
    return found.map((entry) => entry.address);
  } finally {
    clearTimeout(timer);
  }
}

export interface UrlPolicy {
  livemode: boolean;
  allowPrivate: boolean;
}

/**
 * Checks an endpoint URL at registration: http(s) only, no credentials, https
 * in live mode, and every address the host resolves to must be public (unless
 * WEBHOOK_ALLOW_PRIVATE_URLS, for local development, where live mode may then
 * also use http to a private address). The same address rule is enforced again
 * at connect time (see `guardedLookup`), which is what stops DNS rebinding.
 */
export async function assertWebhookUrlAllowed(
  text: string,
  policy: UrlPolicy,
  field = 'url',
  /** What the URL is for, as the refusal names it (a channel's feed uses the same rules). */
  noun = 'Webhook URLs',
): Promise<string> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AppError('url_invalid', 'The URL is not valid', {
      details: { [field]: 'must be an absolute http(s) URL' },
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppError('url_invalid', `${noun} must be http or https`, {
      details: { [field]: 'must use https' },
    });
  }
  if (url.username || url.password) {
    throw new AppError('url_invalid', `${noun} may not carry credentials`, {
      details: { [field]: 'must not contain user:password@' },
    });
  }
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = await resolveAll(host);
  } catch {
    throw new AppError('url_invalid', `The host '${host}' does not resolve`, {
      details: { [field]: 'host does not resolve' },
    });
  }
  const blocked = addresses
    .map((address) => [address, blockedAddressKind(address)] as const)
    .find(([, kind]) => kind);
  if (blocked && !policy.allowPrivate) {
    throw new AppError(
      'url_not_allowed',
      `${noun} may not point at ${blocked[1]} addresses (${blocked[0]})`,
      {
        details: { [field]: `resolves to a ${blocked[1]} address` },
      },
    );
  }
  if (policy.livemode && url.protocol !== 'https:' && !(policy.allowPrivate && blocked)) {
    throw new AppError('url_not_allowed', `${noun} must use https in live mode`, {
      details: { [field]: 'must use https in live mode' },
    });
  }
  return url.toString();
}

export class AddressNotAllowedError extends Error {
  readonly code = 'EADDRNOTALLOWED';
  constructor(address: string, kind: string) {
    super(`refused to connect to a ${kind} address (${address})`);
  }
}

/** A refusal for a URL whose host is an IP literal (Node skips `lookup` for those). */
export function literalAddressRefusal(url: URL): AddressNotAllowedError | null {
  const host = hostOf(url);
  if (!net.isIP(host)) return null;
  const kind = blockedAddressKind(host);
  return kind ? new AddressNotAllowedError(host, kind) : null;
}

/**
 * A `lookup` for http.Agent that refuses non-public addresses at connect time,
 * so a name that resolved to a public address at registration and to an
 * internal one now (DNS rebinding) is still refused.
 */
export const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses;
    for (const { address } of list) {
      const kind = blockedAddressKind(address);
      if (kind) return callback(new AddressNotAllowedError(address, kind), '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    const first = list[0];
    if (!first)
      return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
    callback(null, first.address, first.family);
  });
};
