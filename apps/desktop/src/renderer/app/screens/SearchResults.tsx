/**
 * Search results under the search box: at most a screenful from an indexed
 * query (the store never scans the catalogue), so the list stays short and
 * is rendered whole.
 */
import { useRef } from 'react';
import type { CatalogueItem } from '../../data/api.ts';
import { formatMoney, formatQuantityMilli, useI18n } from '../../i18n/index.tsx';
import { useKeptInView } from '../components/kept-in-view.ts';

export function SearchResults({
  query,
  results,
  index,
  onPick,
  onHover,
}: {
  query: string;
  results: CatalogueItem[];
  index: number;
  onPick: (item: CatalogueItem) => void;
  onHover: (index: number) => void;
}) {
  const { t } = useI18n();
  const active = useRef<HTMLLIElement>(null);
  useKeptInView(active, index);
  if (results.length === 0) {
    return (
      <div className="results" data-testid="results">
        <p className="muted">{t('noResults', { text: query })}</p>
      </div>
    );
  }
  return (
    <ul className="results" role="listbox" data-testid="results">
      {results.map((item, position) => (
        <li
          key={`${item.productId}:${item.variantId ?? ''}`}
          ref={position === index ? active : undefined}
          role="option"
          aria-selected={position === index}
          className={position === index ? 'active' : ''}
          onMouseEnter={() => onHover(position)}
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(item);
          }}
        >
          <span className="result-name">{item.name}</span>
          <span className="result-meta">
            {[item.sku, item.barcodes[0]].filter(Boolean).join(' · ')}
            {item.onHandMilli !== null &&
              !item.hasVariants &&
              ` · ${t('inStock', { count: formatQuantityMilli(item.onHandMilli, item.unit === 'piece') })}`}
          </span>
          {item.hasVariants ? (
            // Each variant has its own price: picking this opens them.
            <span className="result-price result-variants">{t('hasVariantsHint')} ›</span>
          ) : (
            <span className="result-price">
              {formatMoney(item.price, item.currency)}
              {item.unit !== 'piece' && ` / ${item.unit}`}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
