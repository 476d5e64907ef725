/**
 * A guest's registration at check-in, as Tanzanian guest registers ask: who,
 * of which nationality, by which document, from where and going where. The
 * card printed for the guest to sign is a document by rows, as a Z report is.
 */
import { shopDate } from '../time.ts';
import { z } from 'zod';
import type { ReceiptLanguage, RowsDocument, ZReportRow } from '../receipt.ts';
import { textSchema } from '../retail/commands.ts';

export const ID_DOCUMENT_TYPES = ['passport', 'national_id', 'driving_licence', 'voter_id', 'other'] as const;
export type IdDocumentType = (typeof ID_DOCUMENT_TYPES)[number];

const country = z
  .string()
  .regex(/^[A-Za-z]{2}$/, { error: 'must be a two-letter country code (ISO 3166), e.g. TZ' })
  .transform((code) => code.toUpperCase());

export const guestRegistrationSchema = z.strictObject({
  name: textSchema(200).min(1, { error: 'is required' }),
  nationality: country.describe('Two-letter country code, e.g. TZ, KE, DE'),
  id_type: z.enum(ID_DOCUMENT_TYPES),
  id_number: textSchema(40).min(1, { error: 'is required' }),
  id_country: country.describe('The country that issued the document'),
  arriving_from: textSchema(100).min(1, { error: 'is required' }).describe('Where the guest comes from'),
  going_to: textSchema(100).min(1, { error: 'is required' }).describe('Where the guest goes next'),
  phone: textSchema(40).optional(),
});
export type GuestRegistration = z.output<typeof guestRegistrationSchema>;

const WORDS = {
  sw: {
    title: 'KADI YA USAJILI',
    reservation: 'Nafasi',
    room: 'Chumba',
    arrival: 'Kuwasili',
    departure: 'Kuondoka',
    nights: 'Usiku',
    guest: 'Mgeni',
    nationality: 'Uraia',
    document: 'Hati',
    issuedBy: 'Imetolewa na',
    from: 'Kutoka',
    to: 'Anakwenda',
    phone: 'Simu',
    signature: 'Sahihi',
    types: {
      passport: 'Pasipoti',
      national_id: 'Kitambulisho cha Taifa',
      driving_licence: 'Leseni ya udereva',
      voter_id: 'Kadi ya mpiga kura',
      other: 'Nyingine',
    },
  },
  en: {
    title: 'REGISTRATION CARD',
    reservation: 'Reservation',
    room: 'Room',
    arrival: 'Arrival',
    departure: 'Departure',
    nights: 'Nights',
    guest: 'Guest',
    nationality: 'Nationality',
    document: 'Document',
    issuedBy: 'Issued by',
    from: 'Coming from',
    to: 'Going to',
    phone: 'Phone',
    signature: 'Signature',
    types: {
      passport: 'Passport',
      national_id: 'National ID',
      driving_licence: 'Driving licence',
      voter_id: 'Voter card',
      other: 'Other',
    },
  },
} as const;

export interface RegistrationCardInput {
  language: ReceiptLanguage;
  property: { name: string; addressLines: string[] };
  reservation: {
    id: string;
    room: string | null;
    arrival: string | null;
    departure: string | null;
    nights: number;
  };
  guests: readonly GuestRegistration[];
}

/** The card each guest signs at check-in, one section per guest, for the receipt printer. */
export function buildRegistrationCard(input: RegistrationCardInput): RowsDocument {
  const words = WORDS[input.language];
  const text = (label: string, value: string): ZReportRow => ({ label, value: { text: value } });
  const details = [
    text(words.reservation, input.reservation.id),
    ...(input.reservation.room ? [text(words.room, input.reservation.room)] : []),
    // Dates as the shop reads them (26/11/2026), as the desk's screen shows them.
    ...(input.reservation.arrival ? [text(words.arrival, shopDate(input.reservation.arrival))] : []),
    ...(input.reservation.departure ? [text(words.departure, shopDate(input.reservation.departure))] : []),
    text(words.nights, String(input.reservation.nights)),
  ];
  const sections = input.guests.map((guest, index) => ({
    heading: `${words.guest} ${index + 1}: ${guest.name}`,
    rows: [
      text(words.nationality, guest.nationality),
      text(words.document, `${words.types[guest.id_type]} ${guest.id_number}`),
      text(words.issuedBy, guest.id_country),
      text(words.from, guest.arriving_from),
      text(words.to, guest.going_to),
      ...(guest.phone ? [text(words.phone, guest.phone)] : []),
      text(words.signature, '____________________'),
    ],
  }));
  return {
    kind: 'registration_card',
    language: input.language,
    currency: 'TZS',
    title: words.title,
    store: input.property,
    details,
    sections,
  };
}
