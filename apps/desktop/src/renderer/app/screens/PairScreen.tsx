/**
 * Pairs this page as a till: from `?pair=CODE` in the address at once, or a
 * code (or the whole pairing URL) typed or pasted here. The desktop app's
 * built-in page is not served by the server, so it also asks for the server.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useI18n } from '../../i18n/index.tsx';
import { Message } from '../components/Dialog.tsx';
import { refusalText } from '../refusal.ts';
import { useStore } from '../store.tsx';
import {
  normaliseServer,
  parsePairingInput,
  rememberServer,
  servedByServer,
  tillServerUrl,
} from '../server-address.ts';

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
  const { t, language } = useI18n();
  const [code, setCode] = useState('');
  const asksServer = !servedByServer();
  const [server, setServer] = useState(() => (asksServer ? tillServerUrl() : ''));
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
        setError(refusalText(language, failure));
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

  const enterCode = (text: string) => {
    const parsed = parsePairingInput(text);
    setCode(parsed.code);
    if (asksServer && parsed.server) setServer(parsed.server);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim().length < 4 || busy) return;
    if (asksServer) {
      const address = normaliseServer(server);
      if (!address) {
        setError(t('serverAddressInvalid'));
        return;
      }
      if (address !== tillServerUrl()) {
        // The store talks to the server it was opened with: remember the new
        // one and reopen, and the code in the address pairs on the way in.
        rememberServer(address);
        location.search = `?pair=${encodeURIComponent(code.trim())}`;
        return;
      }
    }
    pair(code.trim());
  };

  return (
    <section className="centered-card" data-testid="pair-screen">
      <h1>{t('pairTitle')}</h1>
      <p className="lead">{t('pairIntro')}</p>
      <form onSubmit={submit} className="stack">
        {asksServer && (
          <label>
            {t('serverAddress')}
            <input
              className="big-input"
              value={server}
              onChange={(event) => setServer(event.target.value)}
              placeholder="http://192.168.1.10:4000"
              autoComplete="off"
              spellCheck={false}
              inputMode="url"
              data-testid="server-address"
              data-free-text
            />
          </label>
        )}
        <label>
          {t('pairCode')}
          <input
            className="big-input code-input"
            value={code}
            onChange={(event) => enterCode(event.target.value)}
            autoFocus
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={300}
            data-testid="pairing-code"
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
