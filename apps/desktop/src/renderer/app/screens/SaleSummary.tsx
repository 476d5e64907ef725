/**
 * The sale screen's right side: the total, which never leaves the screen, its
 * discounts, the customer, and the buttons for what the function keys do.
 */
import { itemCount } from '@tz/core';
import type { Cart, CartLine } from '../../data/api.ts';
import { formatMoney, useI18n } from '../../i18n/index.tsx';
import { Kbd } from '../components/Dialog.tsx';
import type { SaleDialog } from './SaleDialogs.tsx';

export function SaleSummary({
  cart,
  currency,
  selected,
  parkedCount,
  retiring,
  onCashExact,
  onClear,
  open,
}: {
  cart: Cart | null;
  currency: string;
  selected: CartLine | null;
  parkedCount: number;
  retiring: boolean;
  onCashExact: () => void;
  onClear: () => void;
  open: (dialog: SaleDialog) => void;
}) {
  const { t } = useI18n();
  const empty = (cart?.lines.length ?? 0) === 0;
  return (
    <aside className="sale-right">
      <div className="total-box" data-testid="total">
        <span className="total-label">{t('total')}</span>
        <span className="total-amount">{formatMoney(cart?.priced.total ?? 0, currency)}</span>
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
      <button type="button" className="customer-chip" onClick={() => open({ kind: 'customer' })}>
        <span>{t('customer')}</span>
        <strong>{cart?.customer ? (cart.customer.name ?? cart.customer.phone) : t('noCustomer')}</strong>
        <Kbd>F3</Kbd>
      </button>
      <div className="actions">
        <button
          type="button"
          className="primary huge"
          onClick={onCashExact}
          disabled={empty || retiring}
          data-testid="cash-exact"
        >
          {t('payCashExact')} <Kbd>F9</Kbd>
        </button>
        <button
          type="button"
          className="accent huge"
          onClick={() => open({ kind: 'tender' })}
          disabled={empty || retiring}
        >
          {t('pay')} <Kbd>F10</Kbd>
        </button>
        <div className="action-grid">
          <button
            type="button"
            onClick={() => selected && open({ kind: 'quantity', line: selected })}
            disabled={!selected}
          >
            {t('setQuantity')} <Kbd>F4</Kbd>
          </button>
          <button
            type="button"
            onClick={() => selected && open({ kind: 'lineDiscount', line: selected })}
            disabled={!selected}
          >
            {t('lineDiscount')} <Kbd>F6</Kbd>
          </button>
          <button type="button" onClick={() => open({ kind: 'orderDiscount' })} disabled={empty}>
            {t('orderDiscount')} <Kbd>F7</Kbd>
          </button>
          <button type="button" onClick={() => open({ kind: 'parked' })}>
            {parkedCount > 0 ? t('parked', { count: parkedCount }) : t('park')} <Kbd>F8</Kbd>
          </button>
        </div>
        {!empty && (
          <button type="button" className="ghost danger" onClick={onClear}>
            {t('clearSale')}
          </button>
        )}
      </div>
    </aside>
  );
}
