/**
 * API keys of the session's mode: creating, rolling (the old key stops now or
 * after a day) and revoking. A new key's secret is shown once, in the
 * secret's dialog; the list shows every key masked.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { Actions } from '../../components/Actions.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { Facts } from '../../components/Facts.tsx';
import { SecretDialog } from '../../components/SecretDialog.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { TextField } from '../../components/TextField.tsx';
import type { ErrorWords } from '../../errors.ts';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { useSignedIn } from '../../session.tsx';
import { formatDateTime, Message, Segmented } from '../../shared.ts';

export interface ApiKey {
  id: string;
  type: 'secret' | 'publishable';
  mode: 'test' | 'live';
  key: string;
  name: string | null;
  status: 'active' | 'expiring' | 'revoked';
  created: number;
  expires_at: number | null;
}

const TYPE_WORDS: Record<ApiKey['type'], MessageKey> = { secret: 'keySecret', publishable: 'keyPublishable' };
const STATUS_WORDS: Record<ApiKey['status'], MessageKey> = {
  active: 'keyActive',
  expiring: 'keyExpiring',
  revoked: 'keyRevoked',
};
const WORDS: ErrorWords = { codes: { api_key_last: 'keyLastError' }, fields: { name: 'fieldName' } };

export function ApiKeys() {
  const { t } = useI18n();
  const session = useSignedIn();
  const list = useCursorList<ApiKey>('/v1/api-keys', { mode: session.mode });
  const [shown, setShown] = useState<ApiKey | null>(null);
  const [rolling, setRolling] = useState<ApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const created = (key: ApiKey) => {
    setRolling(null);
    setShown(key);
    list.reload();
  };
  return (
    <section className="stack" aria-labelledby="keys-title" data-testid="api-keys">
      <h2 id="keys-title">{t('keysTitle')}</h2>
      <p className="muted">{t('keysLead')}</p>
      <NewKey onCreated={created} />
      <CursorListView list={list} empty={t('keysEmpty')}>
        {(keys) => (
          <ul className="cards" data-testid="key-list">
            {keys.map((key) => (
              <li key={key.id} className="card" data-testid="key" data-key={key.id}>
                <div className="card-head">
                  <h3>{key.name ?? t(TYPE_WORDS[key.type])}</h3>
                  <span className={`badge status-${key.status}`}>{t(STATUS_WORDS[key.status])}</span>
                </div>
                <p className="code" data-testid="key-masked">
                  {key.key}
                </p>
                <Facts
                  facts={[
                    [t('keyType'), t(TYPE_WORDS[key.type])],
                    [t('created'), formatDateTime(key.created * 1000)],
                    key.expires_at !== null && [t('keyExpires'), formatDateTime(key.expires_at * 1000)],
                  ]}
                />
                {key.status !== 'revoked' && (
                  <Actions
                    actions={[
                      { label: t('keyRoll'), onClick: () => setRolling(key), testId: 'roll' },
                      {
                        label: t('revoke'),
                        onClick: () => setRevoking(key),
                        testId: 'revoke-key',
                        className: 'ghost danger',
                      },
                    ]}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
      </CursorListView>
      {shown && (
        <SecretDialog
          title={t('keyShownTitle', { name: shown.name ?? t(TYPE_WORDS[shown.type]) })}
          label={t('keyShownLabel')}
          secret={shown.key}
          onClose={() => setShown(null)}
        />
      )}
      {rolling && <RollDialog apiKey={rolling} onRolled={created} onClose={() => setRolling(null)} />}
      {revoking && (
        <ConfirmDialog
          title={t('keyRevokeTitle', { key: revoking.key })}
          lead={t('keyRevokeLead')}
          confirm={t('keyRevokeConfirm')}
          words={WORDS}
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await api.delete(`/v1/api-keys/${revoking.id}`);
            setRevoking(null);
            list.reload();
          }}
        />
      )}
    </section>
  );
}

function NewKey({ onCreated }: { onCreated: (key: ApiKey) => void }) {
  const { t } = useI18n();
  const [type, setType] = useState<ApiKey['type']>('secret');
  const [name, setName] = useState('');
  const { busy, error, run } = useAction(WORDS);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const key = await api.post<ApiKey>('/v1/api-keys', {
        type,
        ...(name.trim() ? { name: name.trim() } : {}),
      });
      setName('');
      onCreated(key);
    });
  };
  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="new-key">
      <h3 id="new-key">{t('keyNew')}</h3>
      <div className="form-row">
        <TextField label={t('keyName')} value={name} onChange={setName} maxLength={100} testId="key-name" />
        <SelectField<ApiKey['type']>
          label={t('keyType')}
          value={type}
          onChange={setType}
          options={[
            ['secret', t('keySecret')],
            ['publishable', t('keyPublishable')],
          ]}
          testId="key-type"
        />
        <button type="submit" className="primary" disabled={busy} data-testid="create-key">
          {t('keyCreate')}
        </button>
      </div>
      <Message text={error} />
    </form>
  );
}

function RollDialog({
  apiKey,
  onRolled,
  onClose,
}: {
  apiKey: ApiKey;
  onRolled: (key: ApiKey) => void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const [hours, setHours] = useState(0);
  return (
    <ConfirmDialog
      title={t('keyRollTitle', { key: apiKey.key })}
      lead={t('keyRollLead')}
      confirm={t('keyRoll')}
      kind="primary"
      testId="roll-dialog"
      words={WORDS}
      onClose={onClose}
      onConfirm={async () =>
        onRolled(await api.post<ApiKey>(`/v1/api-keys/${apiKey.id}/roll`, { expires_in_hours: hours }))
      }
    >
      <Segmented<number>
        label={t('keyRollWhen')}
        value={hours}
        onChange={setHours}
        options={[
          [0, t('keyRollNow')],
          [24, t('keyRollDay')],
        ]}
      />
    </ConfirmDialog>
  );
}
