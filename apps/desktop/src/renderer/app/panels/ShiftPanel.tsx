/**
 * Alt+Z: the open shift, pay-ins and pay-outs, a no-sale (the drawer opened
 * with a reason), and closing with the cash counted (then the Z report).
 */
import { useState, type FormEvent } from 'react';
import type { PullDocument } from '@tz/core';
import type { Shift, ZReport } from '../../data/api.ts';
import { formatDateTime, formatMoney, parseAmount, useI18n } from '../../i18n/index.tsx';
import { Dialog, Kbd, Message } from '../components/Dialog.tsx';
import { AmountInput, ReasonInput } from '../components/inputs.tsx';
import { refusalText } from '../refusal.ts';
import { NoSaleDialog } from '../screens/NoSaleDialog.tsx';
import { useObservable, useStore } from '../store.tsx';

export function ShiftPanel({
  onClose,
  onClosed,
}: {
  onClose: () => void;
  onClosed: (report: ZReport) => void;
}) {
  const store = useStore();
  const { t, language } = useI18n();
  // Watched here, while the panel is open: it sums every sale of the shift at each change.
  const shift = useObservable<Shift | null>(store.shift$, null);
  const shop = useObservable<PullDocument<'stores'> | null>(store.store$, null);
  const currency = shop?.currency ?? 'TZS';
  const [kind, setKind] = useState<'pay_in' | 'pay_out'>('pay_in');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [counted, setCounted] = useState('');
  const [message, setMessage] = useState<{ text: string; kind: 'ok' | 'error' } | null>(null);
  const [noSale, setNoSale] = useState(false);
  const movement = parseAmount(amount, currency);
  const countedCash = parseAmount(counted, currency);

  const record = (event: FormEvent) => {
    event.preventDefault();
    if (movement === null || movement <= 0 || reason.trim() === '') return;
    store.cashMovement(kind, movement, reason.trim()).then(
      () => {
        setAmount('');
        setReason('');
        setMessage({ text: kind === 'pay_in' ? t('payInRecorded') : t('payOutRecorded'), kind: 'ok' });
      },
      (failure: unknown) => setMessage({ text: refusalText(language, failure), kind: 'error' }),
    );
  };
  const close = (event: FormEvent) => {
    event.preventDefault();
    if (countedCash === null) return;
    store
      .closeShift(countedCash)
      .then(onClosed, (failure: unknown) =>
        setMessage({ text: refusalText(language, failure), kind: 'error' }),
      );
  };

  if (!shift) return null;
  return (
    <Dialog title={t('shiftTitle')} onClose={onClose} wide testId="shift-panel">
      <p className="muted">
        {t('shiftOpenedAt', { time: formatDateTime(shift.openedAt), name: shift.cashier })}
      </p>
      <dl className="figures">
        <div>
          <dt>{t('openingFloat')}</dt>
          <dd>{formatMoney(shift.openingFloat, currency)}</dd>
        </div>
        <div>
          <dt>{t('payIn')}</dt>
          <dd>{formatMoney(shift.payIns, currency)}</dd>
        </div>
        <div>
          <dt>{t('payOut')}</dt>
          <dd>{formatMoney(shift.payOuts, currency)}</dd>
        </div>
        {shift.deskCash > 0 && (
          <div>
            <dt>{t('deskCash')}</dt>
            <dd data-testid="shift-desk-cash">{formatMoney(shift.deskCash, currency)}</dd>
          </div>
        )}
        <div>
          <dt>{t('noSaleCount')}</dt>
          <dd data-testid="shift-no-sales">{shift.noSales}</dd>
        </div>
        <div className="strong">
          <dt>{t('expectedCash')}</dt>
          <dd>{formatMoney(shift.expectedCash, currency)}</dd>
        </div>
      </dl>
      <div className="columns">
        <form className="stack card" onSubmit={record}>
          <div className="segmented">
            {(['pay_in', 'pay_out'] as const).map((option) => (
              <button
                key={option}
                type="button"
                className={kind === option ? 'on' : ''}
                onClick={() => setKind(option)}
              >
                {option === 'pay_in' ? t('payIn') : t('payOut')}
              </button>
            ))}
          </div>
          <label>
            {t('amount')}
            <AmountInput
              value={amount}
              onChange={setAmount}
              currency={currency}
              className="big-input"
              autoFocus
            />
          </label>
          <label>
            {t('reason')}
            <ReasonInput value={reason} onChange={setReason} />
          </label>
          <button
            type="submit"
            className="big"
            disabled={movement === null || movement <= 0 || reason.trim() === ''}
          >
            {t('record')}
          </button>
        </form>
        <form className="stack card" onSubmit={close}>
          <h3>{t('closeShiftTitle')}</h3>
          <label>
            {t('countedCash')}
            <AmountInput value={counted} onChange={setCounted} currency={currency} className="big-input" />
          </label>
          <button type="submit" className="danger big" disabled={countedCash === null}>
            {t('closeShift')}
          </button>
        </form>
      </div>
      <button type="button" className="big" onClick={() => setNoSale(true)} data-testid="shift-no-sale">
        {t('noSale')} <Kbd>Alt+N</Kbd>
      </button>
      {message && <Message text={message.text} kind={message.kind} />}
      {noSale && <NoSaleDialog onClose={() => setNoSale(false)} />}
    </Dialog>
  );
}

