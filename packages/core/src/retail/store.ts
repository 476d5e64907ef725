/**
 * A store as both sides hold it (the server's row, the till's pulled copy,
 * named alike): what a new store starts as, and how its settings read on a
 * receipt.
 */
import type { ReceiptLanguage } from '../receipt.ts';
import type { StoreReceiptSettings } from './receipt-builder.ts';
import { DEFAULT_VAT_REGION, type VatRegion } from './tax.ts';

/** The store's settings that pricing and its receipts read. */
export interface StoreSettings {
  name: string;
  address_lines: string[];
  phone: string | null;
  tin: string | null;
  vrn: string | null;
  vat_region: VatRegion;
  /** A currency code (`TZS`): a till's pulled copy holds it as text. */
  currency: string;
  receipt_header: string[];
  receipt_footer: string[];
  receipt_language: ReceiptLanguage;
}

/**
 * A store with nothing set but its name: shillings, mainland VAT, Swahili
 * receipts. A new store starts from it, and a till sells under it (named
 * after the business) until its store has synced.
 */
export const bareStore = (name: string): StoreSettings => ({
  name,
  address_lines: [],
  phone: null,
  tin: null,
  vrn: null,
  vat_region: DEFAULT_VAT_REGION,
  currency: 'TZS',
  receipt_header: [],
  receipt_footer: [],
  receipt_language: 'sw',
});

/** The store as its receipts show it. */
export function storeReceiptSettings(store: Omit<StoreSettings, 'currency'>): StoreReceiptSettings {
  const settings: StoreReceiptSettings = {
    name: store.name,
    addressLines: store.address_lines,
    vatRegion: store.vat_region,
    receiptHeaderLines: store.receipt_header,
    receiptFooterLines: store.receipt_footer,
    receiptLanguage: store.receipt_language,
  };
  if (store.phone !== null) settings.phone = store.phone;
  if (store.tin !== null) settings.tin = store.tin;
  if (store.vrn !== null) settings.vrn = store.vrn;
  return settings;
}
