/** The business section's words: its name, its default language and its receipts. */
import { section } from './section.ts';

export const business = section({
  en: {
    businessTitle: 'Business',
    businessName: 'Business name',
    businessLanguage: 'Default language',
    businessLanguageHint:
      'The default language: the office opens in it on a browser that has not chosen one, and new stores print their receipts in it.',
    businessSaved: 'Saved: it applies everywhere, in both modes.',
    businessTin: 'TIN',
    businessVrn: 'VRN',
    receiptsTitle: 'Receipts',
    receiptsLead:
      'What the receipts of {store}, the default store, carry. Each till gets it at its next sync.',
    receiptsNoStore: 'What your receipts carry. Saving creates the default store, named after the business.',
    receiptLanguage: 'Receipt language',
    receiptHeader: 'Header lines',
    receiptFooter: 'Footer lines',
    receiptLines: 'One line each, up to 6 lines of up to 64 characters.',
    receiptsSaved: 'Saved. The tills print it from their next sync.',
  },
  sw: {
    businessTitle: 'Biashara',
    businessName: 'Jina la biashara',
    businessLanguage: 'Lugha ya kawaida',
    businessLanguageHint:
      'Lugha ya kawaida: ofisi inafunguka kwa lugha hii kwenye kivinjari ambacho hakijachagua lugha, na maduka mapya yanachapisha risiti zake kwa lugha hii.',
    businessSaved: 'Imehifadhiwa: inatumika kila mahali, katika hali zote mbili.',
    businessTin: 'TIN',
    businessVrn: 'VRN',
    receiptsTitle: 'Risiti',
    receiptsLead:
      'Kinachoandikwa kwenye risiti za {store}, duka kuu. Kila kaunta inakipata ikisawazisha tena.',
    receiptsNoStore: 'Kinachoandikwa kwenye risiti zako. Kuhifadhi kunaunda duka kuu, kwa jina la biashara.',
    receiptLanguage: 'Lugha ya risiti',
    receiptHeader: 'Mistari ya juu',
    receiptFooter: 'Mistari ya chini',
    receiptLines: 'Mstari mmoja kila moja, hadi mistari 6 ya herufi 64 kila mmoja.',
    receiptsSaved: 'Imehifadhiwa. Kaunta zinachapisha hivi kuanzia zitakaposawazisha.',
  },
});
