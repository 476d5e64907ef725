/**
 * A till's export of its unsynced commands, for a till that can no longer
 * sync (revoked, or retired before its backlog was sent). The file is
 *
 *     { "object": "till_export", "till": "till_…", "body": "<JSON text>", "signature": "<hex>" }
 *
 * where `body` is the JSON text of `{ till, livemode, exported_at, commands }`
 * kept as the exact string that was signed, and `signature` is the lowercase
 * hex HMAC-SHA256 of `body` (UTF-8) keyed with the till's **export key**. The
 * export key is the lowercase hex HMAC-SHA256 of the text `till export key v1`
 * keyed with the device credential (`tilld_…`): the till derives it from the
 * credential it holds, and the server stores it when the credential is issued
 * (the server keeps only a hash of the credential itself), so it can verify
 * an export after the credential was revoked. Holding the export key lets one
 * sign exports, never sync.
 */
import { z } from 'zod';
import { signWebhookBody, verifyWebhookBody } from '../webhooks/signature.ts';
import { commandSchema } from './protocol.ts';

const EXPORT_KEY_LABEL = 'till export key v1';

/** At most this many commands in one export (a till's outbox since it last synced). */
export const TILL_EXPORT_MAX_COMMANDS = 2000;
/** The largest export text accepted (the import route's body limit is set above it). */
export const TILL_EXPORT_MAX_BYTES = 8_000_000;

/** The export key of a device credential (hex); derived the same way on the till and the server. */
export function tillExportKey(credential: string): Promise<string> {
  return signWebhookBody(credential, EXPORT_KEY_LABEL);
}

export function signTillExport(exportKey: string, body: string): Promise<string> {
  return signWebhookBody(exportKey, body);
}

/** Checks an export's signature in constant time. */
export function verifyTillExport(exportKey: string, body: string, signature: string): Promise<boolean> {
  return verifyWebhookBody(exportKey, body, signature);
}

export const tillExportBody = z.strictObject({
  till: z.string().min(1).max(255),
  livemode: z.boolean(),
  exported_at: z.number().int().min(0),
  commands: z.array(commandSchema).min(1).max(TILL_EXPORT_MAX_COMMANDS),
});
export type TillExportBody = z.infer<typeof tillExportBody>;

export const tillExportFile = z.strictObject({
  object: z.literal('till_export'),
  till: z.string().min(1).max(255),
  body: z.string().min(2).max(TILL_EXPORT_MAX_BYTES),
  signature: z.string().regex(/^[0-9a-f]{64}$/, { error: 'must be 64 lowercase hex characters' }),
});
export type TillExportFile = z.infer<typeof tillExportFile>;

/** Signs the commands into an export file. */
export async function makeTillExport(exportKey: string, body: TillExportBody): Promise<TillExportFile> {
  const text = JSON.stringify(body);
  return {
    object: 'till_export',
    till: body.till,
    body: text,
    signature: await signTillExport(exportKey, text),
  };
}
