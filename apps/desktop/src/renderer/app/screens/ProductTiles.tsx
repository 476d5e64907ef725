/**
 * Product tiles under the cart, for goods without a barcode (docs/TILL.md,
 * "Tiles"): a tab per shelf (Favourites, then each category) and a page of
 * tiles that fits the space, with ‹ › for the rest. A tile adds its item as a
 * search result does (variants and weights are asked). By keyboard: F5 goes to
 * the tiles, arrows move, Enter adds, PageUp/PageDown page, ←/→ on the tabs
 * change shelf, Esc goes back to the search box. A tile shows how many of its
 * item the cart holds.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent as ReactKeyboardEvent } from 'react';
import type { CartLine, CatalogueItem, TileShelf } from '../../data/api.ts';
import { formatMoney, formatQuantityMilli, useI18n } from '../../i18n/index.tsx';

/** The gap between tiles (px, as in styles.css). */
const TILE_GAP = 8;

/**
 * Columns and rows of a page: as many columns of at least `--tile-min-w` as fit the grid's width,
 * and `--tile-rows` rows (the stylesheet knows the screen).
 */
function layoutOf(element: HTMLElement): { columns: number; rows: number } {
  const style = getComputedStyle(element);
  const minWidth = Number.parseFloat(style.getPropertyValue('--tile-min-w')) || 128;
  const rows = Number.parseInt(style.getPropertyValue('--tile-rows'), 10) || 2;
  const columns = Math.max(1, Math.floor((element.clientWidth + TILE_GAP) / (minWidth + TILE_GAP)));
  return { columns, rows };
}

