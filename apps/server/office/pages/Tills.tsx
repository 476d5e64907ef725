/**
 * Tills: each with its store, status, last sync and the sales it has not
 * synced yet; a new till, or a new code for one, shown as its pairing link's
 * QR code with the link and the code; revoking a till.
 */
import { TextField } from '../components/TextField.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { useState, type FormEvent } from 'react';
import { allPages, api } from '../api.ts';
import { useAction } from '../action.ts';
import { useI18n, type MessageKey } from '../i18n/index.ts';
import { useLoad } from '../load.ts';
import { Failed, Loading } from '../components/Status.tsx';
import { OfficeDialog } from '../components/OfficeDialog.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { formatDateTime, formatTime, formatCount, Message, QrCode } from '../shared.ts';

export interface Till {
  id: string;
  name: string;
  store: string;
  status: 'unpaired' | 'paired' | 'retiring' | 'retired' | 'revoked';
  last_seen: number | null;
  backlog: number | null;
}
type PairedTill = Till & { pairing_code: string; pairing_url: string; pairing_expires_at: number };
export interface Store {
  id: string;
  name: string;
  default: boolean;
}

const STATUS_WORDS: Record<Till['status'], MessageKey> = {
  unpaired: 'statusUnpaired',
  paired: 'statusPaired',
  retiring: 'statusRetiring',
  retired: 'statusRetired',
  revoked: 'statusRevoked',
};

export function Tills() {
  const { t } = useI18n();
  const [loaded, reload] = useLoad(
    () => Promise.all([allPages<Till>('/v1/tills'), allPages<Store>('/v1/retail/stores')]),
    'tills',
  );
  const [pairing, setPairing] = useState<PairedTill | null>(null);
  const [revoking, setRevoking] = useState<Till | null>(null);
  const opened = (till: PairedTill) => {
    setPairing(till);
    reload();
  };
  return (
    <div className="page" data-testid="tills">
      <div className="page-head">
        <h1>{t('tillsTitle')}</h1>
      </div>
      <p className="muted">{t('tillsLead')}</p>
      {loaded.kind === 'loading' && <Loading />}
      {loaded.kind === 'failed' && <Failed error={loaded.error} onRetry={reload} />}
      {loaded.kind === 'done' && (
        <>
          <NewTill stores={loaded.value[1]} onCreated={opened} />
          <TillList
            tills={loaded.value[0]}
            stores={loaded.value[1]}
            onPair={(till) =>
              void api.post<PairedTill>(`/v1/tills/${till.id}/pairing-code`).then(opened, reload)
            }
            onRevoke={setRevoking}
          />
        </>
      )}
      {pairing && <PairingDialog till={pairing} onClose={() => setPairing(null)} />}
      {revoking && (
        <RevokeDialog
          till={revoking}
          onClose={() => setRevoking(null)}
          onRevoked={() => {
            setRevoking(null);
            reload();
          }}
        />
      )}
    </div>
  );
}

function NewTill({ stores, onCreated }: { stores: Store[]; onCreated: (till: PairedTill) => void }) {
  const { t } = useI18n();
  const [name, setName] = useState('');
  const [store, setStore] = useState(() => stores.find((s) => s.default)?.id ?? '');
  const { busy, error, run } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const till = await api.post<PairedTill>('/v1/tills', { name, ...(store ? { store } : {}) });
      setName('');
      onCreated(till);
    });
  };
  return (
    <form className="card stack new-till" onSubmit={submit} aria-labelledby="new-till">
      <h2 id="new-till">{t('newTill')}</h2>
      <div className="form-row">
        <TextField
          label={t('tillName')}
          value={name}
          onChange={setName}
          required
          maxLength={100}
          testId="till-name"
        />
        {stores.length > 1 && (
          <SelectField
            label={t('store')}
            value={store}
            onChange={setStore}
            options={stores.map((s) => [s.id, s.name] as const)}
            testId="till-store"
          />
        )}
        <button
          type="submit"
          className="primary"
          disabled={busy || name.trim() === ''}
          data-testid="create-till"
        >
          {t('createTill')}
        </button>
      </div>
      <Message text={error} />
    </form>
  );
}

