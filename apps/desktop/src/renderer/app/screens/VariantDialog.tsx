/**
 * A product with variants is sold as one of them: picking or scanning the
 * product opens this list of its variants for sale. ↑ ↓ move, Enter adds,
 * Esc closes.
 */
import { useEffect, useRef, useState } from 'react';
import type { CatalogueItem } from '../../data/api.ts';
import { formatMoney, formatQuantityMilli, useI18n } from '../../i18n/index.tsx';
import { Dialog, Message } from '../components/Dialog.tsx';
import { refusalText } from '../refusal.ts';
import { useStore } from '../store.tsx';

export function VariantDialog({
  product,
  onPick,
  onClose,
}: {
  product: CatalogueItem;
  onPick: (variant: CatalogueItem) => void;
  onClose: () => void;
}) {
  const store = useStore();
  const { t, language } = useI18n();
  const [variants, setVariants] = useState<CatalogueItem[] | null>(null);
  const [index, setIndex] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);

  useEffect(() => {
    let live = true;
    store.variantsOf(product.productId).then(
      (found) => live && setVariants(found),
      (failure: unknown) => live && setError(refusalText(language, failure)),
    );
    return () => {
      live = false;
    };
  }, [store, product.productId, t]);

  // Focus follows the highlighted variant, so Enter adds it.
  useEffect(() => {
    buttons.current[index]?.focus();
  }, [index, variants]);

  const move = (step: number) =>
    setIndex((current) => Math.min((variants?.length ?? 1) - 1, Math.max(0, current + step)));
  // The product's name is the title; each row names the variant alone.
  const variantName = (item: CatalogueItem) =>
    item.name.startsWith(`${product.name} `) ? item.name.slice(product.name.length + 1) : item.name;

  return (
    <Dialog title={t('chooseVariant', { name: product.name })} onClose={onClose} testId="variant-dialog">
      {variants?.length === 0 && <p className="muted">{t('noVariantsForSale')}</p>}
      {variants && variants.length > 0 && (
        <ul
          className="pick-list variant-list"
          role="listbox"
          aria-label={t('chooseVariant', { name: product.name })}
          onKeyDown={(event) => {
            if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
            event.preventDefault();
            move(event.key === 'ArrowDown' ? 1 : -1);
          }}
        >
          {variants.map((variant, position) => (
            <li key={variant.variantId} role="option" aria-selected={position === index}>
              <button
                type="button"
                ref={(button) => {
                  buttons.current[position] = button;
                }}
                className={position === index ? 'active' : ''}
                onMouseEnter={() => setIndex(position)}
                onClick={() => onPick(variant)}
              >
                <span className="variant-name">
                  <strong>{variantName(variant)}</strong>
                  <span className="muted">
                    {[variant.sku, variant.barcodes[0]].filter(Boolean).join(' · ')}
                    {variant.onHandMilli !== null &&
                      ` · ${t('inStock', { count: formatQuantityMilli(variant.onHandMilli, variant.unit === 'piece') })}`}
                  </span>
                </span>
                <strong className="variant-price">{formatMoney(variant.price, variant.currency)}</strong>
              </button>
            </li>
          ))}
        </ul>
      )}
      <Message text={error} />
    </Dialog>
  );
}
