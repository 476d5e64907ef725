/** The cashier's PIN, typed and ended with Enter (or tapped on the keypad). */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { TillIdentity } from '../../data/api.ts';
import { useI18n } from '../../i18n/index.tsx';
import { Message } from '../components/Dialog.tsx';
import { PinInput } from '../components/inputs.tsx';
import { refusalCode, refusalText } from '../refusal.ts';
import { useStore } from '../store.tsx';

const KEYPAD = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'clear', '0', 'enter'] as const;

export function SignInScreen({ till }: { till: TillIdentity }) {
  const store = useStore();
  const { t, language } = useI18n();
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);

  // Whatever was clicked, typing goes to the PIN.
  useEffect(() => {
    const refocus = () => setTimeout(() => field.current?.focus(), 0);
    window.addEventListener('pointerup', refocus);
    return () => window.removeEventListener('pointerup', refocus);
  }, []);

  const signIn = (value: string) => {
    if (value.length < 4 || busy) return;
    setBusy(true);
    setError(null);
    store.signIn(value).then(
      () => setBusy(false),
      (failure: unknown) => {
        setBusy(false);
        setPin('');
        // A locked sign-in still takes a manager's PIN, which unlocks it.
        const text = refusalText(language, failure);
        setError(refusalCode(failure) === 'pin_locked' ? `${text} ${t('managerUnlocks')}` : text);
      },
    );
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn(pin);
  };
  const press = (key: (typeof KEYPAD)[number]) => {
    if (key === 'clear') setPin('');
    else if (key === 'enter') signIn(pin);
    else setPin((current) => (current + key).slice(0, 6));
  };

  return (
    <section className="centered-card sign-in" data-testid="sign-in-screen">
      <h1>{t('signInTitle')}</h1>
      <p className="lead">
        {till.name} · {t('signInPrompt')}
      </p>
      <form onSubmit={submit} className="stack">
        <label>
          {t('pin')}
          <PinInput
            ref={field}
            value={pin}
            onChange={setPin}
            autoFocus
            // Read-only, not disabled, while the PIN is checked: a disabled field loses the focus,
            // and the next PIN typed after a refusal would go nowhere.
            readOnly={busy}
            aria-label={t('pin')}
          />
        </label>
        <Message text={error} />
        <div className="keypad">
          {KEYPAD.map((key) => (
            <button
              key={key}
              type="button"
              className={key === 'enter' ? 'primary' : ''}
              onClick={() => press(key)}
              disabled={busy}
            >
              {key === 'clear' ? t('clear') : key === 'enter' ? t('signIn') : key}
            </button>
          ))}
        </div>
      </form>
    </section>
  );
}
