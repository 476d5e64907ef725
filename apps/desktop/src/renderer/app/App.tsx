/**
 * The till: pairing, then the cashier's PIN, then the shift's float, then the
 * sale screen (or, on a till with the hospitality app's property, the front
 * desk: Alt+D or the tabs switch; on a till with a ticketed event, the door:
 * Alt+G). The top bar and the status bar are always
 * there; Sales, Shift, Settings and Help open over whatever screen is showing.
 */
import { useCallback, useState } from 'react';
import type { Cashier, PairingState, TillStore, ZReport } from '../data/api.ts';
import { useI18n } from '../i18n/index.tsx';
import { useBridgeKind, type Hardware } from './hardware/bridge.ts';
import { PIN_MAX_LENGTH } from './components/inputs.tsx';
import { HelpOverlay } from './HelpOverlay.tsx';
import { isTextField, useShortcuts, type TillMode } from './keyboard/shortcuts.ts';
import { useScanner } from './keyboard/use-scanner.ts';
import { NoticeProvider, useNotify } from './notices.tsx';
import { SalesPanel } from './panels/SalesPanel.tsx';
import { SettingsPanel } from './panels/SettingsPanel.tsx';
import { ShiftPanel, ZReportDialog } from './panels/ShiftPanel.tsx';
import { NoSaleDialog } from './screens/NoSaleDialog.tsx';
import { refusalText } from './refusal.ts';
import { FirstSyncGate } from './screens/FirstSyncScreen.tsx';
import { EndedScreen } from './screens/EndedScreen.tsx';
import { OpenShiftScreen } from './screens/OpenShiftScreen.tsx';
import { PairScreen } from './screens/PairScreen.tsx';
import { SaleScreen } from './screens/SaleScreen.tsx';
import { FrontDeskScreen } from './screens/front-desk/FrontDeskScreen.tsx';
import { DoorScreen } from './screens/door/DoorScreen.tsx';
import { BoxOfficeScreen } from './screens/box-office/BoxOfficeScreen.tsx';
import { SignInScreen } from './screens/SignInScreen.tsx';
import { StatusBar } from './StatusBar.tsx';
import { StoreProvider, useObservable, useStore } from './store.tsx';
import { codeText } from '../i18n/code-words.ts';

type Panel = 'sales' | 'shift' | 'settings' | 'no-sale';

const MODE_TABS = { sale: 'saleTab', desk: 'deskTab', door: 'doorTab' } as const;

export function App({ store, hardware }: { store: TillStore; hardware: Hardware }) {
  return (
    <StoreProvider store={store}>
      <NoticeProvider>
        <Till hardware={hardware} />
      </NoticeProvider>
    </StoreProvider>
  );
}

