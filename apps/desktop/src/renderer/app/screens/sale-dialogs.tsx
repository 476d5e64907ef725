/** The sale screen's smaller dialogs: quantity or weight, discounts, parked sales. */
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { Discount } from '@tz/core';
import type { CartLine, CatalogueItem, ParkedCart, TillSettings } from '../../data/api.ts';
import {
  formatMoney,
  formatPercent,
  formatQuantityMilli,
  formatTime,
  parseAmount,
  parsePercent,
  parseQuantityMilli,
  useI18n,
} from '../../i18n/index.tsx';
import { Dialog, Message } from '../components/Dialog.tsx';
import { AmountInput, PinInput } from '../components/inputs.tsx';
import { Segmented } from '../../ui/Segmented.tsx';
import { refusalCode, refusalText } from '../refusal.ts';
import { useObservable, useStore } from '../store.tsx';
import { codeText } from '../../i18n/code-words.ts';

/** F4 on a line, or a weighed item just picked: pieces are whole, kg/litre/metre take three decimals. */
export function QuantityDialog({
  line,
  item,
  onClose,
}: {
  line?: CartLine;
  item?: CatalogueItem;
  onClose: () => void;
}) {
  const store = useStore();
  const { t, language } = useI18n();
  const product = line?.item ?? item;
  const whole = product?.unit === 'piece';
  const [text, setText] = useState(line ? formatQuantityMilli(line.quantityMilli, whole) : '');
  const [error, setError] = useState<string | null>(null);
  if (!product) return null;
  const milli = parseQuantityMilli(text, whole);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (milli === null) return setError(codeText(language, 'invalid'));
    const done = line ? store.setQuantity(line.key, milli) : store.addItem(product, milli);
    done.then(onClose, (failure: unknown) => setError(refusalText(language, failure)));
  };
  return (
    <Dialog title={t('quantityFor', { name: product.name })} onClose={onClose} testId="quantity-dialog">
      <form onSubmit={submit} className="stack">
        <label>
          {whole
            ? t('setQuantity')
            : product.unit === 'kg'
              ? t('weightKg')
              : `${t('setQuantity')} (${product.unit})`}
          <input
            className="big-input"
            inputMode="decimal"
            value={text}
            onChange={(event) => setText(event.target.value)}
            autoFocus
            onFocus={(event) => event.target.select()}
          />
        </label>
        {milli !== null && (
          <p className="echo">{formatMoney(Math.round((product.price * milli) / 1000), product.currency)}</p>
        )}
        <button type="submit" className="primary big" disabled={milli === null}>
          {t('apply')}
        </button>
        <Message text={error} />
      </form>
    </Dialog>
  );
}

