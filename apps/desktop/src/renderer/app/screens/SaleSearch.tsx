/**
 * The sale screen's search box, and the results under it: at most a screenful
 * from an indexed query (the store never scans the catalogue), so the list
 * stays short and is rendered whole.
 */
import { useRef, type KeyboardEvent, type RefObject } from 'react';
import type { CatalogueItem } from '../../data/api.ts';
import { formatMoney, formatQuantityMilli, useI18n } from '../../i18n/index.tsx';
import { Kbd } from '../components/Dialog.tsx';
import { useKeptInView } from '../components/kept-in-view.ts';

/** Enter adds the highlighted result, or looks up what was typed as a barcode (`onSubmit`). */
export function SaleSearch({
  input,
  query,
  onQuery,
  onKey,
  results,
  index,
  onSubmit,
  onPick,
  onHover,
}: {
  input: RefObject<HTMLInputElement | null>;
  query: string;
  onQuery: (query: string) => void;
  onKey: (event: KeyboardEvent) => void;
  results: CatalogueItem[] | null;
  index: number;
  onSubmit: () => void;
  onPick: (item: CatalogueItem) => void;
  onHover: (index: number) => void;
}) {
  const { t } = useI18n();
  return (
    <div className="search-row">
      <form
        className="search"
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        <input
          ref={input}
          className="search-input"
          value={query}
          onChange={(event) => onQuery(event.target.value)}
          onKeyDown={onKey}
          placeholder={t('searchPlaceholder')}
          aria-label={t('searchPlaceholder')}
          autoFocus
          autoComplete="off"
          spellCheck={false}
          data-testid="search"
        />
        <Kbd>F2</Kbd>
      </form>
      {results && (
        <SearchResults
          query={query.trim()}
          results={results}
          index={index}
          onPick={onPick}
          onHover={onHover}
        />
      )}
    </div>
  );
}

function SearchResults({
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
