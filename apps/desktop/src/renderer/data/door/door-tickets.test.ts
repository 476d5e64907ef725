import { describe, expect, it } from 'vitest';
import type { TicketDoc } from './door-state.ts';
import { TicketBook, type TicketPage } from './door-tickets.ts';

const ticket = (n: number, overrides: Partial<TicketDoc & { _deleted: boolean }> = {}) => ({
  id: `tkt_${n}`,
  _deleted: false,
  event: n % 2 === 0 ? 'tev_even' : 'tev_odd',
  tier: 'tier_1',
  order: `eord_${n}`,
  status: 'valid' as const,
  holder_name: `Holder ${n}`,
  code: `code-${n}`,
  ...overrides,
});
const page = (key: string, items: TicketPage['items'], revision = '1-a'): TicketPage => ({
  key,
  revision,
  items,
});

describe('the door’s ticket book', () => {
  it('applies the pages written since it last looked, a later copy over an earlier one', () => {
    const book = new TicketBook();
    const first = [page('01', [ticket(1), ticket(2), ticket(3)]), page('02', [ticket(4)])];
    let index = book.update(first);
    expect(index.byId.size).toBe(4);
    expect(Object.fromEntries(index.validByEvent)).toEqual({ tev_even: 2, tev_odd: 2 });
    // A page on top: one voided, one deleted, one new.
    index = book.update([
      ...first,
      page('03', [ticket(2, { status: 'void' }), ticket(3, { _deleted: true }), ticket(5)]),
    ]);
    expect(index.byId.get('tkt_2')?.status).toBe('void');
    expect(index.byId.has('tkt_3')).toBe(false);
    expect(index.byId.get('tkt_5')?.holder_name).toBe('Holder 5');
    expect(Object.fromEntries(index.validByEvent)).toEqual({ tev_even: 1, tev_odd: 2 });
  });

  it('reads every page again when the log was compacted or a page written again', () => {
    const book = new TicketBook();
    book.update([page('01', [ticket(1), ticket(2)]), page('02', [ticket(1, { status: 'void' })])]);
    // Compacted: one page, under a new key, holding each ticket's last state.
    let index = book.update([page('02+0', [ticket(1, { status: 'void' }), ticket(2)])]);
    expect(index.byId.get('tkt_1')?.status).toBe('void');
    expect(Object.fromEntries(index.validByEvent)).toEqual({ tev_even: 1 });
    // The same key written again with other tickets: what it holds now is what counts.
    index = book.update([page('02+0', [ticket(2), ticket(6)], '2-b')]);
    expect([...index.byId.keys()].sort()).toEqual(['tkt_2', 'tkt_6']);
    expect(Object.fromEntries(index.validByEvent)).toEqual({ tev_even: 2 });
  });
});
