/**
 * The sale's lines: the selected one is marked (F4, F6, Delete and +/− act on it). Each line of
 * an item whose stock the store tracks says how much is left, and warns when the cart holds more
 * (the sale still goes through: the server flags it `stock_short`).
 */
import { memo, useRef } from 'react';
import { stockKey } from '../../data/api.ts';
import type { Cart, CartLine, CartStock } from '../../data/api.ts';
import { formatMoney, formatQuantityMilli, useI18n } from '../../i18n/index.tsx';
import { useKeptInView } from '../components/kept-in-view.ts';
import { useObservable, useStore } from '../store.tsx';

const NO_STOCK: CartStock = {};

/** What a line says about stock: how much is left, or that the cart holds more than that. */
function StockLeft({
  line,
  stock,
  inCart,
}: {
  line: CartLine;
  stock: CartStock;
  inCart: Map<string, number>;
}) {
  const { t } = useI18n();
  const key = stockKey(line.item);
  const onHand = stock[key];
  if (!line.item.trackStock || onHand === undefined) return null;
  const whole = line.item.unit === 'piece';
  const count = `${formatQuantityMilli(onHand, whole)}${whole ? '' : ` ${line.item.unit}`}`;
  if (onHand <= 0) return <small className="line-stock short">{t('stockNone')}</small>;
  if ((inCart.get(key) ?? 0) > onHand)
    return <small className="line-stock short">{t('stockLeftShort', { count })}</small>;
  return <small className="line-stock">{t('inStock', { count })}</small>;
}

/** Memoised: the sale screen renders at every key typed into the search box, the cart only when it changes. */
export const CartTable = memo(function CartTable({
  lines,
  cart,
  selectedKey,
  onSelect,
  onEdit,
  onRemove,
}: {
  lines: CartLine[];
  cart: Cart | null;
  selectedKey: string | null;
  onSelect: (key: string) => void;
  onEdit: (line: CartLine) => void;
  onRemove: (line: CartLine) => void;
}) {
  const { t } = useI18n();
  const stock = useObservable<CartStock>(useStore().cartStock$, NO_STOCK);
  const selectedRow = useRef<HTMLTableRowElement>(null);
  useKeptInView(selectedRow, `${selectedKey}:${lines.length}`);
  if (lines.length === 0) {
    return (
      <div className="cart empty" data-testid="cart">
        <p>{t('cartEmpty')}</p>
      </div>
    );
  }
  const currency = cart?.priced.currency ?? 'TZS';
  // The same item on several lines counts once against its stock.
  const inCart = new Map<string, number>();
  for (const line of lines)
    inCart.set(stockKey(line.item), (inCart.get(stockKey(line.item)) ?? 0) + line.quantityMilli);
  return (
    <div className="cart" data-testid="cart">
      <table>
        <thead>
          <tr>
            <th className="name">{t('item')}</th>
            <th className="num">{t('quantity')}</th>
            <th className="num">{t('price')}</th>
            <th className="num">{t('lineTotal')}</th>
            <th aria-label={t('remove')} />
          </tr>
        </thead>
        <tbody>
          {lines.map((line, index) => {
            const priced = cart?.priced.lines[index];
            const selected = line.key === selectedKey;
            const whole = line.item.unit === 'piece';
            return (
              <tr
                key={line.key}
                ref={selected ? selectedRow : undefined}
                className={selected ? 'selected' : ''}
                onClick={() => onSelect(line.key)}
                onDoubleClick={() => onEdit(line)}
              >
                <td className="name">
                  <span className="line-name">{line.item.name}</span>
                  <StockLeft line={line} stock={stock} inCart={inCart} />
                  {priced && priced.lineDiscount + priced.orderDiscount > 0 && (
                    <small className="line-discount">
                      {t('discount')} −{formatMoney(priced.lineDiscount + priced.orderDiscount, currency)}
                    </small>
                  )}
                </td>
                <td className="num">
                  <button type="button" className="qty" onClick={() => onEdit(line)}>
                    {formatQuantityMilli(line.quantityMilli, whole)}
                    {!whole && ` ${line.item.unit}`}
                  </button>
                </td>
                <td className="num">{formatMoney(priced?.unitPrice ?? line.item.price, currency)}</td>
                <td className="num strong">{formatMoney(priced?.total ?? 0, currency)}</td>
                <td>
                  <button
                    type="button"
                    className="ghost remove"
                    onClick={() => onRemove(line)}
                    aria-label={t('remove')}
                  >
                    ✕
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
});
