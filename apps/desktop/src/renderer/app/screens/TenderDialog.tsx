/**
 * F10: take payment. Cash (amount given, change due, with quick-cash buttons
 * for the exact amount and the next round sums), mobile money (a USSD push to
 * the customer's phone; the dialog waits for `paid`; online only), card and,
 * on a till with the front desk, charge to a guest's room, one after another
 * for a split tender. The sale completes when what was
 * taken covers the total.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent as KeyEvent } from 'react';
import { isCurrency, quickCashAmounts, type TillPayment } from '@tz/core';
import type { Cart, CompletedSale, PrintState, SyncStatus, TenderEntry } from '../../data/api.ts';
import { formatMoney, useI18n } from '../../i18n/index.tsx';
import { Dialog, Kbd, Message } from '../components/Dialog.tsx';
import { AmountInput } from '../components/inputs.tsx';
import { DigitalReceipt } from './DigitalReceipt.tsx';
import { RoomChargeForm } from './RoomChargeForm.tsx';
import { PartAmount, partAmount, type TenderFormProps } from './TenderParts.tsx';
import { useShortcuts } from '../keyboard/shortcuts.ts';
import { refusalText } from '../refusal.ts';
import { useObservable, useStore } from '../store.tsx';

type Method = TenderEntry['method'];
const METHODS: Method[] = ['cash', 'mobile_money', 'card', 'room'];

export function TenderDialog({
  cart,
  onClose,
  onCompleted,
  sell,
}: {
  /** What is due: the cart's total, or the box office's tickets'. */
  cart: Pick<Cart['priced'], 'total' | 'currency'>;
  onClose: () => void;
  onCompleted: (completed: CompletedSale) => void;
  /** Completes with the tenders taken: the cart's sale unless given (the box office's tickets); no room charge then. */
  sell?: (tenders: TenderEntry[]) => Promise<CompletedSale>;
}) {
  const store = useStore();
  const { t, language } = useI18n();
  const sync = useObservable<SyncStatus | null>(store.sync$, null);
  const hasDesk = useObservable<boolean>(store.hasDesk$, false) && sell === undefined;
  const methods = hasDesk ? METHODS : METHODS.filter((m) => m !== 'room');
  const currency = cart.currency;
  const due = cart.total;
  const [entries, setEntries] = useState<TenderEntry[]>([]);
  const [method, setMethod] = useState<Method>('cash');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const paid = entries.reduce((sum, entry) => sum + entry.amount, 0);
  const remaining = Math.max(0, due - paid);
  const online = sync?.connection === 'online' && !sync.revoked;

  const complete = (all: TenderEntry[]) => {
    setBusy(true);
    setError(null);
    (sell ?? ((taken: TenderEntry[]) => store.completeSale(taken)))(all).then(
      onCompleted,
      (failure: unknown) => {
        setBusy(false);
        setError(refusalText(language, failure));
      },
    );
  };
  const take = (entry: TenderEntry) => {
    const all = [...entries, entry];
    if (all.reduce((sum, one) => sum + one.amount, 0) >= due) complete(all);
    else setEntries(all);
  };
  const formProps: TenderFormProps = { remaining, currency, busy, onTake: take };
  const label = (m: Method) =>
    ({ cash: t('cash'), mobile_money: t('mobileMoney'), card: t('card'), room: t('roomCharge') })[m];

  return (
    <Dialog title={t('tenderTitle')} onClose={busy ? () => undefined : onClose} wide testId="tender-dialog">
      <div className="tender">
        <dl className="tender-sums">
          <div>
            <dt>{t('due')}</dt>
            <dd>{formatMoney(due, currency)}</dd>
          </div>
          <div>
            <dt>{t('paidSoFar')}</dt>
            <dd>{formatMoney(paid, currency)}</dd>
          </div>
          <div className="remaining">
            <dt>{t('remaining')}</dt>
            <dd data-testid="remaining">{formatMoney(remaining, currency)}</dd>
          </div>
        </dl>
        {entries.length > 0 && (
          <ul className="tender-entries">
            {entries.map((entry, index) => (
              <li key={index}>
                <span>
                  {label(entry.method)}
                  {entry.method === 'room' && ` · ${entry.room}`}
                </span>
                <strong>{formatMoney(entry.amount, currency)}</strong>
                {entry.method !== 'mobile_money' && (
                  <button
                    type="button"
                    className="ghost"
                    onClick={() => setEntries(entries.filter((_, i) => i !== index))}
                  >
                    {t('removeTender')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <div className="segmented" role="tablist">
          {methods.map((m, index) => (
            <button
              key={m}
              type="button"
              role="tab"
              aria-selected={method === m}
              className={method === m ? 'on' : ''}
              onClick={() => setMethod(m)}
            >
              {label(m)} <Kbd>Alt+{index + 1}</Kbd>
            </button>
          ))}
        </div>
        <MethodKeys hasDesk={hasDesk} onPick={(index) => setMethod(methods[index] ?? method)} />
        {method === 'cash' && <CashForm key={entries.length} {...formProps} />}
        {method === 'mobile_money' && <MobileMoneyForm key={entries.length} {...formProps} online={online} />}
        {method === 'card' && <CardForm key={entries.length} {...formProps} />}
        {method === 'room' && hasDesk && <RoomChargeForm key={entries.length} {...formProps} />}
        <Message text={error} />
      </div>
    </Dialog>
  );
}

/** Alt+1/2/3 pick cash, mobile money, card; Alt+4 charge to room on a till with the front desk. */
function MethodKeys({ hasDesk, onPick }: { hasDesk: boolean; onPick: (index: number) => void }) {
  useShortcuts('tender', true, () => ({ hasDesk }), {
    cash: () => onPick(0),
    mobileMoney: () => onPick(1),
    card: () => onPick(2),
    roomCharge: () => onPick(3),
  });
  return null;
}

function CashForm({ remaining, currency, busy, onTake }: TenderFormProps) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const field = useRef<HTMLInputElement>(null);
  const given = partAmount(text, remaining, currency);
  const change = given !== null && given > remaining ? given - remaining : 0;
  const quick = isCurrency(currency) ? quickCashAmounts(remaining, currency) : [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (given !== null && given > 0) onTake({ method: 'cash', amount: given });
  };
  // A button fills the amount given; focus goes back to the field, so Enter then takes it.
  const fill = (amount: number) => {
    setText(String(amount));
    field.current?.focus();
  };
  // ↑ ↓ in the field step through the quick-cash amounts: ↓ to the next larger, ↑ back.
  const step = (event: KeyEvent<HTMLInputElement>) => {
    if ((event.key !== 'ArrowDown' && event.key !== 'ArrowUp') || quick.length === 0) return;
    event.preventDefault();
    const current = text.trim() === '' ? null : given;
    const next =
      event.key === 'ArrowDown'
        ? (quick.find((amount) => current === null || amount > current) ?? quick.at(-1)!)
        : ([...quick].reverse().find((amount) => current !== null && amount < current) ?? quick[0]!);
    setText(String(next));
  };
  return (
    <form className="stack" onSubmit={submit}>
      <label>
        {t('amountGiven')}
        <AmountInput
          ref={field}
          value={text}
          onChange={setText}
          onKeyDown={step}
          currency={currency}
          placeholder={formatMoney(remaining, currency).replace(`${currency} `, '')}
          className="big-input"
          autoFocus
          data-testid="cash-given"
        />
      </label>
      {quick.length > 0 && (
        <div className="quick-cash" role="group" aria-label={t('quickCash')} data-testid="quick-cash">
          {quick.map((amount, index) => (
            <button
              key={amount}
              type="button"
              className={text !== '' && given === amount ? 'on' : ''}
              aria-pressed={text !== '' && given === amount}
              onClick={() => fill(amount)}
              disabled={busy}
            >
              {index === 0 ? <small>{t('quickCashExact')}</small> : null}
              {formatMoney(amount, currency).replace(`${currency} `, '')}
            </button>
          ))}
        </div>
      )}
      <p className="change-line">
        {t('changeDue')}: <strong data-testid="change-preview">{formatMoney(change, currency)}</strong>
      </p>
      <button type="submit" className="primary huge" disabled={busy || given === null || given <= 0}>
        {given !== null && given >= remaining ? t('completeSale') : t('addTender')} <Kbd>Enter</Kbd>
      </button>
    </form>
  );
}

function CardForm({ remaining, currency, busy, onTake }: TenderFormProps) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const [reference, setReference] = useState('');
  const amount = partAmount(text, remaining, currency);
  const valid = amount !== null && amount > 0 && amount <= remaining && reference.trim() !== '';
  return (
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) onTake({ method: 'card', amount, reference: reference.trim() });
      }}
    >
      <PartAmount text={text} onChange={setText} remaining={remaining} currency={currency} />
      <label>
        {t('cardReference')}
        <input
          className="big-input"
          value={reference}
          onChange={(e) => setReference(e.target.value)}
          autoFocus
          data-free-text
        />
      </label>
      <button type="submit" className="primary huge" disabled={busy || !valid}>
        {t('addTender')}
      </button>
    </form>
  );
}

function MobileMoneyForm({ remaining, currency, online, onTake }: TenderFormProps & { online: boolean }) {
  const store = useStore();
  const { t, language } = useI18n();
  const [phone, setPhone] = useState('');
  const [text, setText] = useState('');
  const [payment, setPayment] = useState<TillPayment | null>(null);
  const [error, setError] = useState<string | null>(null);
  const watching = useRef<{ unsubscribe(): void } | null>(null);
  useEffect(() => () => watching.current?.unsubscribe(), []);
  const amount = partAmount(text, remaining, currency);
  const waiting = payment?.status === 'pending';

  if (!online && !waiting) {
    return (
      <p className="message error" role="alert" data-testid="mobile-money-offline">
        {t('mobileMoneyOffline')}
      </p>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (amount === null || amount <= 0 || amount > remaining || phone.trim() === '') return;
    setError(null);
    store.startMobileMoney({ amount, phone: phone.trim() }).then(
      (updates) => {
        watching.current = updates.subscribe({
          next: (update) => {
            setPayment(update);
            if (update.status === 'paid') {
              watching.current?.unsubscribe();
              onTake({ method: 'mobile_money', payment: update.id, amount: update.amount });
            }
          },
          error: (failure: unknown) => setError(refusalText(language, failure)),
        });
      },
      (failure: unknown) => setError(refusalText(language, failure)),
    );
  };
  return (
    <form className="stack" onSubmit={submit}>
      <label>
        {t('phone')}
        <input
          className="big-input"
          type="tel"
          inputMode="tel"
          value={phone}
          onChange={(event) => setPhone(event.target.value)}
          placeholder="07XX XXX XXX"
          autoFocus
          disabled={waiting}
        />
      </label>
      <PartAmount
        text={text}
        onChange={setText}
        remaining={remaining}
        currency={currency}
        disabled={waiting}
      />
      {waiting ? (
        <p className="waiting" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('waitingForPayment', { phone: payment.phone })}
        </p>
      ) : (
        <button type="submit" className="primary huge" disabled={amount === null || phone.trim() === ''}>
          {t('sendPush')}
        </button>
      )}
      {payment?.status === 'failed' && (
        <Message text={t('paymentFailed', { reason: payment.failure_code ?? payment.status })} />
      )}
      <Message text={error} />
    </form>
  );
}

/** After a sale: the change to give (large), the receipt number and how printing went. */
export function SaleDoneDialog({ completed, onClose }: { completed: CompletedSale; onClose: () => void }) {
  const store = useStore();
  const { t } = useI18n();
  const print = useObservable<PrintState>(store.lastPrint$, { status: 'idle' });
  const { sale, change } = completed;
  return (
    <Dialog title={t('saleComplete')} onClose={onClose} testId="sale-done">
      <form
        className="stack done"
        onSubmit={(event) => {
          event.preventDefault();
          onClose();
        }}
      >
        <p className="receipt-number">{t('receiptNumber', { number: sale.receiptNumber })}</p>
        <div className={change > 0 ? 'change-box give' : 'change-box'}>
          <span>{t('changeDue')}</span>
          <strong data-testid="change-due">{formatMoney(change, sale.currency)}</strong>
        </div>
        {print.status === 'failed' && (
          <Message
            text={`${t('printFailed', { number: print.receiptNumber, message: print.outcome.message })}${
              print.outcome.mayHaveReachedPrinter ? ` ${t('printMayHaveReached')}` : ''
            }`}
          />
        )}
        {print.status === 'printed' && (
          <Message kind="ok" text={t('printed', { number: print.receiptNumber })} />
        )}
        {print.status === 'no_printer' && (
          <Message kind="info" text={t('noPrinterForReceipt', { number: print.receiptNumber })} />
        )}
        <button type="submit" className="primary huge">
          {t('newSale')} <Kbd>Enter</Kbd>
        </button>
        <button type="button" className="big" onClick={() => void store.reprintLast()}>
          {t('reprintLast')} <Kbd>Alt+R</Kbd>
        </button>
        <DigitalReceipt completed={completed} />
      </form>
    </Dialog>
  );
}
