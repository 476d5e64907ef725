import { describe, expect, it } from 'vitest';
import { bareStore, storeReceiptSettings } from './store.ts';

describe('a store', () => {
  it('starts bare: shillings, mainland VAT, Swahili receipts', () => {
    expect(bareStore('Duka la Mama')).toMatchObject({
      name: 'Duka la Mama',
      currency: 'TZS',
      vat_region: 'mainland',
      receipt_language: 'sw',
      phone: null,
    });
  });

  it('shows on its receipts with the details it has', () => {
    const store = { ...bareStore('Duka'), tin: '123-456-789', receipt_footer: ['Asante'] };
    expect(storeReceiptSettings(store)).toEqual({
      name: 'Duka',
      addressLines: [],
      tin: '123-456-789',
      vatRegion: 'mainland',
      receiptHeaderLines: [],
      receiptFooterLines: ['Asante'],
      receiptLanguage: 'sw',
    });
  });
});
