import { describe, expect, it } from 'vitest';
import { buildFolioDocument } from './folio-document.ts';

const input = {
  property: { name: 'Mwambao Guest House', addressLines: ['Tanga'] },
  reservation: {
    id: 'resv_01kb00000000000000000000a1',
    guestName: 'Amina Juma',
    room: '201',
    arrival: '2026-11-24',
    departure: '2026-11-26',
    nights: 2,
  },
  charges: [
    { kind: 'room' as const, amount: 140_000 },
    { kind: 'tourism_levy' as const, amount: 1_400 },
    { kind: 'vat' as const, amount: 25_200 },
    { kind: 'hotel_levy' as const, amount: 0 },
  ],
  issuedAt: new Date('2026-11-26T07:00:00Z'),
  cashier: 'Neema',
};

describe('the folio slip', () => {
  it('lists the charges, the payments going out and a balance of zero', () => {
    const slip = buildFolioDocument({
      ...input,
      language: 'en',
      payments: [
        { kind: 'earlier', amount: 50_000 },
        { kind: 'cash', amount: 116_600 },
      ],
      balance: 0,
    });
    expect(slip).toMatchObject({ kind: 'folio', title: 'GUEST FOLIO', currency: 'TZS' });
    expect(slip.details).toContainEqual({ label: 'Room', value: { text: '201' } });
    expect(slip.details).toContainEqual({ label: 'Arrival', value: { text: '24/11/2026' } });
    expect(slip.details).toContainEqual({ label: 'Date', value: { time: '2026-11-26T10:00:00+03:00' } });
    const [charges, payments, total] = slip.sections;
    // A charge of nothing is left out; the total is the sum of the rest.
    expect(charges!.rows.map((row) => row.label)).toEqual(['Room', 'Tourism levy', 'VAT', 'Total charges']);
    expect(charges!.rows.at(-1)).toEqual({
      label: 'Total charges',
      value: { amount: 166_600 },
      strong: true,
    });
    expect(payments!.rows.map((row) => row.value)).toEqual([{ amount: -50_000 }, { amount: -116_600 }]);
    expect(total!.rows).toEqual([{ label: 'BALANCE', value: { amount: 0 }, strong: true }]);
  });

  it('says who let the guest leave with a balance, and why, in Swahili', () => {
    const slip = buildFolioDocument({
      ...input,
      language: 'sw',
      payments: [],
      balance: 166_600,
      override: { reason: 'Kampuni italipa', approvedBy: 'Juma' },
    });
    expect(slip.title).toBe('HESABU YA MGENI');
    // Nothing paid: the charges, then the balance and who allowed it.
    expect(slip.sections).toHaveLength(2);
    expect(slip.sections[1]!.rows).toContainEqual({ label: 'Sababu', value: { text: 'Kampuni italipa' } });
    expect(slip.sections[1]!.rows).toContainEqual({ label: 'Ameidhinisha', value: { text: 'Juma' } });
  });
});
