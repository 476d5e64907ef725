/**
 * Alt+N (or the shift panel): open the cash drawer with no sale. The cashier
 * picks a reason or types one; the no-sale is recorded in the shift, then the
 * drawer is kicked through the receipt printer. Where the till's setting asks
 * for it, a cashier (not a manager) gives a manager's PIN too. The dialog says
 * whether the drawer opened: it is recorded either way.
 */
import { useRef, useState, type FormEvent } from 'react';
import type { Cashier, NoSaleOutcome, TillSettings } from '../../data/api.ts';
import type { MessageKey } from '../../i18n/en.ts';
import { useI18n } from '../../i18n/index.tsx';
import { Dialog, Kbd, Message } from '../components/Dialog.tsx';
import { PinInput, ReasonInput } from '../components/inputs.tsx';
import { refusalText } from '../refusal.ts';
import { useObservable, useStore } from '../store.tsx';

const REASONS: MessageKey[] = [
  'noSaleReasonChange',
  'noSaleReasonSwap',
  'noSaleReasonFloat',
  'noSaleReasonMistake',
];

export function NoSaleDialog({ onClose }: { onClose: () => void }) {
  const store = useStore();
  const { t, language } = useI18n();
  const settings = useObservable<TillSettings | null>(store.settings$, null);
  const cashier = useObservable<Cashier | null>(store.cashier$, null);
  const [reason, setReason] = useState('');
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<NoSaleOutcome | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const needsManager = settings?.noSaleNeedsManager === true && cashier?.role !== 'manager';
  const ready = reason.trim() !== '' && (!needsManager || pin.length >= 4) && !busy;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    setBusy(true);
    setError(null);
    store.noSale({ reason: reason.trim(), ...(needsManager ? { managerPin: pin } : {}) }).then(
      (done) => {
        setBusy(false);
        setOutcome(done);
      },
      (failure: unknown) => {
        setBusy(false);
        setPin('');
        setError(refusalText(language, failure));
      },
    );
  };

  if (outcome) {
    return (
      <Dialog title={t('noSaleTitle')} onClose={onClose} testId="no-sale">
        <form
          className="stack"
          onSubmit={(event) => {
            event.preventDefault();
            onClose();
          }}
        >
          {outcome.drawer === 'opened' && <Message kind="ok" text={t('noSaleOpened')} />}
          {outcome.drawer === 'no_printer' && <Message text={t('noSaleNoPrinter')} />}
          {outcome.drawer === 'failed' && <Message text={t('noSaleFailed', { message: outcome.message })} />}
          <button type="submit" className="primary big" autoFocus>
            {t('done')} <Kbd>Enter</Kbd>
          </button>
        </form>
      </Dialog>
    );
  }
  return (
    <Dialog title={t('noSaleTitle')} onClose={onClose} testId="no-sale">
      <form className="stack" onSubmit={submit} ref={form}>
        <p className="muted">{t('noSaleIntro')}</p>
        <div className="reason-choices" role="group" aria-label={t('reason')}>
          {REASONS.map((key) => (
            <button
              key={key}
              type="button"
              className={reason === t(key) ? 'on' : ''}
              aria-pressed={reason === t(key)}
              onClick={() => {
                setReason(t(key));
                // Back to the reason (or the manager's PIN), so Enter then opens the drawer.
                form.current
                  ?.querySelector<HTMLInputElement>(needsManager ? 'input[type=password]' : 'input')
                  ?.focus();
              }}
            >
              {t(key)}
            </button>
          ))}
        </div>
        <label>
          {t('reason')}
          <ReasonInput value={reason} onChange={setReason} />
        </label>
        {needsManager && (
          <>
            <p className="muted">{t('noSaleManagerNeeded')}</p>
            <label>
              {t('managerPin')}
              <PinInput value={pin} onChange={setPin} />
            </label>
          </>
        )}
        <button type="submit" className="primary big" disabled={!ready}>
          {t('noSaleOpen')} <Kbd>Enter</Kbd>
        </button>
        <Message text={error} />
      </form>
    </Dialog>
  );
}
