/**
 * Each event's door key: an Ed25519 pair made with the event. The public half
 * is served to doors; the private half is sealed by the SecretBox (bound to the
 * event's row) and opened only to sign tickets as they are issued. Doors verify
 * with core's `verifyTicketCode`, on Web Crypto.
 */
import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { encodeTicketCode, ticketCodeBody, type TicketClaim } from '@tz/core';
import type { SecretBox } from '../infra/secrets-at-rest.ts';

export function newDoorKey(box: SecretBox, eventId: string): { publicKey: string; sealedPrivateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
  return { publicKey: publicKey.export({ format: 'jwk' }).x!, sealedPrivateKey: box.seal(pkcs8, eventId) };
}

/** The codes of the claims, all of one event, signed with its key. */
export function signTicketCodes(
  box: SecretBox,
  event: { id: string; door_private_key: string },
  claims: readonly TicketClaim[],
): string[] {
  if (claims.length === 0) return [];
  const key = createPrivateKey({
    key: Buffer.from(box.open(event.door_private_key, event.id), 'base64'),
    format: 'der',
    type: 'pkcs8',
  });
  return claims.map((claim) => {
    const body = ticketCodeBody(claim);
    if (body === null) throw new Error(`ticket ${claim.ticket} has an id no code can carry`);
    return encodeTicketCode(body, sign(null, body, key));
  });
}
