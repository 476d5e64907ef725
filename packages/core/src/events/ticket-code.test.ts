import { describe, expect, it } from 'vitest';
import { newId } from '../ids.ts';
import {
  doorVerdict,
  encodeTicketCode,
  fromBase64Url,
  readTicketCode,
  ticketCodeBody,
  toBase64Url,
  verifyTicketCode,
} from './ticket-code.ts';

/** A door key pair made on Web Crypto, and a signer as the server's. */
async function doorKey() {
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
  const sign = async (claim: { event: string; ticket: string; tier: string }) => {
    const body = ticketCodeBody(claim)!;
    const signature = new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, pair.privateKey, body));
    return encodeTicketCode(body, signature);
  };
  return { key: pair.publicKey, sign };
}

const claimOf = () => ({ event: newId('ticketedEvent'), ticket: newId('ticket'), tier: newId('eventTier') });

describe('ticket codes', () => {
  it('carry their event, ticket and tier ids exactly, in 151 base64url characters', async () => {
    const { sign } = await doorKey();
    for (let i = 0; i < 50; i++) {
      const claim = claimOf();
      const code = await sign(claim);
      expect(code).toMatch(/^[A-Za-z0-9_-]{151}$/);
      expect(readTicketCode(code)!.claim).toEqual(claim);
    }
    const edge = {
      event: 'tev_7zzzzzzzzzzzzzzzzzzzzzzzzz',
      ticket: 'tkt_00000000000000000000000000',
      tier: 'tier_01arz3ndektsv4rrffq69g5fav',
    };
    expect(readTicketCode(await sign(edge))!.claim).toEqual(edge);
  });

  it('verify with the event’s key only, and not once any byte is changed', async () => {
    const door = await doorKey();
    const other = await doorKey();
    const claim = claimOf();
    const code = await door.sign(claim);
    expect(await verifyTicketCode(code, door.key)).toEqual(claim);
    expect(await verifyTicketCode(code, other.key)).toBeNull();
    const bytes = fromBase64Url(code)!;
    for (const at of [0, 5, 20, 40, 60, 112]) {
      const changed = bytes.slice();
      changed[at]! ^= 0x01;
      expect(await verifyTicketCode(toBase64Url(changed), door.key), `byte ${at}`).toBeNull();
    }
  });

  it('give a door its verdict: ok, wrong_event for another event’s code, invalid for junk', async () => {
    const door = await doorKey();
    const claim = claimOf();
    const code = await door.sign(claim);
    expect(await doorVerdict(code, { event: claim.event, key: door.key })).toEqual({
      verdict: 'ok',
      claim,
      listed: false,
    });
    const foreign = await door.sign(claimOf());
    expect((await doorVerdict(foreign, { event: claim.event, key: door.key })).verdict).toBe('wrong_event');
    for (const junk of ['', 'hello', code.slice(1), `${code}A`, '!'.repeat(151)])
      expect((await doorVerdict(junk, { event: claim.event, key: door.key })).verdict).toBe('invalid');
  });

  it('refuse ids that are not ours to carry', () => {
    expect(ticketCodeBody({ ...claimOf(), ticket: 'tkt_8zzzzzzzzzzzzzzzzzzzzzzzzz' })).toBeNull();
    expect(ticketCodeBody({ ...claimOf(), event: 'evt_01arz3ndektsv4rrffq69g5fav' })).toBeNull();
  });
});