export function ZReportDialog({ report, onClose }: { report: ZReport; onClose: () => void }) {
  const { t } = useI18n();
  const money = (amount: number) => formatMoney(amount, report.currency);
  const sales: Array<[string, string]> = [
    [t('zSales', { count: report.sales.count }), money(report.sales.total)],
    [t('cash'), money(report.byMethod.cash)],
    [t('mobileMoney'), money(report.byMethod.mobile_money)],
    [t('card'), money(report.byMethod.card)],
    [t('zRefunds', { count: report.refunds.count }), money(report.refunds.total)],
    [t('zVoids'), String(report.voids)],
    [t('noSaleCount'), String(report.noSales)],
  ];
  const drawer: Array<[string, string]> = [
    [t('openingFloat'), money(report.openingFloat)],
    [t('payIn'), money(report.payIns)],
    [t('payOut'), money(report.payOuts)],
    ...(report.deskCash > 0 ? [[t('deskCash'), money(report.deskCash)] as [string, string]] : []),
    [t('expectedCash'), money(report.expectedCash)],
    [t('countedCash'), money(report.countedCash)],
    [t('zDifference'), money(report.difference)],
  ];
  const figures = (rows: Array<[string, string]>, last = '') => (
    <dl className="figures z">
      {rows.map(([label, value], index) => (
        <div key={label} className={index === rows.length - 1 ? last : ''}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
  return (
    <Dialog title={t('zReport')} onClose={onClose} wide testId="z-report">
      <p className="muted">
        {report.cashier} · {formatDateTime(report.openedAt)} – {formatDateTime(report.closedAt)}
      </p>
      <div className="columns z-columns">
        <section>
          {figures(sales)}
          {report.cashiers.length > 0 && (
            <>
              <h3 className="z-heading">{t('zByCashier')}</h3>
              {figures(
                report.cashiers.flatMap((part): Array<[string, string]> => [
                  [t('zCashierSales', { name: part.name, count: part.count }), money(part.sales)],
                  ...(part.noSales > 0
                    ? [[t('zCashierNoSales', { name: part.name }), String(part.noSales)] as [string, string]]
                    : []),
                ]),
              )}
            </>
          )}
        </section>
        <section>
          <h3 className="z-heading">{t('zDrawer')}</h3>
          {figures(drawer, report.difference < 0 ? 'bad strong' : 'strong')}
        </section>
      </div>
      <button type="button" className="primary big" onClick={onClose} autoFocus>
        {t('done')}
      </button>
    </Dialog>
  );
}
