/**
 * The sale screen: a search box that also takes typed barcodes, the cart, and
 * the total, which never leaves the screen. Scans land here wherever focus is.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { itemCount, type PullDocument } from '@tz/core';
import type {
  Cart,
  CartLine,
  CatalogueItem,
  CompletedSale,
  ParkedCart,
  TileShelf,
  TillSettings,
} from '../../data/api.ts';
import { formatMoney, useI18n } from '../../i18n/index.tsx';
import { Kbd } from '../components/Dialog.tsx';
import { useScanner } from '../keyboard/use-scanner.ts';
import { DEFAULT_WEDGE_OPTIONS } from '../keyboard/wedge.ts';
import { useNotify } from '../notices.tsx';
import { refusalText } from '../refusal.ts';
import { useObservable, useStore } from '../store.tsx';
import { DiscountDialog, ParkedDialog, QuantityDialog } from './sale-dialogs.tsx';
import { CartCustomer, CustomerDialog } from './CustomerDialog.tsx';
import { SaleDoneDialog, TenderDialog } from './TenderDialog.tsx';
import { SearchResults } from './SearchResults.tsx';
import { CartTable } from './CartTable.tsx';
import { ProductTiles } from './ProductTiles.tsx';
import { VariantDialog } from './VariantDialog.tsx';
import { codeText } from '../../i18n/code-words.ts';

type SaleDialog =
  | { kind: 'quantity'; line: CartLine }
  | { kind: 'weigh'; item: CatalogueItem }
  | { kind: 'variants'; product: CatalogueItem }
  | { kind: 'lineDiscount'; line: CartLine }
  | { kind: 'orderDiscount' }
  | { kind: 'customer' }
  | { kind: 'parked' }
  | { kind: 'tender' }
  | { kind: 'done'; completed: CompletedSale };

const SEARCH_LIMIT = 30;
const NO_LINES: CartLine[] = [];
const NO_SHELVES: TileShelf[] = [];
/** Keys closer together than a scanner's gap may be a scan typed into the box: search once they pause. */
const BURST_GAP_MS = DEFAULT_WEDGE_OPTIONS.maxGapMs;

