/**
 * A ticket's QR code: a signed claim a door checks without the network.
 *
 * Version 1 is 113 bytes, written as unpadded base64url (151 characters):
 *   byte 0       the version, 1
 *   bytes 1-16   the event's ULID (the id without `tev_`), 128 bits
 *   bytes 17-32  the ticket's ULID (`tkt_`)
 *   bytes 33-48  the tier's ULID (`tier_`)
 *   bytes 49-112 Ed25519 signature of bytes 0-48 by the event's door key
 * The server signs (its private key never leaves it); doors verify with the
 * event's public key on Web Crypto, here, so browsers and Node run the same
 * check.
 *
 * Version 2 is a box office's code (a ticket sold at a till, which holds no
 * private key): bytes 0-48 alone, the version 2, 66 characters. Nothing
 * signs it; a door admits it only when its ticket list holds the ticket
 * with exactly this code (the till that sold it, at once; other doors once
 * the sale is synced). See docs/EVENTS.md.
 */
import { fromBase64, toBase64 } from '../base64.ts';
import { ID_PREFIXES } from '../ids.ts';

export const TICKET_CODE_VERSION = 1;
/** A code made at a till's box office: unsigned, vouched for by the ticket list. */
export const LISTED_CODE_VERSION = 2;
const ULID_BYTES = 16;
const BODY_BYTES = 1 + 3 * ULID_BYTES;
const SIGNATURE_BYTES = 64;
const CODE_BYTES = BODY_BYTES + SIGNATURE_BYTES;

/** What a code says: its event, ticket and tier, as ids. */
export interface TicketClaim {
  event: string;
  ticket: string;
  tier: string;
}

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const ULID = /^[0-7][0-9a-hjkmnp-tv-z]{25}$/;

/** A lowercase ULID's 128 bits (its first character carries 3 of them). */
function ulidBytes(ulid: string): Uint8Array | null {
  if (!ULID.test(ulid)) return null;
  const out = new Uint8Array(ULID_BYTES);
  let acc = ALPHABET.indexOf(ulid[0]!);
  let bits = 3;
  let index = 0;
  for (let i = 1; i < ulid.length; i++) {
    acc = (acc << 5) | ALPHABET.indexOf(ulid[i]!);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[index++] = (acc >> bits) & 0xff;
      acc &= (1 << bits) - 1;
    }
  }
  return out;
}

function ulidOf(bytes: Uint8Array): string {
  let out = ALPHABET[bytes[0]! >> 5]!;
  let acc = bytes[0]! & 0x1f;
  let bits = 5;
  for (let i = 1; i < bytes.length; i++) {
    acc = (acc << 8) | bytes[i]!;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(acc >> bits) & 31]!;
    }
    acc &= (1 << bits) - 1;
  }
  return out;
}

const ulidPart = (id: string, prefix: string): string | null =>
  id.startsWith(`${prefix}_`) ? id.slice(prefix.length + 1) : null;

export const toBase64Url = (bytes: Uint8Array): string =>
  toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  return fromBase64(padded);
}

/** The bytes the door key signs for a claim; null when an id is not one `newId` made. */
export function ticketCodeBody(
  claim: TicketClaim,
  version: number = TICKET_CODE_VERSION,
): Uint8Array<ArrayBuffer> | null {
  const parts = [
    ulidPart(claim.event, ID_PREFIXES.ticketedEvent),
    ulidPart(claim.ticket, ID_PREFIXES.ticket),
    ulidPart(claim.tier, ID_PREFIXES.eventTier),
  ].map((part) => (part === null ? null : ulidBytes(part)));
  if (parts.some((part) => part === null)) return null;
  const body = new Uint8Array(BODY_BYTES);
  body[0] = version;
  parts.forEach((part, index) => body.set(part!, 1 + index * ULID_BYTES));
  return body;
}

/** The code printed as the QR: the signed body and its signature. */
export function encodeTicketCode(body: Uint8Array, signature: Uint8Array): string {
  const code = new Uint8Array(CODE_BYTES);
  code.set(body, 0);
  code.set(signature, BODY_BYTES);
  return toBase64Url(code);
}

/** A box office's code for a ticket it sold (version 2, unsigned); null when an id is not one `newId` made. */
export function listedTicketCode(claim: TicketClaim): string | null {
  const body = ticketCodeBody(claim, LISTED_CODE_VERSION);
  return body === null ? null : toBase64Url(body);
}

/**
 * A code taken apart, unverified; null when it is neither a version-1 code
 * nor a version-2 one. A version-2 code has no signature (`signature: null`).
 */
export function readTicketCode(code: string): {
  claim: TicketClaim;
  body: Uint8Array<ArrayBuffer>;
  signature: Uint8Array<ArrayBuffer> | null;
} | null {
  const bytes = fromBase64Url(code.trim());
  if (bytes === null) return null;
  const signed = bytes.length === CODE_BYTES && bytes[0] === TICKET_CODE_VERSION;
  const listed = bytes.length === BODY_BYTES && bytes[0] === LISTED_CODE_VERSION;
  if (!signed && !listed) return null;
  const id = (prefix: string, at: number) => `${prefix}_${ulidOf(bytes.subarray(at, at + ULID_BYTES))}`;
  return {
    claim: {
      event: id(ID_PREFIXES.ticketedEvent, 1),
      ticket: id(ID_PREFIXES.ticket, 1 + ULID_BYTES),
      tier: id(ID_PREFIXES.eventTier, 1 + 2 * ULID_BYTES),
    },
    body: bytes.slice(0, BODY_BYTES),
    signature: signed ? bytes.slice(BODY_BYTES) : null,
  };
}

/** An event's door key (raw Ed25519, base64url, as `GET /v1/events/{id}/door-key` serves it) for verifying. */
export async function importDoorKey(publicKey: string): Promise<CryptoKey | null> {
  const raw = fromBase64Url(publicKey);
  if (raw === null || raw.length !== 32) return null;
  return crypto.subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']);
}

/** The code's claim when its signature is the key's; null otherwise. */
export async function verifyTicketCode(code: string, key: CryptoKey): Promise<TicketClaim | null> {
  const read = readTicketCode(code);
  if (read === null || read.signature === null) return null;
  const valid = await crypto.subtle.verify({ name: 'Ed25519' }, key, read.signature, read.body);
  return valid ? read.claim : null;
}

/**
 * A door's own verdict on a code, from its event's key alone: `wrong_event`
 * for a well-formed code of another event (its key is not the door's to
 * check), `invalid` for anything unsigned or malformed, `ok` for a genuine
 * code of this event. Whether it is paid, revoked or already admitted is the
 * ticket list's to say. A box office's code (version 2) is `ok` with
 * `listed`: only the ticket list can vouch for it, by holding exactly it.
 */
export async function doorVerdict(
  code: string,
  door: { event: string; key: CryptoKey },
): Promise<{ verdict: 'ok' | 'invalid' | 'wrong_event'; claim: TicketClaim | null; listed: boolean }> {
  const read = readTicketCode(code);
  if (read === null) return { verdict: 'invalid', claim: null, listed: false };
  const listed = read.signature === null;
  if (read.claim.event !== door.event) return { verdict: 'wrong_event', claim: read.claim, listed };
  if (listed) return { verdict: 'ok', claim: read.claim, listed };
  const claim = await verifyTicketCode(code, door.key);
  return claim ? { verdict: 'ok', claim, listed } : { verdict: 'invalid', claim: null, listed };
}
