/**
 * Alt+S: the sales made on this till, newest first, each with where it stands
 * (waiting to sync, synced, or refused with the server's reason). Found by
 * receipt number (`12` or `T01-000012`), by amount, and by day (today,
 * yesterday, any day chosen); ↑ ↓ choose one and Enter (or a tap) opens it
 * with its lines, tenders and cashier, to reprint, refund or void
 * (`SaleDetail.tsx`). Esc goes back to the list, and Esc again closes it.
 */
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Sale, SalesPage } from '../../data/api.ts';
import { formatDateTime, formatMoney, useI18n } from '../../i18n/index.tsx';
import { Dialog, Kbd, ServerRefusal } from '../components/Dialog.tsx';
import { Segmented } from '../../ui/Segmented.tsx';
import { useObservable, useStore } from '../store.tsx';
import { SaleBadges, SaleDetail } from './SaleDetail.tsx';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function SalesPanel({ onClose, onReprint }: { onClose: () => void; onReprint: () => void }) {
  const store = useStore();
  const { t } = useI18n();
  const [text, setText] = useState('');
  /** `today`, `yesterday`, a day chosen (`2026-11-26`), or any day. */
  const [day, setDay] = useState<string | null>(null);
  const page$ = useMemo(() => store.searchSales({ text, day }), [store, text, day]);
  const page = useObservable<SalesPage | null>(page$, null);
  const sales = page?.sales ?? [];
  const [chosen, setChosen] = useState({ for: page$, at: 0 });
  // A new search starts at its first sale.
  const active = chosen.for === page$ ? Math.min(chosen.at, Math.max(0, sales.length - 1)) : 0;
  const choose = (at: number) => setChosen({ for: page$, at });
  const [opened, setOpened] = useState<Sale | null>(null);
  // The opened sale as it is now (refunded, synced) while the list still holds it.
  const openSale = opened && (sales.find((sale) => sale.commandId === opened.commandId) ?? opened);
  const list = useRef<HTMLUListElement>(null);

  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    // The date field steps its own day, month and year with the arrows.
    if ((event.target as HTMLInputElement).type === 'date' || sales.length === 0) return;
    event.preventDefault();
    const next = Math.min(sales.length - 1, Math.max(0, active + (event.key === 'ArrowDown' ? 1 : -1)));
    choose(next);
    const row = list.current?.querySelectorAll<HTMLButtonElement>('.sale-open')[next];
    if (list.current?.contains(document.activeElement)) row?.focus();
    else row?.scrollIntoView({ block: 'nearest' });
  };
  const days: Array<[string | null, string]> = [
    [null, t('salesAnyDay')],
    ['today', t('salesToday')],
    ['yesterday', t('salesYesterday')],
  ];
  return (
    <Dialog title={t('salesTitle')} onClose={onClose} wide testId="sales-panel">
      <div className="stack sales-browse" onKeyDown={move}>
        <form
          className="sales-find"
          role="search"
          onSubmit={(event) => {
            event.preventDefault();
            const sale = sales[active];
            if (sale) setOpened(sale);
          }}
        >
          <input
            className="big-input grow"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder={t('salesSearch')}
            aria-label={t('salesSearch')}
            inputMode="search"
            autoFocus
            data-testid="sales-search"
          />
          <button type="button" className="big" onClick={onReprint}>
            {t('reprintLast')} <Kbd>Alt+R</Kbd>
          </button>
        </form>
        <div className="sales-days">
          <Segmented options={days} value={day} onChange={setDay} label={t('salesDay')} />
          <label className="sales-day">
            {t('salesDay')}
            <input
              type="date"
              value={day !== null && DAY.test(day) ? day : ''}
              onChange={(event) => setDay(DAY.test(event.target.value) ? event.target.value : null)}
              data-testid="sales-day"
            />
          </label>
        </div>
        {page !== null && sales.length === 0 ? (
          <p className="muted">{text.trim() === '' && day === null ? t('noSales') : t('salesNoMatch')}</p>
        ) : (
          <ul className="sales-list" ref={list} aria-label={t('salesTitle')}>
            {sales.map((sale, at) => (
              <li key={sale.commandId} className={`sale-row status-${sale.status}`}>
                <button
                  type="button"
                  className={at === active ? 'sale-open active' : 'sale-open'}
                  aria-current={at === active}
                  onClick={() => setOpened(sale)}
                  onFocus={() => choose(at)}
                >
                  <strong>{sale.receiptNumber}</strong>
                  <span className="muted sale-meta">
                    <span>{formatDateTime(sale.soldAt)}</span>
                    {sale.cashierName && <span>{sale.cashierName}</span>}
                  </span>
                  <span className="sale-badges">
                    <SaleBadges sale={sale} />
                  </span>
                  <span className="sale-total">{formatMoney(sale.total, sale.currency)}</span>
                </button>
                {sale.refusal && <ServerRefusal refusal={sale.refusal} />}
              </li>
            ))}
          </ul>
        )}
        <p className="muted sales-foot">
          {page && page.count > sales.length && (
            <span>{t('salesShownOf', { shown: sales.length, count: page.count })}</span>
          )}
          {sales.length > 0 && <span className="sales-keys">{t('salesKeys')}</span>}
        </p>
      </div>
      {openSale && <SaleDetail sale={openSale} onClose={() => setOpened(null)} />}
    </Dialog>
  );
}
