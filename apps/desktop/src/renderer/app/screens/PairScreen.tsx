/** Pairs this page as a till: from `?pair=CODE` in the address at once, or a code typed here. */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useI18n } from '../../i18n/index.tsx';
import { Message } from '../components/Dialog.tsx';
import { refusalText } from '../refusal.ts';
import { useStore } from '../store.tsx';

/** The code from the pairing URL, removed from the address so a reload does not try it again. */
function takeCodeFromAddress(): string | null {
  const url = new URL(location.href);
  const code = url.searchParams.get('pair');
  if (code === null) return null;
  url.searchParams.delete('pair');
  history.replaceState(null, '', url.pathname + url.search + url.hash);
  return code.trim();
}

export function PairScreen() {
  const store = useStore();
  const { t } = useI18n();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const tried = useRef(false);

  const pair = (value: string) => {
    setBusy(true);
    setError(null);
    store.pair(value).then(
      () => setBusy(false),
      (failure: unknown) => {
        setBusy(false);
        setError(refusalText(t, failure));
      },
    );
  };

  useEffect(() => {
    if (tried.current) return;
    tried.current = true;
    const fromAddress = takeCodeFromAddress();
    if (fromAddress) {
      setCode(fromAddress);
      pair(fromAddress);
    }
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim().length >= 4 && !busy) pair(code.trim());
  };

  return (
    <section className="centered-card" data-testid="pair-screen">
      <h1>{t('pairTitle')}</h1>
      <p className="lead">{t('pairIntro')}</p>
      <form onSubmit={submit} className="stack">
        <label>
          {t('pairCode')}
          <input
            className="big-input code-input"
            value={code}
            onChange={(event) => setCode(event.target.value.toUpperCase())}
            autoFocus
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={32}
            data-free-text
          />
        </label>
        <button type="submit" className="primary big" disabled={busy || code.trim().length < 4}>
          {busy ? t('pairing') : t('pairButton')}
        </button>
        <Message text={error} />
      </form>
    </section>
  );
}