/** `retiring`: the merchant retired this till; it sends what it holds but takes no new payment. */
export function SaleScreen({ blocked, retiring = false }: { blocked: boolean; retiring?: boolean }) {
  const store = useStore();
  const { t, language } = useI18n();
  const notify = useNotify();
  const cart = useObservable<Cart | null>(store.cart$, null);
  const parked = useObservable<ParkedCart[]>(store.parked$, []);
  const shop = useObservable<PullDocument<'stores'> | null>(store.store$, null);
  const shelves = useObservable<TileShelf[]>(store.tiles$, NO_SHELVES);
  const settings = useObservable<TillSettings | null>(store.settings$, null);
  const [tilesAsked, setTilesAsked] = useState(0);
  const currency = cart?.priced.currency ?? shop?.currency ?? 'TZS';
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<CatalogueItem[] | null>(null);
  const [resultIndex, setResultIndex] = useState(0);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [dialog, setDialog] = useState<SaleDialog | null>(null);
  const search = useRef<HTMLInputElement>(null);
  const lines = cart?.lines ?? NO_LINES;
  const selected = lines.find((line) => line.key === selectedKey) ?? lines.at(-1) ?? null;
  const total = cart?.priced.total ?? 0;

  const fail = useCallback((error: unknown) => notify(refusalText(language, error), 'error'), [notify, t]);
  const editLine = useCallback((line: CartLine) => setDialog({ kind: 'quantity', line }), []);
  const removeLine = useCallback(
    (line: CartLine) => void store.removeLine(line.key).catch(fail),
    [store, fail],
  );
  const focusSearch = () => setTimeout(() => search.current?.focus(), 0);
  const closeDialog = () => {
    setDialog(null);
    focusSearch();
  };

  // Back from Sales, Shift, Settings or Help: typing goes to the search box again.
  useEffect(() => {
    if (!blocked) search.current?.focus();
  }, [blocked]);

  // Search on every key a person types; a stale answer never replaces a newer one.
  const asked = useRef(0);
  // When the last two keys were pressed (the keyboard's clock, not when the page got round to them).
  const keyTimes = useRef({ previous: -Infinity, last: -Infinity });
  useEffect(() => {
    const text = query.trim();
    const ask = ++asked.current;
    const burst = keyTimes.current.last - keyTimes.current.previous < BURST_GAP_MS;
    if (text === '') {
      setResults(null);
      return;
    }
    const run = () => {
      store.search(text, SEARCH_LIMIT).then((found) => {
        if (ask !== asked.current) return;
        setResults(found);
        setResultIndex(0);
      }, fail);
    };
    // A first character may be a scan starting: its search waits to see whether more keys follow fast.
    if (!burst && text.length > 1) return run();
    const timer = setTimeout(run, BURST_GAP_MS);
    return () => clearTimeout(timer);
  }, [query, store, fail]);

  /** A tile keeps focus (a touch screen's keyboard stays down, Enter adds another); a search result gives it back to the box. */
  const addItem = (item: CatalogueItem, from: 'search' | 'tile' = 'search') => {
    setQuery('');
    setResults(null);
    if (item.hasVariants) {
      setDialog({ kind: 'variants', product: item });
      return;
    }
    if (item.unit !== 'piece') {
      setDialog({ kind: 'weigh', item });
      return;
    }
    // Picked from the variants: the chooser has done its work.
    if (dialog?.kind === 'variants') setDialog(null);
    store.addItem(item).then(() => setSelectedKey(null), fail);
    if (from === 'search') focusSearch();
  };

  // Scans still being written to the cart: F9 right after a scan pays the cart with that scan in it.
  const scanning = useRef<Promise<unknown>>(Promise.resolve());
  // Active under Sales, Shift, Settings and Help too: a scan adds the item wherever focus is.
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
          setSelectedKey(null);
          notify(t('addedItem', { name: scan.item.name }));
        } else notify(t('notFoundBarcode', { code }), 'error');
      }, fail);
      scanning.current = Promise.all([scanning.current, added]);
    },
    { known: (code) => store.hasBarcode(code) },
  );

  const cashExact = () => {
    // Once pending scans are in; the store prices the cart as it writes the sale (a rendered total may be stale).
    void scanning.current
      .then(() => store.payCashExact())
      .then((completed) => setDialog({ kind: 'done', completed }))
      .catch(fail);
  };

  const moveLine = (step: number) => {
    if (lines.length === 0) return;
    const index = selected ? lines.indexOf(selected) : lines.length - 1;
    const next = lines[Math.min(lines.length - 1, Math.max(0, index + step))];
    if (next) setSelectedKey(next.key);
  };

  // A layout effect, like the dialogs' keys: the keys that act are always those of what is on screen.
  useLayoutEffect(() => {
    if (blocked || dialog) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const searchEmpty = search.current?.value === '';
      const inSearch = document.activeElement === search.current;
      const keys: Record<string, (() => void) | undefined> = {
        F2: () => search.current?.focus(),
        F3: () => setDialog({ kind: 'customer' }),
        F4: selected ? () => setDialog({ kind: 'quantity', line: selected }) : undefined,
        // Always taken, tiles or not: a browser would reload the page on it.
        F5: () => (shelves.length > 0 ? setTilesAsked((n) => n + 1) : undefined),
        F6: selected ? () => setDialog({ kind: 'lineDiscount', line: selected }) : undefined,
        F7: lines.length > 0 ? () => setDialog({ kind: 'orderDiscount' }) : undefined,
        F8: () => setDialog({ kind: 'parked' }),
        F9: retiring ? () => notify(codeText(language, 'till_retired'), 'error') : cashExact,
        F10: retiring
          ? () => notify(codeText(language, 'till_retired'), 'error')
          : lines.length > 0
            ? () => void scanning.current.then(() => setDialog({ kind: 'tender' }))
            : () => notify(codeText(language, 'cart_empty'), 'error'),
        ArrowDown: results
          ? () => setResultIndex((i) => Math.min(results.length - 1, i + 1))
          : () => moveLine(1),
        ArrowUp: results ? () => setResultIndex((i) => Math.max(0, i - 1)) : () => moveLine(-1),
        Escape: () => {
          setQuery('');
          search.current?.focus();
        },
      };
      if (searchEmpty && selected && (inSearch || document.activeElement === document.body)) {
        keys.Delete = () => void store.removeLine(selected.key).then(() => setSelectedKey(null), fail);
        if (selected.item.unit === 'piece') {
          keys['+'] = () => void store.setQuantity(selected.key, selected.quantityMilli + 1000).catch(fail);
          keys['-'] = () =>
            selected.quantityMilli > 1000
              ? void store.setQuantity(selected.key, selected.quantityMilli - 1000).catch(fail)
              : undefined;
        }
      }
      const run = keys[event.key];
      if (run) {
        event.preventDefault();
        run();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const submitSearch = () => {
    const top = results?.[resultIndex];
    if (top) return addItem(top);
    const text = query.trim();
    if (text === '') return;
    // Typed by hand: a barcode nobody found by prefix search is tried as a whole code.
    store.addBarcode(text).then((scan) => {
      if (scan.kind !== 'not_found') setQuery('');
      if (scan.kind === 'choose_variant') setDialog({ kind: 'variants', product: scan.item });
      else if (scan.kind === 'weigh') setDialog({ kind: 'weigh', item: scan.item });
      else if (scan.kind === 'not_found') notify(t('noResults', { text }), 'error');
    }, fail);
  };

  return (
    <div className="sale" data-testid="sale-screen">
      <section className="sale-left">
        <div className="search-row">
          <form
            className="search"
            onSubmit={(event) => {
              event.preventDefault();
              submitSearch();
            }}
          >
            <input
              ref={search}
              className="search-input"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              onKeyDown={(event) => {
                keyTimes.current = { previous: keyTimes.current.last, last: event.timeStamp };
              }}
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
              index={resultIndex}
              onPick={addItem}
              onHover={setResultIndex}
            />
          )}
        </div>
        <CartCustomer customer={cart?.customer ?? null} onOpen={() => setDialog({ kind: 'customer' })} />
        <CartTable
          lines={lines}
          cart={cart}
          selectedKey={selected?.key ?? null}
          onSelect={setSelectedKey}
          onEdit={editLine}
          onRemove={removeLine}
        />
        <ProductTiles
          shelves={shelves}
          lines={lines}
          shown={settings?.tilesShown ?? true}
          onShownChange={(tilesShown) => void store.updateSettings({ tilesShown }).catch(fail)}
          onPick={(item) => addItem(item, 'tile')}
          onLeave={() => search.current?.focus()}
          focusRequest={tilesAsked}
        />
      </section>
      <aside className="sale-right">
        <div className="total-box" data-testid="total">
          <span className="total-label">{t('total')}</span>
          <span className="total-amount">{formatMoney(total, currency)}</span>
          <span className="total-sub">
            {t('itemsCount', { count: cart ? itemCount(cart.priced.lines) : 0 })}
            {cart &&
              cart.priced.taxTotal > 0 &&
              ` · ${t('tax')} ${formatMoney(cart.priced.taxTotal, currency)}`}
          </span>
        </div>
        {cart && (cart.priced.lineDiscountTotal > 0 || cart.priced.orderDiscount > 0) && (
          <dl className="breakdown">
            <div>
              <dt>{t('subtotal')}</dt>
              <dd>{formatMoney(cart.priced.grossTotal, currency)}</dd>
            </div>
            {cart.priced.lineDiscountTotal > 0 && (
              <div>
                <dt>{t('lineDiscount')}</dt>
                <dd>−{formatMoney(cart.priced.lineDiscountTotal, currency)}</dd>
              </div>
            )}
            {cart.priced.orderDiscount > 0 && (
              <div>
                <dt>{t('orderDiscount')}</dt>
                <dd>−{formatMoney(cart.priced.orderDiscount, currency)}</dd>
              </div>
            )}
          </dl>
        )}
        <button type="button" className="customer-chip" onClick={() => setDialog({ kind: 'customer' })}>
          <span>{t('customer')}</span>
          <strong>{cart?.customer ? (cart.customer.name ?? cart.customer.phone) : t('noCustomer')}</strong>
          <Kbd>F3</Kbd>
        </button>
        <div className="actions">
          <button
            type="button"
            className="primary huge"
            onClick={cashExact}
            disabled={lines.length === 0 || retiring}
            data-testid="cash-exact"
          >
            {t('payCashExact')} <Kbd>F9</Kbd>
          </button>
          <button
            type="button"
            className="accent huge"
            onClick={() => setDialog({ kind: 'tender' })}
            disabled={lines.length === 0 || retiring}
          >
            {t('pay')} <Kbd>F10</Kbd>
          </button>
          <div className="action-grid">
            <button
              type="button"
              onClick={() => selected && setDialog({ kind: 'quantity', line: selected })}
              disabled={!selected}
            >
              {t('setQuantity')} <Kbd>F4</Kbd>
            </button>
            <button
              type="button"
              onClick={() => selected && setDialog({ kind: 'lineDiscount', line: selected })}
              disabled={!selected}
            >
              {t('lineDiscount')} <Kbd>F6</Kbd>
            </button>
            <button
              type="button"
              onClick={() => setDialog({ kind: 'orderDiscount' })}
              disabled={lines.length === 0}
            >
              {t('orderDiscount')} <Kbd>F7</Kbd>
            </button>
            <button type="button" onClick={() => setDialog({ kind: 'parked' })}>
              {parked.length > 0 ? t('parked', { count: parked.length }) : t('park')} <Kbd>F8</Kbd>
            </button>
          </div>
          {lines.length > 0 && (
            <button type="button" className="ghost danger" onClick={() => void store.clearCart().catch(fail)}>
              {t('clearSale')}
            </button>
          )}
        </div>
      </aside>
      {dialog?.kind === 'quantity' && <QuantityDialog line={dialog.line} onClose={closeDialog} />}
      {dialog?.kind === 'weigh' && <QuantityDialog item={dialog.item} onClose={closeDialog} />}
      {dialog?.kind === 'variants' && (
        <VariantDialog product={dialog.product} onPick={addItem} onClose={closeDialog} />
      )}
      {dialog?.kind === 'lineDiscount' && (
        <DiscountDialog line={dialog.line} currency={currency} onClose={closeDialog} />
      )}
      {dialog?.kind === 'orderDiscount' && <DiscountDialog currency={currency} onClose={closeDialog} />}
      {dialog?.kind === 'customer' && (
        <CustomerDialog current={cart?.customer ?? null} onClose={closeDialog} />
      )}
      {dialog?.kind === 'parked' && (
        <ParkedDialog parked={parked} canPark={lines.length > 0} onClose={closeDialog} />
      )}
      {dialog?.kind === 'tender' && cart && (
        <TenderDialog
          cart={cart}
          onClose={closeDialog}
          onCompleted={(completed) => setDialog({ kind: 'done', completed })}
        />
      )}
      {dialog?.kind === 'done' && <SaleDoneDialog completed={dialog.completed} onClose={closeDialog} />}
    </div>
  );
}
