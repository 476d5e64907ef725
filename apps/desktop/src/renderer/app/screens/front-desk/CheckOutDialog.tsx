/**
 * F4 at the desk: a guest leaves. The balance is what the desk knows now (the
 * server's folio, the nights due since, less payments not yet synced); cash
 * taken for it is filled in. A balance left other than zero needs a manager's
 * PIN and a reason, as the no-sale's approval does. The folio slip prints.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { deskCurrencies, foreignWithin, shillingsOf } from '@tz/core';
import type { Cashier, DeskStay, DeskView } from '../../../data/api.ts';
import { formatMoney, useI18n } from '../../../i18n/index.tsx';
import type { MessageKey } from '../../../i18n/en.ts';
import { Dialog, Message } from '../../components/Dialog.tsx';
import { PinInput, ReasonInput } from '../../components/inputs.tsx';
import { useNotify } from '../../notices.tsx';
import { refusalText } from '../../refusal.ts';
import { stayWhen } from './stay-when.ts';
import { useObservable, useStore } from '../../store.tsx';
import { cashTaken, DeskCashFields, NO_CASH, typedAmount, type CashTyped } from './DeskCashFields.tsx';

export function CheckOutDialog({
  view,
  stay,
  onClose,
}: {
  view: DeskView;
  stay: DeskStay;
  onClose: () => void;
}) {
  const store = useStore();
  const { t, language } = useI18n();
  const notify = useNotify();
  const cashier = useObservable<Cashier | null>(store.cashier$, null);
  const [balance, setBalance] = useState<number | null>(null);
  const [cash, setCash] = useState<CashTyped>(NO_CASH);
  const [reason, setReason] = useState('');
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    store.balanceOf(stay.id).then(
      (owed) => {
        setBalance(owed);
        setCash({ ...NO_CASH, shillings: owed > 0 ? String(owed) : '' });
      },
      (failure: unknown) => setError(refusalText(language, failure)),
    );
  }, [stay.id]);

  const accepted = deskCurrencies(view.property);
  const taken = cashTaken(cash, accepted);
  const left = balance === null || taken === null ? null : balance - taken.worth;
  // Another currency chosen: the most of it within the balance, the few shillings it cannot make up besides.
  const inCurrency = (currency: string): CashTyped => {
    const owed = Math.max(balance ?? 0, 0);
    const rate = accepted.find((one) => one.currency === currency);
    if (!rate) return { ...NO_CASH, shillings: owed > 0 ? String(owed) : '' };
    const amount = foreignWithin(owed, rate);
    const rest = owed - (amount === 0 ? 0 : shillingsOf({ ...rate, amount }));
    return { currency, foreign: typedAmount(amount, currency), shillings: rest > 0 ? String(rest) : '' };
  };
  const needsOverride = left !== null && left !== 0;
  const needsPin = needsOverride && cashier?.role !== 'manager';
  const ready =
    left !== null &&
    taken !== null &&
    taken.worth <= Math.max(balance ?? 0, 0) &&
    (!needsOverride || reason.trim() !== '') &&
    (!needsPin || pin.length >= 4) &&
    !busy;
  const roomNumber = view.floors.flatMap((floor) => floor.rooms).find((one) => one.id === stay.room)?.number;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    setBusy(true);
    store
      .checkOut({
        reservation: stay.id,
        ...(taken?.shillings ? { cash: taken.shillings } : {}),
        ...(taken?.foreign ? { foreign: taken.foreign } : {}),
        ...(needsOverride ? { reason: reason.trim(), ...(needsPin ? { managerPin: pin } : {}) } : {}),
      })
      .then(
        (done) => {
          notify(t('deskCheckedOut', { guest: stay.guestName }), 'info');
          const slip: MessageKey =
            done.print === 'printed'
              ? 'deskFolioPrinted'
              : done.print === 'no_printer'
                ? 'deskFolioNoPrinter'
                : 'deskFolioFailed';
          notify(t(slip), done.print === 'printed' ? 'info' : 'error');
          onClose();
        },
        (failure: unknown) => {
          setBusy(false);
          setPin('');
          setError(refusalText(language, failure));
        },
      );
  };

  return (
    <Dialog title={`${t('deskCheckOut')}: ${stay.guestName}`} onClose={onClose} testId="check-out">
      <form className="stack" onSubmit={submit}>
        <p className="muted">
          {roomNumber ? t('deskRoomNumber', { room: roomNumber }) : t('deskNoRoom')} · {stayWhen(t, stay)}
        </p>
        <p className="echo" data-testid="check-out-balance">
          {t('deskBalance')}: {balance === null ? '…' : formatMoney(balance, 'TZS')}
        </p>
        {balance !== null && balance > 0 && (
          <DeskCashFields
            property={view.property}
            label={t('deskCashTaken')}
            value={cash}
            onChange={setCash}
            onCurrency={inCurrency}
            autoFocus
            testId="check-out-cash"
          />
        )}
        {needsOverride && (
          <>
            <Message kind="info" text={t('deskOverrideNeeded')} />
            <p data-testid="check-out-left">
              {left !== null && left < 0
                ? `${t('deskBalanceOwedBack')}: ${formatMoney(-left, 'TZS')}`
                : `${t('deskBalance')}: ${formatMoney(left ?? 0, 'TZS')}`}
            </p>
            <label>
              {t('reason')}
              <ReasonInput value={reason} onChange={setReason} />
            </label>
            {needsPin && (
              <label>
                {t('managerPin')}
                <PinInput
                  value={pin}
                  onChange={setPin}
                  aria-label={t('managerPin')}
                  data-testid="check-out-pin"
                />
              </label>
            )}
          </>
        )}
        <button type="submit" className="primary big" disabled={!ready} data-testid="check-out-confirm">
          {t('deskCheckOut')}
        </button>
        <Message text={error} />
      </form>
    </Dialog>
  );
}
