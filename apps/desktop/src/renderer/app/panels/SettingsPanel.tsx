/**
 * Alt+T: language, the printer path (desktop IPC, local bridge or none, and
 * the bridge's address and token), the manager-PIN discount limit, sync and
 * the commands the server refused, and unpairing.
 */
import { useState, type FormEvent } from 'react';
import type { Cashier, SyncStatus, TillSettings } from '../../data/api.ts';
import { formatDateTime, formatPercent, parsePercent, useI18n, type Language } from '../../i18n/index.tsx';
import type { MessageKey } from '../../i18n/en.ts';
import { Dialog, Message, ServerRefusal } from '../components/Dialog.tsx';
import { download } from '../components/download.ts';
import { probeBridge, saveBridgeConfig, useBridgeKind, type Hardware } from '../hardware/bridge.ts';
import { refusalText } from '../refusal.ts';
import { useObservable, useStore } from '../store.tsx';

export function SettingsPanel({ hardware, onClose }: { hardware: Hardware; onClose: () => void }) {
  const { t, language, setLanguage } = useI18n();
  return (
    <Dialog title={t('settingsTitle')} onClose={onClose} wide testId="settings-panel">
      <div className="settings">
        <section className="card">
          <h3>{t('language')}</h3>
          <div className="segmented">
            {(['sw', 'en'] as Language[]).map((option) => (
              <button
                key={option}
                type="button"
                className={language === option ? 'on' : ''}
                onClick={() => setLanguage(option)}
              >
                {option === 'sw' ? 'Kiswahili' : 'English'}
              </button>
            ))}
          </div>
        </section>
        <SyncSection />
        <HardwareSection hardware={hardware} />
        <DiscountSection />
        <UnpairSection />
      </div>
    </Dialog>
  );
}

function SyncSection() {
  const store = useStore();
  const { t } = useI18n();
  const sync = useObservable<SyncStatus | null>(store.sync$, null);
  if (!sync) return null;
  return (
    <section className="card" data-testid="sync-section">
      <h3>{t('syncTitle')}</h3>
      <p>
        {sync.unsynced > 0 ? t('statusUnsynced', { count: sync.unsynced }) : t('statusAllSynced')} ·{' '}
        {sync.lastSyncAt === null
          ? t('statusNeverSynced')
          : t('statusLastSync', { time: formatDateTime(sync.lastSyncAt) })}
      </p>
      {sync.lastError && <p className="message error">{sync.lastError}</p>}
      <button
        type="button"
        className="big"
        onClick={() => void store.syncNow().catch(() => undefined)}
        disabled={sync.revoked}
      >
        {t('syncNow')}
      </button>
      <h4>{t('refusedTitle')}</h4>
      {sync.refused.length === 0 ? (
        <p className="muted">{t('refusedNone')}</p>
      ) : (
        <ul className="refused-list">
          {sync.refused.map((command) => (
            <li key={command.id}>
              <strong>
                {t(`command_${command.type.replace('.', '_')}` as MessageKey)}
                {command.label && ` ${command.label}`}
              </strong>{' '}
              <span className="muted">{formatDateTime(command.createdAt)}</span>
              <ServerRefusal refusal={command.refusal} />
            </li>
          ))}
        </ul>
      )}
      {sync.refused.length > 0 && <RefusedExport />}
    </section>
  );
}

function HardwareSection({ hardware }: { hardware: Hardware }) {
  const { t } = useI18n();
  const kind = useBridgeKind(hardware.watch);
  const [url, setUrl] = useState(hardware.config?.url ?? 'http://127.0.0.1:9101');
  const [token, setToken] = useState(hardware.config?.token ?? '');
  const [message, setMessage] = useState<{ text: string; kind: 'ok' | 'error' } | null>(null);
  const save = (event: FormEvent) => {
    event.preventDefault();
    const config = { url: url.trim(), token: token.trim() };
    void probeBridge(config).then((problem) => {
      if (problem) return setMessage({ text: t('bridgeUnreachable', { message: problem }), kind: 'error' });
      saveBridgeConfig(config);
      // The store takes its bridge when it opens: reopen the page with the new one.
      location.reload();
    });
  };
  return (
    <section className="card" data-testid="hardware-section">
      <h3>{t('hardwareTitle')}</h3>
      <p data-testid="bridge-kind" data-kind={kind}>
        {kind === 'ipc'
          ? t('bridgeIpc')
          : kind === 'http'
            ? t('bridgeHttp', { url: hardware.config?.url ?? '' })
            : t('bridgeNone')}
      </p>
      {kind !== 'ipc' && (
        <form className="stack" onSubmit={save}>
          <p className="muted">{t('bridgeHelp')}</p>
          <label>
            {t('bridgeUrl')}
            <input
              className="big-input"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              data-free-text
              spellCheck={false}
            />
          </label>
          <label>
            {t('bridgeToken')}
            <input
              className="big-input"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              type="password"
              autoComplete="off"
              data-free-text
              spellCheck={false}
            />
          </label>
          <div className="row">
            <button type="submit" className="primary big" disabled={url.trim() === '' || token.trim() === ''}>
              {t('bridgeSave')}
            </button>
            {kind === 'http' && (
              <button
                type="button"
                className="big"
                onClick={() => {
                  saveBridgeConfig(null);
                  location.reload();
                }}
              >
                {t('bridgeForget')}
              </button>
            )}
          </div>
          {message && <Message text={message.text} kind={message.kind} />}
        </form>
      )}
    </section>
  );
}

