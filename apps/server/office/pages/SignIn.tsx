/** Sign-in: an email and a password; Enter signs in. The language switch is here too. */
import { TextField } from '../components/TextField.tsx';
import { useState, type FormEvent } from 'react';
import { useAction } from '../action.ts';
import { LanguageButton } from '../components/LanguageButton.tsx';
import { useI18n } from '../i18n/index.ts';
import { useSession } from '../session.tsx';
import { Message } from '../shared.ts';

export function SignIn({ ended }: { ended: boolean }) {
  const { t } = useI18n();
  const { signIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(() => signIn(email, password));
  };
  return (
    <div className="sign-in-page">
      <header className="office-bar">
        <span className="brand">{t('appName')}</span>
        <LanguageButton />
      </header>
      <main className="screen sign-in">
        <form className="card stack" onSubmit={submit} data-testid="sign-in">
          <h1>{t('signInTitle')}</h1>
          <p className="muted">{t('signInLead')}</p>
          {ended && !error && <Message kind="info" text={t('sessionEnded')} />}
          <TextField
            label={t('email')}
            value={email}
            onChange={setEmail}
            type="email"
            name="email"
            autoComplete="username"
            required
            autoFocus
            testId="email"
          />
          <TextField
            label={t('password')}
            value={password}
            onChange={setPassword}
            type="password"
            name="password"
            autoComplete="current-password"
            required
            testId="password"
          />
          <Message text={error} />
          <button type="submit" className="primary big" disabled={busy} data-testid="sign-in-button">
            {busy ? t('signingIn') : t('signIn')}
          </button>
        </form>
      </main>
    </div>
  );
}
