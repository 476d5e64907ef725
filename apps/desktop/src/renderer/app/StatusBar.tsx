/** Always on screen: connection, unsynced commands, last sync, refusals, printer path, last print. */
import type { Connection, PrintState, SyncStatus } from '../data/api.ts';
import { formatDateTime, formatTime, useI18n } from '../i18n/index.tsx';
import { Kbd } from './components/Dialog.tsx';
import type { BridgeKind } from './hardware/bridge.ts';
import { useObservable, useStore } from './store.tsx';

const startOfToday = () => new Date().setHours(0, 0, 0, 0);

export function StatusBar({
  bridgeKind,
  paired,
  onOpenSync,
}: {
  bridgeKind: BridgeKind;
  paired: boolean;
  onOpenSync: () => void;
}) {
  const store = useStore();
  const { t } = useI18n();
  const sync = useObservable<SyncStatus | null>(store.sync$, null);
  const print = useObservable<PrintState>(store.lastPrint$, { status: 'idle' });
  if (!sync) return <footer className="status-bar" />;
  const connection = connectionOf(sync);
  const connectionText = {
    online: t('statusOnline'),
    offline: t('statusOffline'),
    unreachable: t('statusUnreachable'),
    connecting: t('statusConnecting'),
    revoked: t('statusRevoked'),
  }[connection];
  const last =
    sync.lastSyncAt === null
      ? t('statusNeverSynced')
      : t('statusLastSync', {
          time:
            sync.lastSyncAt >= startOfToday() ? formatTime(sync.lastSyncAt) : formatDateTime(sync.lastSyncAt),
        });
  return (
    <footer className="status-bar" data-testid="status-bar">
      {/* An unpaired till does not sync yet: nothing to say about the server or sales. */}
      {paired && (
        <>
          <button
            type="button"
            className={`conn conn-${connection}`}
            onClick={onOpenSync}
            title={connection === 'unreachable' ? (sync.lastError ?? undefined) : undefined}
            data-testid="connection"
            data-state={connection}
          >
            <span className="dot" aria-hidden="true" />
            {connectionText}
          </button>
          <span className={sync.unsynced > 0 ? 'unsynced warn' : 'unsynced'} data-testid="unsynced">
            {sync.unsynced > 0 ? t('statusUnsynced', { count: sync.unsynced }) : t('statusAllSynced')}
          </span>
          <span className="last-sync" data-testid="last-sync" data-at={sync.lastSyncAt ?? undefined}>
            {last}
          </span>
          {sync.refused.length > 0 && (
            <button type="button" className="refused" onClick={onOpenSync}>
              {t('statusRefused', { count: sync.refused.length })}
            </button>
          )}
        </>
      )}
      {paired && !sync.leader && <span className="muted">{t('statusOtherTab')}</span>}
      <span className="spacer" />
      <span className="print-status">
        <PrintStatus print={print} />
      </span>
      <span className={`printer printer-${bridgeKind}`}>
        {{ ipc: t('printerIpc'), http: t('printerBridge'), none: t('printerNone') }[bridgeKind]}
      </span>
    </footer>
  );
}

/**
 * What the bar says about the connection. The engine starts at `unreachable`
 * before its first call has answered or failed (no error yet): that is
 * "connecting", not a server that failed to answer.
 */
function connectionOf(sync: SyncStatus): Connection | 'connecting' | 'revoked' {
  if (sync.revoked) return 'revoked';
  if (sync.connection === 'unreachable' && sync.lastError === null) return 'connecting';
  return sync.connection;
}

function PrintStatus({ print }: { print: PrintState }) {
  const { t } = useI18n();
  switch (print.status) {
    case 'idle':
      return null;
    case 'printing':
      return <span>{t('printing', { number: print.receiptNumber })}</span>;
    case 'printed':
      return (
        <span className={print.paperNearEnd ? 'warn' : ''}>
          {t('printed', { number: print.receiptNumber })}
          {print.paperNearEnd && ` · ${t('paperNearEnd')}`}
        </span>
      );
    case 'failed':
      return (
        // The printer's own words (often English and long) go in the tooltip; the bar stays short.
        <span className="bad" title={print.outcome.message}>
          {t('printFailedShort', { number: print.receiptNumber })} <Kbd>Alt+R</Kbd>
        </span>
      );
    case 'no_printer':
      return <span className="muted">{t('noPrinterForReceipt', { number: print.receiptNumber })}</span>;
  }
}
