/**
 * Alt+S: the sales made on this till, newest first, each with where it stands
 * (waiting to sync, synced, or refused with the server's reason), and refund
 * or void with a manager's PIN, online or offline.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { RefundQuote, Sale } from '../../data/api.ts';
import {
  formatDateTime,
  formatMoney,
  formatQuantityMilli,
  parseQuantityMilli,
  useI18n,
} from '../../i18n/index.tsx';
import { Dialog, Kbd, Message, ServerRefusal } from '../components/Dialog.tsx';
import { PinInput, ReasonInput } from '../components/inputs.tsx';
import { refusalText } from '../refusal.ts';
import { orderFlagsText } from '../../i18n/server-words.ts';
import { useObservable, useStore } from '../store.tsx';

const SHOWN = 100;

export function SalesPanel({ onClose, onReprint }: { onClose: () => void; onReprint: () => void }) {
  const store = useStore();
  const { t, language } = useI18n();
  const sales = useObservable<Sale[]>(store.sales$, []);
  const [acting, setActing] = useState<{ sale: Sale; action: 'refund' | 'void' } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  return (
    <Dialog title={t('salesTitle')} onClose={onClose} wide testId="sales-panel">
      <div className="row">
        <button type="button" className="big" onClick={onReprint}>
          {t('reprintLast')} <Kbd>Alt+R</Kbd>
        </button>
        <Message kind="ok" text={done} />
      </div>
      {sales.length === 0 ? (
        <p className="muted">{t('noSales')}</p>
      ) : (
        <ul className="sales-list">
          {sales.slice(0, SHOWN).map((sale) => (
            <li key={sale.commandId} className={`sale-row status-${sale.status}`}>
              <div className="sale-main">
                <strong>{sale.receiptNumber}</strong>
                <span className="muted sale-meta">
                  <span>{formatDateTime(sale.soldAt)}</span>
                  {sale.cashierName && <span>{sale.cashierName}</span>}
                </span>
                <span className={`badge ${sale.status}`}>
                  {
                    {
                      pending: t('statusPending'),
                      applied: t('statusApplied'),
                      refused: t('statusRefusedSale'),
                      exported: t('saleStatusExported'),
                      abandoned: t('saleStatusAbandoned'),
                    }[sale.status]
                  }
                </span>
                {sale.voided && <span className="badge refused">{t('voided')}</span>}
                {sale.refundedAmount > 0 && (
                  <span className="badge">
                    {t('refunded', { amount: formatMoney(sale.refundedAmount, sale.currency) })}
                  </span>
                )}
                <span className="sale-total">{formatMoney(sale.total, sale.currency)}</span>
                {!sale.voided && sale.status !== 'refused' && sale.refundedAmount < sale.total && (
                  <span className="sale-actions">
                    <button type="button" onClick={() => setActing({ sale, action: 'refund' })}>
                      {t('refund')}
                    </button>
                    {sale.refundedAmount === 0 && (
                      <button
                        type="button"
                        className="outline-danger"
                        onClick={() => setActing({ sale, action: 'void' })}
                      >
                        {t('voidSale')}
                      </button>
                    )}
                  </span>
                )}
              </div>
              {sale.refusal && <ServerRefusal refusal={sale.refusal} />}
              {sale.flags.length > 0 && (
                <p className="muted">
                  {t('flags')}: {orderFlagsText(language, sale.flags)}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      {acting && (
        <ManagerAction
          sale={acting.sale}
          action={acting.action}
          onClose={() => setActing(null)}
          onDone={(message) => {
            setActing(null);
            setDone(message);
          }}
        />
      )}
    </Dialog>
  );
}

function ManagerAction({
  sale,
  action,
  onClose,
  onDone,
}: {
  sale: Sale;
  action: 'refund' | 'void';
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const store = useStore();
  const { t } = useI18n();
  const [reason, setReason] = useState('');
  const [restock, setRestock] = useState(true);
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const receiptLines = sale.receipt.lines;
  // What to refund per line, as typed; all that is left of every line to begin with.
  const [amounts, setAmounts] = useState<string[] | null>(null);
  const [quote, setQuote] = useState<RefundQuote | null>(null);
  // An empty field or a 0 keeps the line; anything else must be a quantity.
  const picked = (amounts ?? []).map((text) =>
    /^\s*0*([.,]0*)?\s*$/.test(text) ? 0 : parseQuantityMilli(text, false),
  );
  const left = quote?.left ?? [];
  const whole = amounts !== null && picked.every((milli, index) => milli === left[index]);
  const lines = picked.flatMap((milli, line) => (milli ? [{ line, quantityMilli: milli }] : []));
  const linesKey = JSON.stringify(lines);
  // Priced by the store as the refund will be, again whenever the picked lines change.
  useEffect(() => {
    if (action !== 'refund') return;
    let current = true;
    const asked = amounts === null ? undefined : (JSON.parse(linesKey) as typeof lines);
    store.refundQuote(sale.clientOrderId, asked).then(
      (next) => {
        if (!current) return;
        setQuote(next);
        setAmounts(
          (typed) => typed ?? next.left.map((milli) => formatQuantityMilli(milli, milli % 1000 === 0)),
        );
      },
      () => current && setQuote(null),
    );
    return () => {
      current = false;
    };
  }, [linesKey, action, sale.clientOrderId]);
  const tooMany = picked.some((milli, index) => (milli ?? 0) > (left[index] ?? 0));
  const valid =
    action === 'void' ||
    (amounts !== null && !picked.includes(null) && !tooMany && lines.length > 0 && quote?.amount !== null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    const base = {
      clientOrderId: sale.clientOrderId,
      managerPin: pin,
      ...(reason.trim() ? { reason: reason.trim() } : {}),
    };
    // Everything left when nothing was narrowed down (the store refunds what is not yet refunded).
    const done =
      action === 'refund'
        ? store.refund({ ...base, restock, ...(whole ? {} : { lines }) })
        : store.voidSale(base);
    done.then(
      () => onDone(action === 'refund' ? t('refundDone') : t('voidDone')),
      (failure: unknown) => {
        setPin('');
        setError(refusalText(t, failure));
      },
    );
  };
  return (
    <Dialog
      title={`${action === 'refund' ? t('refund') : t('voidSale')}: ${sale.receiptNumber}`}
      onClose={onClose}
      testId="manager-action"
      wide={action === 'refund'}
    >
      {/* A refund's lines on the left and the approval on the right: on a landscape tablet the button stays in view. */}
      <form className={action === 'refund' ? 'manager-action refund' : 'manager-action'} onSubmit={submit}>
        <div className="stack">
          <p className="echo" data-testid="action-amount">
            {formatMoney(
              action === 'refund' ? (quote?.amount ?? 0) : sale.total - sale.refundedAmount,
              sale.currency,
            )}
          </p>
          {action === 'refund' && receiptLines.length > 0 && (
            <fieldset className="refund-lines">
              <legend>{t('refundLines')}</legend>
              {receiptLines.map((line, index) => (
                <label key={index} className="refund-line">
                  <span>
                    {line.description} <small className="muted">× {line.quantityText}</small>
                  </span>
                  <input
                    inputMode="decimal"
                    value={amounts?.[index] ?? ''}
                    aria-invalid={picked[index] === null || (picked[index] ?? 0) > (left[index] ?? 0)}
                    onChange={(event) =>
                      setAmounts(
                        (amounts ?? []).map((text, at) => (at === index ? event.target.value : text)),
                      )
                    }
                  />
                </label>
              ))}
            </fieldset>
          )}
        </div>
        <div className="stack">
          <label>
            {t('reason')}
            <ReasonInput value={reason} onChange={setReason} />
          </label>
          {action === 'refund' && (
            <label className="check">
              <input type="checkbox" checked={restock} onChange={(e) => setRestock(e.target.checked)} />
              {t('restock')}
            </label>
          )}
          <label>
            {t('managerPin')}
            <PinInput value={pin} onChange={setPin} autoFocus aria-label={t('managerPin')} />
          </label>
          <button
            type="submit"
            className={action === 'void' ? 'danger big' : 'primary big'}
            disabled={pin.length < 4 || !valid}
          >
            {action === 'refund' ? t('refund') : t('voidSale')}
          </button>
          <Message text={error} />
        </div>
      </form>
    </Dialog>
  );
}
