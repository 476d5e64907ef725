/**
 * One sale opened from the Sales list: its lines (quantity or weight, price,
 * discounts), totals, tenders, cashier and where it stands; and what can be
 * done to it: reprint its receipt, refund or void it (a manager's PIN).
 */
import { useState } from 'react';
import type { PrintOutcome } from '../../../shared/bridge.ts';
import type { Sale } from '../../data/api.ts';
import type { Translate } from '../../i18n/format.ts';
import { formatDateTime, formatMoney, useI18n } from '../../i18n/index.tsx';
import { orderFlagsText } from '../../i18n/code-words.ts';
import { Dialog, Message, ServerRefusal } from '../components/Dialog.tsx';
import { refusalText } from '../refusal.ts';
import { useStore } from '../store.tsx';
import { ManagerAction } from './ManagerAction.tsx';

/** Where a sale stands: sent or not, voided, refunded in part or in full. */
export function SaleBadges({ sale }: { sale: Sale }) {
  const { t } = useI18n();
  const refunded = formatMoney(sale.refundedAmount, sale.currency);
  return (
    <>
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
      {!sale.voided && sale.refundedAmount > 0 && (
        <span className="badge refunded">
          {sale.refundedAmount >= sale.total
            ? t('refunded', { amount: refunded })
            : t('partlyRefunded', { amount: refunded })}
        </span>
      )}
    </>
  );
}

type Note = { text: string; kind: 'ok' | 'error' };

function printNote(t: Translate, number: string, outcome: PrintOutcome | null): Note {
  if (outcome === null) return { text: t('noPrinterForReceipt', { number }), kind: 'error' };
  if (outcome.ok) return { text: t('printed', { number }), kind: 'ok' };
  return { text: t('printFailed', { number, message: outcome.message }), kind: 'error' };
}

export function SaleDetail({ sale, onClose }: { sale: Sale; onClose: () => void }) {
  const store = useStore();
  const { t, language } = useI18n();
  const [acting, setActing] = useState<'refund' | 'void' | null>(null);
  const [note, setNote] = useState<Note | null>(null);
  const receipt = sale.receipt;
  const currency = sale.currency || receipt.currency;
  const money = (amount: number) => formatMoney(amount, currency);
  const canRefund = !sale.voided && sale.status !== 'refused' && sale.refundedAmount < sale.total;
  const reprint = () => {
    setNote(null);
    store.reprintSale(sale.clientOrderId).then(
      (outcome) => setNote(printNote(t, sale.receiptNumber, outcome)),
      (failure: unknown) => setNote({ text: refusalText(language, failure), kind: 'error' }),
    );
  };
  return (
    <Dialog
      title={t('receiptNumber', { number: sale.receiptNumber })}
      onClose={onClose}
      wide
      testId="sale-detail"
    >
      <div className="sale-detail">
        {/* Focus starts here, not on a button: an Enter more than the one that opened the sale prints nothing. */}
        <section className="sale-lines-box" tabIndex={0} aria-label={t('saleLines')}>
          <ul className="sale-lines" data-testid="sale-lines">
            {receipt.lines.map((line, index) => (
              <li key={index}>
                <span className="line-name">{line.description}</span>
                <span className="line-qty">
                  {line.quantityText} × {money(line.unitPrice)}
                </span>
                <span className="line-total">{money(line.total)}</span>
                {line.discount && (
                  <span className="line-discount">
                    {line.discount.label} −{money(line.discount.amount)}
                  </span>
                )}
              </li>
            ))}
          </ul>
          <dl className="sale-sums">
            {receipt.orderDiscount && (
              <>
                <dt>{t('subtotal')}</dt>
                <dd>{money(receipt.subtotal)}</dd>
                <dt>{receipt.orderDiscount.label}</dt>
                <dd>−{money(receipt.orderDiscount.amount)}</dd>
              </>
            )}
            <dt className="strong">{t('total')}</dt>
            <dd className="strong" data-testid="sale-total">
              {money(sale.total)}
            </dd>
          </dl>
        </section>
        <div className="stack">
          <p className="sale-facts">
            <span>{formatDateTime(sale.soldAt)}</span>
            {sale.cashierName && (
              <span>
                {t('saleCashier')}: {sale.cashierName}
              </span>
            )}
            {receipt.customer && (
              <span>
                {t('saleCustomer')}: {receipt.customer}
              </span>
            )}
          </p>
          <div className="sale-badges">
            <SaleBadges sale={sale} />
          </div>
          {receipt.tenders.length > 0 && (
            <dl className="sale-sums" data-testid="sale-tenders">
              <dt className="muted">{t('salePaidWith')}</dt>
              <dd />
              {receipt.tenders.map((tender, index) => (
                <TenderRow key={index} label={tender.label} reference={tender.reference}>
                  {money(tender.amount)}
                </TenderRow>
              ))}
              {receipt.change > 0 && (
                <>
                  <dt>{t('saleChange')}</dt>
                  <dd>{money(receipt.change)}</dd>
                </>
              )}
            </dl>
          )}
          {sale.refusal && <ServerRefusal refusal={sale.refusal} />}
          {sale.flags.length > 0 && (
            <p className="muted">
              {t('flags')}: {orderFlagsText(language, sale.flags)}
            </p>
          )}
          <div className="sale-actions">
            <button type="button" onClick={reprint} data-testid="reprint-sale">
              {t('reprint')}
            </button>
            {canRefund && (
              <button type="button" onClick={() => setActing('refund')}>
                {t('refund')}
              </button>
            )}
            {canRefund && sale.refundedAmount === 0 && (
              <button type="button" className="outline-danger" onClick={() => setActing('void')}>
                {t('voidSale')}
              </button>
            )}
          </div>
          <Message text={note?.text ?? null} kind={note?.kind ?? 'ok'} />
        </div>
      </div>
      {acting && (
        <ManagerAction
          sale={sale}
          action={acting}
          onClose={() => setActing(null)}
          onDone={(message) => {
            setActing(null);
            setNote({ text: message, kind: 'ok' });
          }}
        />
      )}
    </Dialog>
  );
}

function TenderRow({
  label,
  reference,
  children,
}: {
  label: string;
  reference: string | undefined;
  children: string;
}) {
  return (
    <>
      <dt>
        {label}
        {reference && <small className="muted"> {reference}</small>}
      </dt>
      <dd>{children}</dd>
    </>
  );
}
