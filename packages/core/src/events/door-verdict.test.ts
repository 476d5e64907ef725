import { describe, expect, it } from 'vitest';
import { newId } from '../ids.ts';
import { byId, judgeAtDoor, type DoorAdmission, type DoorBook, type DoorTicket } from './door-verdict.ts';
import { encodeTicketCode, ticketCodeBody, type TicketClaim } from './ticket-code.ts';

/** An event's door key pair, and a signer as the server's. */
async function doorKey() {
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
  const sign = async (claim: TicketClaim) => {
    const body = ticketCodeBody(claim)!;
    return encodeTicketCode(body, new Uint8Array(await crypto.subtle.sign('Ed25519', pair.privateKey, body)));
  };
  return { key: pair.publicKey, sign };
}

const NOW = 1_790_000_000;
const event = {
  id: newId('ticketedEvent'),
  status: 'published' as const,
  starts_at: NOW + 3600,
  doors_open_at: null,
};
const tier = newId('eventTier');

async function setUp(count = 3) {
  const { key, sign } = await doorKey();
  const tickets: DoorTicket[] = [];
  for (let i = 0; i < count; i++) {
    const id = newId('ticket');
    tickets.push({
      id,
      tier,
      status: 'valid',
      holder_name: `Holder ${i}`,
      code: await sign({ event: event.id, ticket: id, tier }),
    });
  }
  const admissions = new Map<string, DoorAdmission>();
  const book: DoorBook = { event, key, tickets: byId(tickets), tiers: new Map([[tier, 'VIP']]), admissions };
  return { book, tickets, admissions, sign };
}

describe('the door’s verdict', () => {
  it('admits a paid ticket with its tier and holder, then names the first admission', async () => {
    const { book, tickets, admissions } = await setUp();
    const first = await judgeAtDoor(tickets[0]!.code!, book, NOW);
    expect(first).toEqual({
      verdict: 'ok',
      ticket: tickets[0]!.id,
      tier: { id: tier, name: 'VIP' },
      holder: 'Holder 0',
      checked_in: null,
    });
    admissions.set(tickets[0]!.id, { at: NOW, door: 'North gate' });
    const again = await judgeAtDoor(`  ${tickets[0]!.code!}\n`, book, NOW + 5);
    expect(again.verdict).toBe('already_redeemed');
    expect(again.checked_in).toEqual({ at: NOW, door: 'North gate' });
    expect(again.holder).toBe('Holder 0');
    expect((await judgeAtDoor(tickets[1]!.code!, book, NOW)).verdict).toBe('ok');
  });

  it('refuses junk, tampered, foreign, revoked and unknown codes as the server does', async () => {
    const { book, tickets, sign } = await setUp();
    expect((await judgeAtDoor('hello', book, NOW)).verdict).toBe('invalid');
    const code = tickets[0]!.code!;
    const tampered = code.slice(0, 60) + (code[60] === 'A' ? 'B' : 'A') + code.slice(61);
    expect((await judgeAtDoor(tampered, book, NOW)).verdict).toBe('invalid');
    // Another event's code: the door cannot check its signature, and it is not this door's.
    const foreign = await (
      await doorKey()
    ).sign({ event: newId('ticketedEvent'), ticket: newId('ticket'), tier });
    expect(await judgeAtDoor(foreign, book, NOW)).toMatchObject({
      verdict: 'wrong_event',
      ticket: null,
      holder: null,
    });
    // This event's key on a ticket the door does not hold, or with another tier.
    expect(
      (await judgeAtDoor(await sign({ event: event.id, ticket: newId('ticket'), tier }), book, NOW)).verdict,
    ).toBe('invalid');
    const otherTier = await sign({ event: event.id, ticket: tickets[0]!.id, tier: newId('eventTier') });
    expect((await judgeAtDoor(otherTier, book, NOW)).verdict).toBe('invalid');
    // A ticket whose code changed (a tier change re-issues it): the old code is revoked.
    const reissued = new Map(book.tickets);
    reissued.set(tickets[0]!.id, { ...tickets[0]!, code: tickets[1]!.code });
    expect((await judgeAtDoor(code, { ...book, tickets: reissued }, NOW)).verdict).toBe('invalid');
  });

  it('says unpaid, canceled and not yet valid with the ticket it named', async () => {
    const { book, tickets } = await setUp();
    const withStatus = (status: DoorTicket['status'], code: string | null = tickets[0]!.code) => ({
      ...book,
      tickets: new Map([[tickets[0]!.id, { ...tickets[0]!, status, code }]]),
    });
    expect(await judgeAtDoor(tickets[0]!.code!, withStatus('held', null), NOW)).toMatchObject({
      verdict: 'unpaid',
      holder: 'Holder 0',
    });
    expect((await judgeAtDoor(tickets[0]!.code!, withStatus('void'), NOW)).verdict).toBe('canceled');
    expect((await judgeAtDoor(tickets[0]!.code!, withStatus('released'), NOW)).verdict).toBe('canceled');
    const canceled = { ...book, event: { ...event, status: 'canceled' as const } };
    expect((await judgeAtDoor(tickets[0]!.code!, canceled, NOW)).verdict).toBe('canceled');
    const draft = { ...book, event: { ...event, status: 'draft' as const } };
    expect((await judgeAtDoor(tickets[0]!.code!, draft, NOW)).verdict).toBe('not_yet_valid');
    // Doors open six hours before the start unless the event says when.
    expect((await judgeAtDoor(tickets[0]!.code!, book, NOW - 6 * 3600)).verdict).toBe('not_yet_valid');
    const early = { ...book, event: { ...event, doors_open_at: NOW + 60 } };
    expect((await judgeAtDoor(tickets[0]!.code!, early, NOW)).verdict).toBe('not_yet_valid');
    expect((await judgeAtDoor(tickets[0]!.code!, early, NOW + 60)).verdict).toBe('ok');
  });

  it('answers within a few milliseconds with 50,000 tickets', async () => {
    const { book, tickets, sign } = await setUp(1);
    const many: DoorTicket[] = [...tickets];
    for (let i = 0; i < 50_000; i++)
      many.push({ id: newId('ticket'), tier, status: 'valid', holder_name: `H${i}`, code: `c${i}` });
    const codes = await Promise.all(
      many.slice(-200).map(async (ticket) => {
        const code = await sign({ event: event.id, ticket: ticket.id, tier });
        ticket.code = code;
        return code;
      }),
    );
    const full = { ...book, tickets: byId(many) };
    const times: number[] = [];
    for (const code of codes) {
      const started = performance.now();
      expect((await judgeAtDoor(code, full, NOW)).verdict).toBe('ok');
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    expect(times[Math.floor(times.length * 0.99)]!).toBeLessThan(20);
  });
});