function TillList({
  tills,
  stores,
  onPair,
  onRevoke,
}: {
  tills: Till[];
  stores: Store[];
  onPair: (till: Till) => void;
  onRevoke: (till: Till) => void;
}) {
  const { t } = useI18n();
  if (tills.length === 0) return <p className="muted">{t('noTills')}</p>;
  const storeName = (id: string) => stores.find((s) => s.id === id)?.name ?? t('defaultStore');
  const ended = (till: Till) => till.status === 'revoked' || till.status === 'retired';
  // Working tills first, newest first; ended ones after them.
  const ordered = [...tills.filter((till) => !ended(till)), ...tills.filter(ended)];
  return (
    <ul className="till-list" data-testid="till-list">
      {ordered.map((till) => {
        return (
          <li
            key={till.id}
            className={`card till-card status-${till.status}`}
            data-testid="till"
            data-till={till.id}
          >
            <div className="till-head">
              <h3>{till.name}</h3>
              <span className={`badge status-${till.status}`}>{t(STATUS_WORDS[till.status])}</span>
            </div>
            <dl className="facts">
              <div>
                <dt>{t('store')}</dt>
                <dd>{storeName(till.store)}</dd>
              </div>
              <div>
                <dt>{t('lastSync')}</dt>
                <dd data-testid="last-sync">
                  {till.last_seen === null ? t('never') : formatDateTime(till.last_seen * 1000)}
                </dd>
              </div>
              <div>
                <dt>{t('unsynced')}</dt>
                <dd data-testid="unsynced" className={till.backlog ? 'warn strong' : undefined}>
                  {till.backlog === null ? t('unknown') : formatCount(till.backlog)}
                </dd>
              </div>
            </dl>
            {!ended(till) && (
              <div className="row">
                <button type="button" onClick={() => onPair(till)} data-testid="pair">
                  {t('newPairingCode')}
                </button>
                <button
                  type="button"
                  className="ghost danger"
                  onClick={() => onRevoke(till)}
                  data-testid="revoke"
                >
                  {t('revoke')}
                </button>
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function PairingDialog({ till, onClose }: { till: PairedTill; onClose: () => void }) {
  const { t } = useI18n();
  return (
    <OfficeDialog title={t('pairTill', { name: till.name })} onClose={onClose} testId="pairing">
      <p>{t('pairingLead', { time: formatTime(till.pairing_expires_at * 1000) })}</p>
      <div className="pairing">
        <QrCode text={till.pairing_url} label={t('pairingQr')} testId="pairing-qr" size={240} />
        <dl className="facts">
          <div>
            <dt>{t('pairingCode')}</dt>
            <dd className="pairing-code" data-testid="pairing-code">
              {till.pairing_code}
            </dd>
          </div>
          <div>
            <dt>{t('pairingUrl')}</dt>
            <dd>
              <a
                href={till.pairing_url}
                target="_blank"
                rel="noreferrer"
                data-testid="pairing-url"
                className="break"
              >
                {till.pairing_url}
              </a>
            </dd>
          </div>
        </dl>
      </div>
    </OfficeDialog>
  );
}

function RevokeDialog({
  till,
  onClose,
  onRevoked,
}: {
  till: Till;
  onClose: () => void;
  onRevoked: () => void;
}) {
  const { t } = useI18n();
  return (
    <ConfirmDialog
      title={t('revokeTitle', { name: till.name })}
      lead={t('revokeLead')}
      confirm={t('revokeConfirm')}
      onConfirm={async () => {
        await api.delete(`/v1/tills/${till.id}`);
        onRevoked();
      }}
      onClose={onClose}
      testId="revoke-dialog"
      confirmTestId="confirm-revoke"
    />
  );
}
