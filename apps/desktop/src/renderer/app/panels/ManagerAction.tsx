/**
 * Refund or void one sale with a manager's PIN, online or offline: a refund
 * names how much of each line (all that is left to begin with) and shows what
 * the picked lines give back, priced by the store as the refund will be.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { RefundQuote, Sale } from '../../data/api.ts';
import { formatMoney, formatQuantityMilli, parseQuantityMilli, useI18n } from '../../i18n/index.tsx';
import { Dialog, Message } from '../components/Dialog.tsx';
import { PinInput, ReasonInput } from '../components/inputs.tsx';
import { refusalText } from '../refusal.ts';
import { useStore } from '../store.tsx';

export function ManagerAction({
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
  const { t, language } = useI18n();
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
        setError(refusalText(language, failure));
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
