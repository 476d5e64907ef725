/**
 * Settings: the business (its name, and its receipts' TIN, VRN, lines and
 * language) and the account (who is signed in, a new password, signing every
 * browser out).
 */
import { TextField } from '../components/TextField.tsx';
import { useState, type FormEvent } from 'react';
import { api } from '../api.ts';
import { useAction } from '../action.ts';
import { useI18n } from '../i18n/index.ts';
import { useSession, useSignedIn } from '../session.tsx';
import { Message } from '../shared.ts';
import { Business } from './settings/Business.tsx';

export function Settings() {
  const { t } = useI18n();
  const session = useSignedIn();
  return (
    <div className="page" data-testid="settings">
      <div className="page-head">
        <h1>{t('navSettings')}</h1>
      </div>
      <Business />
      <section className="card stack" aria-labelledby="account">
        <h2 id="account">{t('accountTitle')}</h2>
        <p>{t('signedInAs', { email: session.merchant.email })}</p>
        <ChangePassword />
        <SignOutEverywhere />
      </section>
    </div>
  );
}

function ChangePassword() {
  const { t } = useI18n();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [changed, setChanged] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChanged(null);
    void run(async () => {
      const answer = await api.post<{ sessions_ended: number }>('/v1/merchants/password', {
        current_password: current,
        new_password: next,
      });
      setCurrent('');
      setNext('');
      setChanged(t('passwordChanged', { count: answer.sessions_ended }));
    });
  };
  return (
    <form className="stack" onSubmit={submit} aria-labelledby="change-password">
      <h3 id="change-password">{t('changePassword')}</h3>
      <div className="form-row">
        <TextField
          label={t('currentPassword')}
          value={current}
          onChange={setCurrent}
          type="password"
          autoComplete="current-password"
          required
        />
        <TextField
          label={t('newPassword')}
          value={next}
          onChange={setNext}
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
        />
        <button type="submit" disabled={busy}>
          {t('changePassword')}
        </button>
      </div>
      <Message text={error} />
      <Message kind="ok" text={changed} />
    </form>
  );
}

function SignOutEverywhere() {
  const { t } = useI18n();
  const { signOutEverywhere } = useSession();
  const { busy, error, run } = useAction();
  return (
    <div className="stack">
      <h3>{t('signOutEverywhere')}</h3>
      <p className="muted">{t('signOutEverywhereLead')}</p>
      <div>
        <button
          type="button"
          className="danger"
          disabled={busy}
          data-testid="sign-out-everywhere"
          onClick={() => void run(signOutEverywhere)}
        >
          {t('signOutEverywhere')}
        </button>
      </div>
      <Message text={error} />
    </div>
  );
}
