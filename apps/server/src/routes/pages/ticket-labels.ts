/** The words of the buyer's tickets page, in Swahili and English. */
import type { ReceiptLanguage } from '@tz/core';

const en = {
  locale: 'en-GB',
  tickets: 'Your tickets',
  ticketOf: 'Ticket {n} of {count}',
  holder: 'Name',
  doorsOpen: 'Doors open',
  eat: 'East Africa Time',
  paid: 'Paid. Thank you! Your tickets are below.',
  qr: 'QR code of ticket {n}, {tier}',
  number: 'Ticket no.',
  void: 'Void',
  voidTicket: 'This ticket is void: it admits no one.',
  refunded: 'This order was refunded: its tickets are void.',
  canceled: 'This event was canceled: its tickets are void.',
  show: 'Show each QR code at the door, with your screen bright. Each ticket admits one person, once.',
  keep: 'Keep this link: it opens your tickets again. You may also print this page.',
  testMode: 'Test mode: these tickets were sold in test mode, no real money moved.',
  notFoundTitle: 'No tickets here',
  notFound: 'This link opens no tickets. Check that it was copied whole, or ask the organizer.',
  language: 'Kiswahili',
};

export type TicketPageLabels = typeof en;

const sw: TicketPageLabels = {
  locale: 'sw-TZ',
  tickets: 'Tiketi zako',
  ticketOf: 'Tiketi {n} kati ya {count}',
  holder: 'Jina',
  doorsOpen: 'Milango inafunguliwa',
  eat: 'Saa za Afrika Mashariki',
  paid: 'Malipo yamekamilika. Asante! Tiketi zako ziko hapa chini.',
  qr: 'Msimbo wa QR wa tiketi {n}, {tier}',
  number: 'Na. ya tiketi',
  void: 'Imebatilishwa',
  voidTicket: 'Tiketi hii imebatilishwa: haimruhusu mtu kuingia.',
  refunded: 'Oda hii imerejeshewa pesa: tiketi zake zimebatilishwa.',
  canceled: 'Tukio hili limeghairiwa: tiketi zake zimebatilishwa.',
  show: 'Onyesha kila msimbo wa QR mlangoni, skrini ikiwa na mwanga wa kutosha. Kila tiketi inamruhusu mtu mmoja, mara moja.',
  keep: 'Hifadhi kiungo hiki: kinafungua tiketi zako tena. Unaweza pia kuchapisha ukurasa huu.',
  testMode: 'Hali ya majaribio: tiketi hizi zimeuzwa kwa majaribio, hakuna pesa halisi iliyotumika.',
  notFoundTitle: 'Hakuna tiketi hapa',
  notFound: 'Kiungo hiki hakifungui tiketi zozote. Hakikisha kimenakiliwa chote, au wasiliana na mwandaaji.',
  language: 'English',
};

export const TICKET_PAGE_LABELS: Record<ReceiptLanguage, TicketPageLabels> = { en, sw };
