/**
 * The folio slip a guest is handed at check-out: the stay's charges, what was
 * paid, and the balance left (zero, or what a manager let the guest leave with,
 * and why). A document by rows, as the Z report and the registration card are.
 */
import { shopDate } from '../time.ts';
import { formatEastAfricaTime } from '../time.ts';
import type { ReceiptLanguage, RowsDocument, ZReportRow } from '../receipt.ts';
import type { NightChargeKind } from './folio.ts';

export type FolioSlipCharge = NightChargeKind | 'extra';
export type FolioSlipPayment = 'earlier' | 'deposit' | 'cash' | 'mobile_money';

const WORDS = {
  sw: {
    title: 'HESABU YA MGENI',
    reservation: 'Nafasi',
    guest: 'Mgeni',
    room: 'Chumba',
    arrival: 'Kuwasili',
    departure: 'Kuondoka',
    nights: 'Usiku',
    issued: 'Tarehe',
    cashier: 'Mhudumu',
    charges: 'Gharama',
    payments: 'Malipo',
    total: 'Jumla ya gharama',
    balance: 'SALIO',
    override: 'Ameruhusiwa kuondoka na salio',
    reason: 'Sababu',
    approvedBy: 'Ameidhinisha',
    kinds: {
      room: 'Chumba',
      hotel_levy: 'Tozo ya hoteli',
      tourism_levy: 'Tozo ya utalii',
      infrastructure_tax: 'Kodi ya miundombinu',
      vat: 'VAT',
      extra: 'Nyinginezo',
    },
    paid: { earlier: 'Imelipwa awali', deposit: 'Amana', cash: 'Taslimu', mobile_money: 'Pesa kwa simu' },
  },
  en: {
    title: 'GUEST FOLIO',
    reservation: 'Reservation',
    guest: 'Guest',
    room: 'Room',
    arrival: 'Arrival',
    departure: 'Departure',
    nights: 'Nights',
    issued: 'Date',
    cashier: 'Served by',
    charges: 'Charges',
    payments: 'Payments',
    total: 'Total charges',
    balance: 'BALANCE',
    override: 'Allowed to leave with a balance',
    reason: 'Reason',
    approvedBy: 'Approved by',
    kinds: {
      room: 'Room',
      hotel_levy: 'Hotel levy',
      tourism_levy: 'Tourism levy',
      infrastructure_tax: 'Infrastructure tax',
      vat: 'VAT',
      extra: 'Extras',
    },
    paid: { earlier: 'Paid before', deposit: 'Deposit', cash: 'Cash', mobile_money: 'Mobile money' },
  },
} as const satisfies Record<ReceiptLanguage, unknown>;

export interface FolioDocumentInput {
  language: ReceiptLanguage;
  property: { name: string; addressLines: string[] };
  reservation: {
    id: string;
    guestName: string;
    room: string | null;
    arrival: string | null;
    departure: string | null;
    nights: number;
  };
  /** The stay's charges by kind, in shillings: its nights' and anything else on the folio (`extra`). */
  charges: ReadonlyArray<{ kind: FolioSlipCharge; amount: number }>;
  /** What was paid against them, in shillings (positive). */
  payments: ReadonlyArray<{ kind: FolioSlipPayment; amount: number }>;
  /** What is left: charges less payments. */
  balance: number;
  override?: { reason: string; approvedBy: string };
  issuedAt: Date;
  cashier?: string;
}

/** The folio slip for the receipt printer. */
export function buildFolioDocument(input: FolioDocumentInput): RowsDocument {
  const words = WORDS[input.language];
  const text = (label: string, value: string): ZReportRow => ({ label, value: { text: value } });
  const amount = (label: string, value: number, extra: Partial<ZReportRow> = {}): ZReportRow => ({
    label,
    value: { amount: value },
    ...extra,
  });
  const { reservation } = input;
  const details = [
    text(words.reservation, reservation.id),
    text(words.guest, reservation.guestName),
    ...(reservation.room ? [text(words.room, reservation.room)] : []),
    // Dates as the shop reads them (26/11/2026), as the desk's screen shows them.
    ...(reservation.arrival ? [text(words.arrival, shopDate(reservation.arrival))] : []),
    ...(reservation.departure ? [text(words.departure, shopDate(reservation.departure))] : []),
    text(words.nights, String(reservation.nights)),
    { label: words.issued, value: { time: formatEastAfricaTime(input.issuedAt, 'issuedAt') } },
    ...(input.cashier ? [text(words.cashier, input.cashier)] : []),
  ];
  const charged = input.charges.reduce((sum, charge) => sum + charge.amount, 0);
  const sections: RowsDocument['sections'] = [
    {
      heading: words.charges,
      rows: [
        ...input.charges
          .filter((charge) => charge.amount !== 0)
          .map((charge) => amount(words.kinds[charge.kind], charge.amount, { indent: true })),
        amount(words.total, charged, { strong: true }),
      ],
    },
    {
      heading: words.payments,
      rows: input.payments
        .filter((payment) => payment.amount !== 0)
        .map((payment) => amount(words.paid[payment.kind], 0 - payment.amount, { indent: true })),
    },
    {
      rows: [
        amount(words.balance, input.balance, { strong: true }),
        ...(input.override
          ? [
              text(words.override, ''),
              text(words.reason, input.override.reason),
              text(words.approvedBy, input.override.approvedBy),
            ]
          : []),
      ],
    },
  ];
  return {
    kind: 'folio',
    language: input.language,
    currency: 'TZS',
    title: words.title,
    store: input.property,
    details,
    // Nothing paid: no empty section on paper.
    sections: sections.filter((section) => section.rows.length > 0),
  };
}
