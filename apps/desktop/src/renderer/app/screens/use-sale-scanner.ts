/**
 * Scans on the sale screen, wherever focus is (under Sales, Shift, Settings and
 * Help too): the item goes into the cart, or its variants or weight are asked.
 */
import { useRef } from 'react';
import { codeText } from '../../i18n/code-words.ts';
import { useI18n } from '../../i18n/index.tsx';
import { useScanner } from '../keyboard/use-scanner.ts';
import { useNotify } from '../notices.tsx';
import { useStore } from '../store.tsx';
import type { SaleDialog } from './SaleDialogs.tsx';

/**
 * `blocked`: something is open over the sale screen, so a choice it needs is said, not asked.
 * Gives the scans still being written to the cart: F9 right after a scan pays the cart with that
 * scan in it.
 */
export function useSaleScanner({
  blocked,
  dialog,
  setDialog,
  closeDialog,
  onAdded,
  fail,
}: {
  blocked: boolean;
  dialog: SaleDialog | null;
  setDialog: (dialog: SaleDialog) => void;
  closeDialog: () => void;
  onAdded: () => void;
  fail: (error: unknown) => void;
}) {
  const store = useStore();
  const { t, language } = useI18n();
  const notify = useNotify();
  const scanning = useRef<Promise<unknown>>(Promise.resolve());
  useScanner(
    (code) => {
      // The next customer's first item, scanned while the last sale's change is on screen, starts the next sale.
      if (dialog?.kind === 'done') closeDialog();
      const added = store.addBarcode(code).then((scan) => {
        if (scan.kind === 'choose_variant' && !blocked) setDialog({ kind: 'variants', product: scan.item });
        else if (scan.kind === 'choose_variant') notify(codeText(language, 'choose_variant'), 'error');
        // An item sold by weight scanned by its own barcode: its weight is asked, as when picked.
        else if (scan.kind === 'weigh' && !blocked) setDialog({ kind: 'weigh', item: scan.item });
        else if (scan.kind === 'weigh') notify(t('weighOnSaleScreen', { name: scan.item.name }), 'error');
        else if (scan.kind === 'added') {
          onAdded();
          notify(t('addedItem', { name: scan.item.name }));
        } else notify(t('notFoundBarcode', { code }), 'error');
      }, fail);
      scanning.current = Promise.all([scanning.current, added]);
    },
    { known: (code) => store.hasBarcode(code) },
  );
  return scanning;
}