export function ProductTiles({
  shelves,
  lines,
  shown,
  onShownChange,
  onPick,
  onLeave,
  focusRequest,
}: {
  shelves: TileShelf[];
  lines: CartLine[];
  /** Folded away, only the tabs' row shows (a store that mostly scans). */
  shown: boolean;
  onShownChange: (shown: boolean) => void;
  onPick: (item: CatalogueItem) => void;
  /** Esc: back to the search box. */
  onLeave: () => void;
  /** Changes when F5 asks for the tiles: the current page's first tile takes focus. */
  focusRequest: number;
}) {
  const { t } = useI18n();
  const [shelfKey, setShelfKey] = useState<string | null>(null);
  const [page, setPage] = useState(0);
  const [focusIndex, setFocusIndex] = useState(0);
  const [layout, setLayout] = useState({ columns: 4, rows: 2 });
  const grid = useRef<HTMLDivElement>(null);
  const tabs = useRef<HTMLDivElement>(null);

  const shelf = shelves.find((one) => one.key === shelfKey) ?? shelves[0];
  const perPage = layout.columns * layout.rows;
  const pages = shelf ? Math.max(1, Math.ceil(shelf.items.length / perPage)) : 1;
  const shownPage = Math.min(page, pages - 1);
  const onPage = shelf ? shelf.items.slice(shownPage * perPage, (shownPage + 1) * perPage) : [];

  // How much of each item the cart holds, for the tiles' badges.
  const inCart = useMemo(() => {
    const held = new Map<string, number>();
    for (const line of lines) {
      const key = `${line.item.productId}:${line.item.variantId ?? ''}`;
      held.set(key, (held.get(key) ?? 0) + line.quantityMilli);
      // A product sold by variant shows what its variants add up to.
      if (line.item.variantId !== null)
        held.set(
          `${line.item.productId}:*`,
          (held.get(`${line.item.productId}:*`) ?? 0) + line.quantityMilli,
        );
    }
    return held;
  }, [lines]);

  // Columns from the grid's width; rows from the stylesheet, which knows the screen's height.
  useLayoutEffect(() => {
    const element = grid.current;
    if (!element) return;
    const measure = () => {
      const { columns, rows } = layoutOf(element);
      setLayout((now) => (now.columns === columns && now.rows === rows ? now : { columns, rows }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [shown, shelves.length > 0]);

  // F5: the page's tile that had focus last (or the first) takes it.
  useEffect(() => {
    if (focusRequest === 0) return;
    if (!shown) onShownChange(true);
    const timer = setTimeout(() => tileAt(Math.min(focusIndex, Math.max(0, onPage.length - 1)))?.focus(), 0);
    return () => clearTimeout(timer);
    // Only a new request moves focus.
  }, [focusRequest]);

  const tileAt = (index: number) =>
    grid.current?.querySelectorAll<HTMLButtonElement>('button.tile').item(index) ?? null;

  const goToPage = (next: number, focus: 'first' | 'last' | null = null) => {
    const target = Math.max(0, Math.min(pages - 1, next));
    setPage(target);
    if (focus === null) return;
    const count = shelf ? Math.min(perPage, shelf.items.length - target * perPage) : 0;
    const index = focus === 'first' ? 0 : count - 1;
    setFocusIndex(index);
    setTimeout(() => tileAt(index)?.focus(), 0);
  };

  const chooseShelf = (key: string, focusTab = false) => {
    setShelfKey(key);
    setPage(0);
    setFocusIndex(0);
    if (!shown) onShownChange(true);
    if (focusTab)
      setTimeout(() => tabs.current?.querySelector<HTMLButtonElement>('[aria-selected=true]')?.focus(), 0);
  };

  const onTileKey = (event: ReactKeyboardEvent, index: number) => {
    const { columns } = layout;
    const moves: Record<string, () => void> = {
      ArrowRight: () => (index + 1 < onPage.length ? move(index + 1) : goToPage(shownPage + 1, 'first')),
      ArrowLeft: () => (index > 0 ? move(index - 1) : goToPage(shownPage - 1, 'last')),
      ArrowDown: () => move(Math.min(onPage.length - 1, index + columns)),
      ArrowUp: () =>
        index - columns >= 0
          ? move(index - columns)
          : tabs.current?.querySelector<HTMLButtonElement>('[aria-selected=true]')?.focus(),
      Home: () => move(0),
      End: () => move(onPage.length - 1),
      PageDown: () => goToPage(shownPage + 1, 'first'),
      PageUp: () => goToPage(shownPage - 1, 'first'),
      Escape: onLeave,
    };
    const run = moves[event.key];
    if (!run) return;
    // Handled here: the sale screen's own arrow keys (cart lines) stay out of it.
    event.preventDefault();
    event.stopPropagation();
    run();
  };

  const move = (index: number) => {
    setFocusIndex(index);
    tileAt(index)?.focus();
  };

  const onTabKey = (event: ReactKeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      event.stopPropagation();
      tileAt(0)?.focus();
      return;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onLeave();
      return;
    }
    if (step === 0) return;
    event.preventDefault();
    event.stopPropagation();
    const next = shelves[(index + step + shelves.length) % shelves.length];
    if (next) chooseShelf(next.key, true);
  };

  if (shelves.length === 0 || !shelf) return null;
  return (
    <section className={`tiles${shown ? '' : ' folded'}`} aria-label={t('tiles')} data-testid="tiles">
      <div className="tile-head">
        <div className="tile-tabs" role="tablist" ref={tabs}>
          {shelves.map((one, index) => (
            <button
              key={one.key}
              type="button"
              role="tab"
              aria-selected={one.key === shelf.key}
              tabIndex={one.key === shelf.key ? 0 : -1}
              className={one.key === shelf.key ? 'tile-tab active' : 'tile-tab'}
              onClick={() => chooseShelf(one.key)}
              onKeyDown={(event) => onTabKey(event, index)}
            >
              {one.name ?? `★ ${t('favourites')}`}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="ghost tile-fold"
          aria-expanded={shown}
          onClick={() => onShownChange(!shown)}
          data-testid="tiles-fold"
        >
          {shown ? t('tilesHide') : t('tilesShow')}
        </button>
      </div>
      {shown && (
        <div className="tile-body">
          <div
            className="tile-grid"
            ref={grid}
            role="group"
            aria-label={shelf.name ?? t('favourites')}
            style={{ gridTemplateColumns: `repeat(${layout.columns}, minmax(0, 1fr))` }}
          >
            {onPage.map((item, index) => {
              const held = inCart.get(`${item.productId}:${item.hasVariants ? '*' : (item.variantId ?? '')}`);
              return (
                <button
                  key={`${item.productId}:${item.variantId ?? ''}`}
                  type="button"
                  className={held ? 'tile held' : 'tile'}
                  tabIndex={index === Math.min(focusIndex, onPage.length - 1) ? 0 : -1}
                  onClick={() => {
                    setFocusIndex(index);
                    onPick(item);
                  }}
                  onFocus={() => setFocusIndex(index)}
                  onKeyDown={(event) => onTileKey(event, index)}
                >
                  <span className="tile-name">{item.name}</span>
                  <span className="tile-price">
                    {item.hasVariants
                      ? `${t('hasVariantsHint')} ›`
                      : `${formatMoney(item.price, item.currency)}${item.unit === 'piece' ? '' : ` / ${item.unit}`}`}
                  </span>
                  {held !== undefined && (
                    <span className="tile-held" aria-label={t('tileInCart')}>
                      {formatQuantityMilli(held, item.unit === 'piece')}
                    </span>
                  )}
                </button>
              );
            })}
          </div>
          {pages > 1 && (
            <div className="tile-pager">
              <button
                type="button"
                onClick={() => goToPage(shownPage - 1)}
                disabled={shownPage === 0}
                aria-label={t('tilesPrevious')}
              >
                ‹
              </button>
              <span>
                {shownPage + 1}/{pages}
              </span>
              <button
                type="button"
                onClick={() => goToPage(shownPage + 1)}
                disabled={shownPage === pages - 1}
                aria-label={t('tilesNext')}
              >
                ›
              </button>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
