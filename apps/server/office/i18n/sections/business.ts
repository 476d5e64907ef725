/** The business section's words: its name and its receipts. */
import { section } from './section.ts';

export const business = section({
  en: {
    businessTitle: 'Business',
    businessName: 'Business name',
    businessSaved: 'Saved: the new name shows everywhere, in both modes.',
    businessTin: 'TIN',
    businessVrn: 'VRN',
    receiptsTitle: 'Receipts',
    receiptsLead:
      'What the receipts of {store}, the default store, carry. Each till gets it at its next sync.',
    receiptsNoStore: 'What your receipts carry. Saving creates the default store, named after the business.',
    receiptLanguage: 'Default language of receipts',
    receiptHeader: 'Header lines',
    receiptFooter: 'Footer lines',
    receiptLines: 'One line each, up to 6 lines of up to 64 characters.',
    receiptsSaved: 'Saved. The tills print it from their next sync.',
  },
  sw: {
    businessTitle: 'Biashara',
    businessName: 'Jina la biashara',
    businessSaved: 'Imehifadhiwa: jina jipya linaonekana kila mahali, katika hali zote mbili.',
    businessTin: 'TIN',
    businessVrn: 'VRN',
    receiptsTitle: 'Risiti',
    receiptsLead:
      'Kinachoandikwa kwenye risiti za {store}, duka kuu. Kila kaunta inakipata ikisawazisha tena.',
    receiptsNoStore: 'Kinachoandikwa kwenye risiti zako. Kuhifadhi kunaunda duka kuu, kwa jina la biashara.',
    receiptLanguage: 'Lugha ya kawaida ya risiti',
    receiptHeader: 'Mistari ya juu',
    receiptFooter: 'Mistari ya chini',
    receiptLines: 'Mstari mmoja kila moja, hadi mistari 6 ya herufi 64 kila mmoja.',
    receiptsSaved: 'Imehifadhiwa. Kaunta zinachapisha hivi kuanzia zitakaposawazisha.',
  },
});