/** F6 (a line) or F7 (the whole sale): percent or amount; above the till's limit, a manager's PIN. */
export function DiscountDialog({
  line,
  currency,
  onClose,
}: {
  line?: CartLine;
  currency: string;
  onClose: () => void;
}) {
  const store = useStore();
  const { t, language } = useI18n();
  const settings = useObservable<TillSettings | null>(store.settings$, null);
  const current = line ? line.discount : null;
  const [mode, setMode] = useState<Discount['type']>(current?.type ?? 'percent');
  const [text, setText] = useState(
    current?.type === 'percent'
      ? formatPercent(current.basisPoints).replace('%', '')
      : current
        ? String(current.amount)
        : '',
  );
  const [pin, setPin] = useState('');
  const [askPin, setAskPin] = useState(false);
  const pinField = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const value = mode === 'percent' ? parsePercent(text) : parseAmount(text, currency);
  const limit = settings?.managerDiscountAboveBasisPoints ?? null;
  const needsPin =
    !line && (askPin || (mode === 'percent' && value !== null && limit !== null && value > limit));

  const apply = (discount: Discount | null) => {
    const done = line
      ? store.setLineDiscount(line.key, discount)
      : store.setOrderDiscount(discount, needsPin && pin !== '' ? pin : undefined);
    done.then(onClose, (failure: unknown) => {
      const code = refusalCode(failure);
      if (code === 'manager_pin_required' || code === 'manager_pin_wrong') {
        setAskPin(true);
        setTimeout(() => pinField.current?.focus(), 0);
      }
      setPin('');
      setError(refusalText(language, failure));
    });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value === null) return setError(codeText(language, 'invalid'));
    apply(mode === 'percent' ? { type: 'percent', basisPoints: value } : { type: 'amount', amount: value });
  };
  return (
    <Dialog
      title={line ? `${t('lineDiscount')}: ${line.item.name}` : t('orderDiscount')}
      onClose={onClose}
      testId="discount-dialog"
    >
      <form
        onSubmit={submit}
        className="stack"
        onKeyDown={(event) => {
          // Enter on a discount above the limit goes on to the manager's PIN, which is typed there.
          if (event.key === 'Enter' && needsPin && pin.length < 4 && event.target !== pinField.current) {
            event.preventDefault();
            pinField.current?.focus();
          }
        }}
      >
        <Segmented
          options={[
            ['percent', t('percent')],
            ['amount', t('fixedAmount')],
          ]}
          value={mode}
          onChange={setMode}
        />
        {mode === 'percent' ? (
          <label>
            {t('percent')} (%)
            <input
              className="big-input"
              inputMode="decimal"
              value={text}
              onChange={(e) => setText(e.target.value)}
              autoFocus
            />
          </label>
        ) : (
          <label>
            {t('fixedAmount')}
            <AmountInput
              value={text}
              onChange={setText}
              currency={currency}
              className="big-input"
              autoFocus
            />
          </label>
        )}
        {needsPin && (
          <label>
            {limit !== null ? t('managerPinNeeded', { percent: formatPercent(limit) }) : t('managerPin')}
            <PinInput ref={pinField} value={pin} onChange={setPin} aria-label={t('managerPin')} />
          </label>
        )}
        <div className="row">
          <button
            type="submit"
            className="primary big"
            disabled={value === null || (needsPin && pin.length < 4)}
          >
            {t('apply')}
          </button>
          <button type="button" className="big" onClick={() => apply(null)}>
            {t('removeDiscount')}
          </button>
        </div>
        <Message text={error} />
      </form>
    </Dialog>
  );
}

/** F8: park this sale (with a name to call it back by), or resume a parked one. */
export function ParkedDialog({
  parked,
  canPark,
  onClose,
}: {
  parked: ParkedCart[];
  canPark: boolean;
  onClose: () => void;
}) {
  const store = useStore();
  const { t, language } = useI18n();
  const [label, setLabel] = useState('');
  const [error, setError] = useState<string | null>(null);
  const fail = (failure: unknown) => setError(refusalText(language, failure));
  const list = useRef<HTMLUListElement>(null);
  // ↑ ↓ move through the parked sales (from the name field too); Enter resumes the one focused.
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const sales = [...(list.current?.querySelectorAll('button') ?? [])];
    if (sales.length === 0) return;
    event.preventDefault();
    const at = sales.indexOf(document.activeElement as HTMLButtonElement);
    const step = event.key === 'ArrowDown' ? 1 : -1;
    const next = at === -1 ? (step > 0 ? 0 : sales.length - 1) : at + step;
    sales[Math.min(sales.length - 1, Math.max(0, next))]?.focus();
  };
  return (
    <Dialog title={t('parkedTitle')} onClose={onClose} testId="parked-dialog">
      <div className="stack" onKeyDown={move}>
        {canPark && (
          <form
            className="row"
            onSubmit={(event) => {
              event.preventDefault();
              store.park(label.trim() || undefined).then(onClose, fail);
            }}
          >
            <input
              className="big-input grow"
              value={label}
              onChange={(event) => setLabel(event.target.value)}
              placeholder={t('parkLabel')}
              aria-label={t('parkLabel')}
              maxLength={40}
              autoFocus
              data-free-text
            />
            <button type="submit" className="primary big">
              {t('park')}
            </button>
          </form>
        )}
        {parked.length === 0 ? (
          <p className="muted">{t('noParked')}</p>
        ) : (
          <ul className="pick-list" ref={list}>
            {parked.map((cart) => (
              <li key={cart.id}>
                <button type="button" onClick={() => void store.resume(cart.id).then(onClose, fail)}>
                  <strong>{cart.label}</strong>
                  <span className="muted">
                    {formatTime(cart.parkedAt)} · {cart.cashier} ·{' '}
                    {t('itemsCount', { count: cart.itemCount })}
                  </span>
                  <span className="strong">{formatMoney(cart.total)}</span>
                  <span className="pill">{t('resume')}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <Message text={error} />
      </div>
    </Dialog>
  );
}
