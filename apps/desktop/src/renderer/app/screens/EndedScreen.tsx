/**
 * A till that syncs no more (revoked, or retired): what it still holds leaves
 * in a signed export file, or a manager abandons it; then the device can be
 * paired as another till (a pairing link opened meanwhile pairs it then).
 */
import { useState, type FormEvent } from 'react';
import type { PairingState, SyncStatus, TillExportDownload } from '../../data/api.ts';
import { useI18n } from '../../i18n/index.tsx';
import { Message } from '../components/Dialog.tsx';
import { PinInput } from '../components/inputs.tsx';
import { refusalText } from '../refusal.ts';
import { useObservable, useStore } from '../store.tsx';
import { PairScreen } from './PairScreen.tsx';
import { download } from '../components/download.ts';

export function EndedScreen({ status }: { status: Extract<PairingState['status'], 'revoked' | 'retired'> }) {
  const store = useStore();
  const { t, language } = useI18n();
  const sync = useObservable<SyncStatus | null>(store.sync$, null);
  const lastExport = useObservable<TillExportDownload | null>(store.lastExport$, null);
  const [abandoning, setAbandoning] = useState(false);
  const [pin, setPin] = useState('');
  const [message, setMessage] = useState<{ text: string; kind: 'ok' | 'error' } | null>(null);
  if (!sync) return null;
  const unsynced = sync.unsynced;
  const fail = (error: unknown) => setMessage({ text: refusalText(language, error), kind: 'error' });

  const exportNow = () => {
    store.exportUnsynced().then((file) => {
      download(file);
      setMessage({ text: t('endedExported', { count: file.count, file: file.filename }), kind: 'ok' });
    }, fail);
  };
  const abandon = (event: FormEvent) => {
    event.preventDefault();
    store.abandonUnsynced(pin).then(
      (count) => {
        setAbandoning(false);
        setPin('');
        setMessage({ text: t('endedAbandoned', { count }), kind: 'ok' });
      },
      (error: unknown) => {
        setPin('');
        fail(error);
      },
    );
  };

  return (
    <div className="ended" data-testid="ended-screen" data-unsynced={unsynced}>
      <section className="centered-card">
        <h1>{status === 'revoked' ? t('endedRevokedTitle') : t('endedRetiredTitle')}</h1>
        {unsynced > 0 ? (
          <>
            <p className="lead">{t('endedUnsynced', { count: unsynced })}</p>
            <div className="stack">
              <button type="button" className="primary big" onClick={exportNow} data-testid="export-unsynced">
                {t('endedExport')}
              </button>
              {abandoning ? (
                <form className="stack" onSubmit={abandon}>
                  <p className="muted">{t('endedAbandonWarning')}</p>
                  <label>
                    {t('managerPin')}
                    <PinInput value={pin} onChange={setPin} autoFocus data-testid="abandon-pin" />
                  </label>
                  <button type="submit" className="danger big" disabled={pin.length < 4}>
                    {t('endedAbandonConfirm', { count: unsynced })}
                  </button>
                </form>
              ) : (
                <button
                  type="button"
                  className="big"
                  onClick={() => setAbandoning(true)}
                  data-testid="abandon"
                >
                  {t('endedAbandon')}
                </button>
              )}
            </div>
          </>
        ) : (
          <p className="lead">{t('endedNothingLeft')}</p>
        )}
        {lastExport && (
          <p className="muted">
            {t('endedExportedBefore', { count: lastExport.count })}{' '}
            <button type="button" className="link" onClick={() => download(lastExport)}>
              {t('endedExportAgain')}
            </button>
          </p>
        )}
        {message && <Message text={message.text} kind={message.kind} />}
      </section>
      {unsynced === 0 && <PairScreen />}
    </div>
  );
}
