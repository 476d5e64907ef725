/** The words of the digital receipt page, in Swahili and English. */
import { RECEIPT_LABELS, RETAIL_RECEIPT_TEXT, type ReceiptLanguage } from '@tz/core';

const en = {
  ...RECEIPT_LABELS.en,
  ...RETAIL_RECEIPT_TEXT.en,
  total: 'Total',
  time: 'Time',
  eat: 'East Africa Time',
  paidWith: 'Paid with',
  reference: 'Ref.',
  refunds: 'Refunds',
  refunded: 'Refunded',
  refundedTotal: 'Refunded in all',
  voided: 'This sale was cancelled: nothing is owed and nothing was kept.',
  status_partially_refunded: 'Partly refunded',
  status_refunded: 'Refunded',
  status_voided: 'Cancelled',
  taxOn: '(included, on {net})',
  thanks: 'Thank you for shopping with us.',
  testMode: 'Test mode: this sale was made with a test till, no real money moved.',
  onTheWayTitle: 'Your receipt is on its way',
  onTheWay:
    'The shop’s till is offline, so this sale has not reached us yet. The receipt appears here as soon as the till connects.',
  tryAgain: 'Try again',
  autoRefresh: 'This page looks again every 30 seconds.',
  language: 'Kiswahili',
};

export type ReceiptPageLabels = typeof en;

const sw: ReceiptPageLabels = {
  ...RECEIPT_LABELS.sw,
  ...RETAIL_RECEIPT_TEXT.sw,
  total: 'Jumla',
  time: 'Saa',
  eat: 'Saa za Afrika Mashariki',
  paidWith: 'Imelipwa kwa',
  reference: 'Kumb.',
  refunds: 'Marejesho',
  refunded: 'Imerejeshwa',
  refundedTotal: 'Jumla iliyorejeshwa',
  voided: 'Mauzo haya yameghairiwa: hakuna deni wala malipo yaliyobaki.',
  status_partially_refunded: 'Imerejeshwa kiasi',
  status_refunded: 'Imerejeshwa',
  status_voided: 'Imeghairiwa',
  taxOn: '(imejumuishwa, kwa {net})',
  thanks: 'Asante kwa kununua kwetu.',
  testMode: 'Hali ya majaribio: mauzo haya yamefanywa kwa kaunta ya majaribio, hakuna pesa halisi.',
  onTheWayTitle: 'Risiti yako iko njiani',
  onTheWay:
    'Kaunta ya duka iko nje ya mtandao, kwa hiyo mauzo haya bado hayajatufikia. Risiti itaonekana hapa mara kaunta itakapounganishwa.',
  tryAgain: 'Jaribu tena',
  autoRefresh: 'Ukurasa huu unaangalia tena kila sekunde 30.',
  language: 'English',
};

export const RECEIPT_PAGE_LABELS: Record<ReceiptLanguage, ReceiptPageLabels> = { en, sw };