function DiscountSection() {
  const store = useStore();
  const { t, language } = useI18n();
  const settings = useObservable<TillSettings | null>(store.settings$, null);
  const cashier = useObservable<Cashier | null>(store.cashier$, null);
  const [text, setText] = useState<string | null>(null);
  const [message, setMessage] = useState<{ text: string; kind: 'ok' | 'error' } | null>(null);
  if (!settings) return null;
  const limit = formatPercent(settings.managerDiscountAboveBasisPoints);
  // Only a manager moves the limit: a cashier could otherwise lift it past any discount.
  if (cashier?.role !== 'manager') {
    return (
      <section className="card">
        <p>{t('managerPinNeeded', { percent: limit })}</p>
      </section>
    );
  }
  const shown = text ?? limit.replace('%', '');
  const value = parsePercent(shown);
  return (
    <section className="card">
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          if (value === null) return;
          store.updateSettings({ managerDiscountAboveBasisPoints: value }).then(
            () => setMessage({ text: t('saved'), kind: 'ok' }),
            (failure: unknown) => setMessage({ text: refusalText(language, failure), kind: 'error' }),
          );
        }}
      >
        <label>
          {t('discountThreshold')}
          <input
            className="big-input short"
            inputMode="decimal"
            value={shown}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        <button type="submit" className="big" disabled={value === null}>
          {t('save')}
        </button>
        {message && <Message text={message.text} kind={message.kind} />}
      </form>
      <label className="check">
        <input
          type="checkbox"
          checked={settings.noSaleNeedsManager}
          onChange={(event) => void store.updateSettings({ noSaleNeedsManager: event.target.checked })}
        />
        {t('noSaleNeedsManagerSetting')}
      </label>
    </section>
  );
}

/** Unpairing is asked about in the till's own words and language, not the browser's. */
function UnpairSection() {
  const store = useStore();
  const { t, language } = useI18n();
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  return (
    <section className="card">
      <button type="button" className="danger big" onClick={() => setAsking(true)} data-testid="unpair">
        {t('unpair')}
      </button>
      <Message text={error} />
      {asking && (
        <Dialog title={t('unpair')} onClose={() => setAsking(false)} testId="unpair-confirm">
          <p className="lead">{t('unpairConfirm')}</p>
          <div className="row">
            <button type="button" className="big" onClick={() => setAsking(false)}>
              {t('cancel')}
            </button>
            <button
              type="button"
              className="danger big"
              onClick={() => {
                setAsking(false);
                store.unpair().catch((failure: unknown) => setError(refusalText(language, failure)));
              }}
            >
              {t('unpair')}
            </button>
          </div>
        </Dialog>
      )}
    </section>
  );
}

/** A refused command is never dropped: a manager saves the list, with the server's reasons, to a file. */
function RefusedExport() {
  const store = useStore();
  const { t, language } = useI18n();
  const [message, setMessage] = useState<{ text: string; kind: 'ok' | 'error' } | null>(null);
  const save = () =>
    store.exportRefused().then(
      (file) => {
        download(file);
        setMessage({ text: t('refusedExported', { count: file.count, file: file.filename }), kind: 'ok' });
      },
      (error: unknown) => setMessage({ text: refusalText(language, error), kind: 'error' }),
    );
  return (
    <>
      <button type="button" onClick={() => void save()} data-testid="export-refused">
        {t('refusedExport')}
      </button>
      {message && <Message text={message.text} kind={message.kind} />}
    </>
  );
}
