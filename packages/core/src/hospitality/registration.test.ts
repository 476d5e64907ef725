import { describe, expect, it } from 'vitest';
import { rowsDocumentSchema } from '../receipt-schema.ts';
import { buildRegistrationCard, guestRegistrationSchema } from './registration.ts';

const guest = guestRegistrationSchema.parse({
  name: 'Anna Müller',
  nationality: 'de',
  id_type: 'passport',
  id_number: 'C01X00T47',
  id_country: 'DE',
  arriving_from: 'Arusha',
  going_to: 'Zanzibar',
});

describe('guest registration', () => {
  it('reads country codes in capitals and refuses what is not one', () => {
    expect(guest.nationality).toBe('DE');
    const bad = guestRegistrationSchema.safeParse({ ...guest, nationality: 'Germany', id_number: '' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual([
      'id_number',
      'nationality',
    ]);
  });

  it('prints a card per language with a section and a signature line for each guest', () => {
    const input = {
      property: { name: 'Stone Town Inn', addressLines: ['Shangani'] },
      reservation: { id: 'resv_1', room: '101', arrival: '2027-01-01', departure: '2027-01-03', nights: 2 },
      guests: [guest, { ...guest, name: 'Jonas Müller', phone: '255712345678' }],
    };
    const sw = buildRegistrationCard({ ...input, language: 'sw' });
    expect(rowsDocumentSchema.parse(sw)).toEqual(sw);
    expect(sw.title).toBe('KADI YA USAJILI');
    expect(sw.sections.map((section) => section.heading)).toEqual([
      'Mgeni 1: Anna Müller',
      'Mgeni 2: Jonas Müller',
    ]);
    expect(sw.sections[0]!.rows.find((row) => row.label === 'Hati')!.value).toEqual({
      text: 'Pasipoti C01X00T47',
    });
    expect(sw.sections[1]!.rows.at(-1)!.label).toBe('Sahihi');
    // Dates as the shop reads them, as the desk's screen shows them.
    expect(sw.details).toContainEqual({ label: 'Kuwasili', value: { text: '01/01/2027' } });
    expect(sw.details).toContainEqual({ label: 'Kuondoka', value: { text: '03/01/2027' } });
    const en = buildRegistrationCard({ ...input, language: 'en' });
    expect(en.details.map((row) => row.label)).toEqual([
      'Reservation',
      'Room',
      'Arrival',
      'Departure',
      'Nights',
    ]);
  });
});
