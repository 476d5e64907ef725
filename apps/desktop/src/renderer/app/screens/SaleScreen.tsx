/**
 * The sale screen: a search box that also takes typed barcodes, the cart, and
 * the total, which never leaves the screen. Scans land here wherever focus is.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PullDocument } from '@tz/core';
import type { Cart, CartLine, CatalogueItem, ParkedCart, TileShelf, TillSettings } from '../../data/api.ts';
import { useI18n } from '../../i18n/index.tsx';
import { useShortcuts, type KeyAction } from '../keyboard/shortcuts.ts';
import { useNotify } from '../notices.tsx';
import { refusalText } from '../refusal.ts';
import { useObservable, useStore } from '../store.tsx';
import { CartCustomer } from './CustomerDialog.tsx';
import { SaleSearch } from './SaleSearch.tsx';
import { CartTable } from './CartTable.tsx';
import { ProductTiles } from './ProductTiles.tsx';
import { SaleDialogs, type SaleDialog } from './SaleDialogs.tsx';
import { SaleSummary } from './SaleSummary.tsx';
import { useSaleScanner } from './use-sale-scanner.ts';
import { useSaleSearch } from './use-sale-search.ts';
import { codeText } from '../../i18n/code-words.ts';

const NO_LINES: CartLine[] = [];
const NO_SHELVES: TileShelf[] = [];

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
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [dialog, setDialog] = useState<SaleDialog | null>(null);
  const search = useRef<HTMLInputElement>(null);
  const lines = cart?.lines ?? NO_LINES;
  const selected = lines.find((line) => line.key === selectedKey) ?? lines.at(-1) ?? null;

  const fail = useCallback((error: unknown) => notify(refusalText(language, error), 'error'), [notify, t]);
  const { query, setQuery, results, setResults, resultIndex, setResultIndex, noteKey, moveResult } =
    useSaleSearch(store, fail);
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

  const scanning = useSaleScanner({
    blocked,
    dialog,
    setDialog,
    closeDialog,
    onAdded: () => setSelectedKey(null),
    fail,
  });

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
  const changeQuantity = (line: CartLine, milli: number) =>
    void store.setQuantity(line.key, milli).catch(fail);
  const retired = () => notify(codeText(language, 'till_retired'), 'error');

  // What each of the sale screen's shortcuts does (`SHORTCUTS` says which key, and when it acts).
  const actions: Partial<Record<KeyAction, () => void>> = {
    search: () => search.current?.focus(),
    customer: () => setDialog({ kind: 'customer' }),
    quantity: () => selected && setDialog({ kind: 'quantity', line: selected }),
    tiles: () => (shelves.length > 0 ? setTilesAsked((n) => n + 1) : undefined),
    lineDiscount: () => selected && setDialog({ kind: 'lineDiscount', line: selected }),
    orderDiscount: () => setDialog({ kind: 'orderDiscount' }),
    park: () => setDialog({ kind: 'parked' }),
    cashExact: retiring ? retired : cashExact,
    pay: retiring
      ? retired
      : lines.length > 0
        ? () => void scanning.current.then(() => setDialog({ kind: 'tender' }))
        : () => notify(codeText(language, 'cart_empty'), 'error'),
    down: () => (results ? moveResult(1) : moveLine(1)),
    up: () => (results ? moveResult(-1) : moveLine(-1)),
    clearSearch: () => {
      setQuery('');
      search.current?.focus();
    },
    removeLine: () => selected && void store.removeLine(selected.key).then(() => setSelectedKey(null), fail),
    plus: () => selected && changeQuantity(selected, selected.quantityMilli + 1000),
    minus: () =>
      selected && selected.quantityMilli > 1000 && changeQuantity(selected, selected.quantityMilli - 1000),
  };

  useShortcuts(
    'sale',
    !blocked && !dialog,
    () => {
      const focus = document.activeElement;
      const lineKeys =
        search.current?.value === '' &&
        selected !== null &&
        (focus === search.current || focus === document.body);
      return {
        lineSelected: selected !== null,
        cartHasLines: lines.length > 0,
        lineKeys,
        pieceLineKeys: lineKeys && selected.item.unit === 'piece',
      };
    },
    actions,
  );

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
        <SaleSearch
          input={search}
          query={query}
          onQuery={setQuery}
          onKey={noteKey}
          results={results}
          index={resultIndex}
          onSubmit={submitSearch}
          onPick={addItem}
          onHover={setResultIndex}
        />
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
      <SaleSummary
        cart={cart}
        currency={currency}
        selected={selected}
        parkedCount={parked.length}
        retiring={retiring}
        onCashExact={cashExact}
        onClear={() => void store.clearCart().catch(fail)}
        open={setDialog}
      />
      <SaleDialogs
        dialog={dialog}
        cart={cart}
        parked={parked}
        currency={currency}
        onPick={addItem}
        onCompleted={(completed) => setDialog({ kind: 'done', completed })}
        onClose={closeDialog}
      />
    </div>
  );
}
