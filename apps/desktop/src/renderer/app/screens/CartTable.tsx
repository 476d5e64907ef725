/** The sale's lines: the selected one is marked (F4, F6, Delete and +/− act on it). */
import { memo, useRef } from 'react';
import type { Cart, CartLine } from '../../data/api.ts';
import { formatMoney, formatQuantityMilli, useI18n } from '../../i18n/index.tsx';
import { useKeptInView } from '../components/kept-in-view.ts';

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