function Till({ hardware }: { hardware: Hardware }) {
  const store = useStore();
  const { t, language, toggleLanguage } = useI18n();
  const notify = useNotify();
  const pairing = useObservable<PairingState | null>(store.pairing$, null);
  const cashier = useObservable<Cashier | null>(store.cashier$, null);
  const shiftOpen = useObservable<boolean>(store.shiftOpen$, false);
  const [panel, setPanel] = useState<Panel | null>(null);
  const [help, setHelp] = useState(false);
  const [zReport, setZReport] = useState<ZReport | null>(null);
  const hasDesk = useObservable<boolean>(store.hasDesk$, false);
  const hasDoor = useObservable<boolean>(store.hasDoor$, false);
  const [mode, setMode] = useState<TillMode>('sale');
  // The box office is the door's: open over it, back to it.
  const [boxOffice, setBoxOffice] = useState(false);
  const switchMode = (next: TillMode) => {
    setBoxOffice(false);
    setMode(next);
  };
  const bridgeKind = useBridgeKind(hardware.watch);
  const paired = pairing !== null && pairing.status !== 'unpaired';
  const selling = paired && cashier !== null;
  const atDesk = mode === 'desk' && hasDesk;
  const atDoor = mode === 'door' && hasDoor;
  const atBoxOffice = atDoor && boxOffice;
  const modes: TillMode[] = [
    'sale',
    ...(hasDesk ? ['desk' as const] : []),
    ...(hasDoor ? ['door' as const] : []),
  ];
  const shownMode: TillMode = atDesk ? 'desk' : atDoor ? 'door' : 'sale';

  const signOut = useCallback(() => {
    store.signOut().then(
      () => setPanel(null),
      (error: unknown) => notify(refusalText(language, error), 'error'),
    );
  }, [store, notify, t]);
  const reprint = useCallback(() => {
    store.reprintLast().then(
      (outcome) => {
        if (outcome === null) notify(t('nothingToReprint'), 'error');
      },
      (error: unknown) => notify(refusalText(language, error), 'error'),
    );
  }, [store, notify, t]);

  // Before sign-in a scan sells nothing: it stays out of the PIN field (where it was a wrong PIN).
  useScanner(() => notify(t('scanSignInFirst'), 'error'), {
    active: paired && !cashier,
    minLength: PIN_MAX_LENGTH + 1,
  });

  useShortcuts(
    'app',
    true,
    (event) => ({
      // `?` opens help even from the search box; free-text fields (reasons, names) keep it.
      notFreeText: !(
        isTextField(event.target) && (event.target as HTMLElement).dataset.freeText !== undefined
      ),
      selling,
      shiftOpen,
      paired,
      hasDesk,
      hasDoor,
    }),
    {
      help: () => setHelp(true),
      language: toggleLanguage,
      sales: () => setPanel('sales'),
      shift: () => setPanel('shift'),
      noSale: () => setPanel('no-sale'),
      settings: () => setPanel('settings'),
      reprint,
      signOut,
      desk: () => switchMode(atDesk ? 'sale' : 'desk'),
      door: () => switchMode(atDoor ? 'sale' : 'door'),
    },
  );

  const ended = pairing?.status === 'revoked' || pairing?.status === 'retired';
  let screen;
  if (pairing === null) screen = <div className="splash">{t('appName')}</div>;
  else if (pairing.status === 'unpaired') screen = <PairScreen />;
  else if (pairing.status === 'revoked' || pairing.status === 'retired') {
    screen = <EndedScreen status={pairing.status} />;
  } else if (!cashier)
    screen =
      pairing.status === 'paired' ? (
        <FirstSyncGate>
          <SignInScreen till={pairing.till} />
        </FirstSyncGate>
      ) : (
        <SignInScreen till={pairing.till} />
      );
  // Door staff who only check tickets scan with no shift; the box office takes money, so it needs one.
  else if (atDoor && !atBoxOffice)
    screen = (
      <DoorScreen
        blocked={panel !== null || help || zReport !== null}
        onBoxOffice={() => setBoxOffice(true)}
      />
    );
  else if (!shiftOpen)
    screen = (
      <OpenShiftScreen cashier={cashier} {...(atBoxOffice ? { note: t('boxOfficeShiftFirst') } : {})} />
    );
  else if (atDesk) screen = <FrontDeskScreen blocked={panel !== null || help || zReport !== null} />;
  else if (atBoxOffice)
    screen = (
      <BoxOfficeScreen
        blocked={panel !== null || help || zReport !== null}
        onBack={() => setBoxOffice(false)}
      />
    );
  else
    screen = (
      <SaleScreen
        blocked={panel !== null || help || zReport !== null}
        retiring={pairing.status === 'retiring'}
      />
    );

  return (
    <div
      className={pairing?.status === 'revoked' || pairing?.status === 'retiring' ? 'till revoked' : 'till'}
      data-screen={
        pairing === null
          ? 'loading'
          : pairing.status === 'unpaired'
            ? 'pair'
            : ended
              ? 'ended'
              : !cashier
                ? 'sign-in'
                : atDoor && !atBoxOffice
                  ? 'door'
                  : !shiftOpen
                    ? 'open-shift'
                    : atBoxOffice
                      ? 'box-office'
                      : shownMode
      }
    >
      <header className="top-bar">
        <span className="brand">
          <span className="business">{paired ? pairing.till.merchant.businessName : t('appName')}</span>
          {paired && <small className="till-name">{pairing.till.name}</small>}
          {paired && !pairing.till.livemode && <small className="test-mode">{t('testMode')}</small>}
        </span>
        {cashier && <span className="cashier">{cashier.name}</span>}
        {selling && (shiftOpen || hasDoor) && modes.length > 1 && (
          <nav className="mode-tabs" role="tablist" aria-label={t(hasDesk ? 'deskTab' : 'doorTab')}>
            {modes.map((one) => (
              <button
                key={one}
                type="button"
                role="tab"
                aria-selected={one === shownMode}
                className={one === shownMode ? 'on' : ''}
                onClick={() => switchMode(one)}
                data-testid={`mode-${one}`}
              >
                {t(MODE_TABS[one])}
                {one !== 'sale' && (
                  <>
                    {' '}
                    <kbd>{one === 'desk' ? 'Alt+D' : 'Alt+G'}</kbd>
                  </>
                )}
              </button>
            ))}
          </nav>
        )}
        <nav className="menu">
          {selling && (
            <button type="button" onClick={() => setPanel('sales')}>
              {t('menuSales')} <kbd>Alt+S</kbd>
            </button>
          )}
          {selling && shiftOpen && (
            <button type="button" onClick={() => setPanel('shift')}>
              {t('shiftTitle')} <kbd>Alt+Z</kbd>
            </button>
          )}
          {paired && (
            <button type="button" onClick={() => setPanel('settings')}>
              {t('settingsTitle')} <kbd>Alt+T</kbd>
            </button>
          )}
          <button type="button" onClick={() => setHelp(true)} aria-label={t('helpTitle')}>
            ? <kbd>F1</kbd>
          </button>
          <button type="button" onClick={toggleLanguage} data-testid="language">
            {t('switchLanguage')}
          </button>
          {selling && (
            <button type="button" onClick={signOut}>
              {t('signOut')}
            </button>
          )}
        </nav>
      </header>
      {(pairing?.status === 'revoked' || pairing?.status === 'retiring') && (
        <div className="revoked-banner" role="alert" data-testid={pairing.status}>
          {pairing.status === 'revoked' ? codeText(language, 'till_revoked') : t('endedRetiringBanner')}
          {selling && (
            <button type="button" onClick={() => setPanel('sales')}>
              {t('menuSales')} <kbd>Alt+S</kbd>
            </button>
          )}
        </div>
      )}
      <main className="screen">{screen}</main>
      <StatusBar bridgeKind={bridgeKind} paired={paired} onOpenSync={() => paired && setPanel('settings')} />
      {panel === 'sales' && <SalesPanel onClose={() => setPanel(null)} onReprint={reprint} />}
      {panel === 'shift' && shiftOpen && (
        <ShiftPanel
          onClose={() => setPanel(null)}
          onClosed={(report) => {
            setPanel(null);
            setZReport(report);
          }}
        />
      )}
      {panel === 'no-sale' && shiftOpen && <NoSaleDialog onClose={() => setPanel(null)} />}
      {panel === 'settings' && <SettingsPanel hardware={hardware} onClose={() => setPanel(null)} />}
      {zReport && <ZReportDialog report={zReport} onClose={() => setZReport(null)} />}
      {help && (
        <HelpOverlay
          atDesk={atDesk}
          hasDesk={hasDesk}
          atDoor={atDoor}
          hasDoor={hasDoor}
          onClose={() => setHelp(false)}
        />
      )}
    </div>
  );
}
