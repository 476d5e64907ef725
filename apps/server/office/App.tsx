/**
 * The back office: sign-in until a session is open, then the frame (the
 * business, the test-mode mark, the mode and language switches, sign out),
 * the sections' navigation and the page of the path.
 */
import { useEffect, useRef } from 'react';
import type { AppSlug } from '@tz/core';
import { useAction } from './action.ts';
import { LanguageButton } from './components/LanguageButton.tsx';
import { useI18n, type MessageKey } from './i18n/index.ts';
import { PAGES, PageLink, usePlace, type Page, type Place } from './router.tsx';
import { useSession, type Mode, type OfficeSession } from './session.tsx';
import { Message, Segmented } from './shared.ts';
import { Apps } from './pages/apps/Apps.tsx';
import { InstalledAppsProvider, useInstalledApps } from './pages/apps/installed.tsx';
import { Developers } from './pages/developers/Developers.tsx';
import { Home } from './pages/Home.tsx';
import { Events } from './pages/events/Events.tsx';
import { Hospitality } from './pages/hospitality/Hospitality.tsx';
import { Retail } from './pages/retail/Retail.tsx';
import { Payments } from './pages/payments/Payments.tsx';
import { Settings } from './pages/Settings.tsx';
import { SignIn } from './pages/SignIn.tsx';
import { TillsAndStaff } from './pages/staff/TillsAndStaff.tsx';

/** The sections a vertical adds, shown only while its app is installed in this mode. */
const PAGE_APPS: Partial<Record<Page, AppSlug>> = { hospitality: 'hospitality', events: 'events' };

const NAV_WORDS: Record<Page, MessageKey> = {
  home: 'navHome',
  payments: 'navPayments',
  retail: 'navRetail',
  hospitality: 'navHospitality',
  events: 'navEvents',
  tills: 'navTills',
  developers: 'navDevelopers',
  apps: 'navApps',
  settings: 'navSettings',
};

export function App() {
  const { t } = useI18n();
  const { state } = useSession();
  if (state.kind === 'loading')
    return (
      <p className="splash" role="status">
        {t('loading')}
      </p>
    );
  if (state.kind === 'signed-out') return <SignIn ended={state.ended} />;
  return (
    <InstalledAppsProvider mode={state.session.mode}>
      <Frame session={state.session} />
    </InstalledAppsProvider>
  );
}

/** The page at the path; `place.rest` is the page's own path below it (a tab, an object's id). */
function PageOf({ place }: { place: Place }) {
  const { page } = place;
  switch (page) {
    case 'home':
      return <Home />;
    case 'retail':
      return <Retail rest={place.rest} />;
    case 'hospitality':
      return <Hospitality rest={place.rest} />;
    case 'events':
      return <Events rest={place.rest} />;
    case 'payments':
      return <Payments rest={place.rest} />;
    case 'tills':
      return <TillsAndStaff rest={place.rest} />;
    case 'settings':
      return <Settings />;
    case 'developers':
      return <Developers rest={place.rest} />;
    case 'apps':
      return <Apps />;
  }
}

function Frame({ session }: { session: OfficeSession }) {
  const { t } = useI18n();
  const { switchMode, signOut } = useSession();
  const place = usePlace();
  const { page } = place;
  const { error, run } = useAction();
  const nav = useRef<HTMLElement>(null);
  const { installed } = useInstalledApps();
  const shown = PAGES.filter((name) => {
    const app = PAGE_APPS[name];
    return !app || installed?.has(app) === true;
  });
  // On a phone the sections scroll sideways: the current one is brought into view.
  useEffect(() => {
    nav.current
      ?.querySelector('[aria-current=page]')
      ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [page]);
  return (
    <div className={`office mode-${session.mode}`}>
      <a className="skip-link" href="#main">
        {t('skipToPage')}
      </a>
      <header className="office-top">
        {!session.livemode && (
          <p className="test-banner" data-testid="test-mode">
            {t('testModeBanner')}
          </p>
        )}
        <div className="office-bar">
          <span className="brand">
            <span className="business">{session.merchant.business_name}</span>
            {!session.livemode && <span className="test-badge">{t('testModeBadge')}</span>}
          </span>
          <div className="bar-actions">
            <Segmented<Mode>
              label={t('mode')}
              value={session.mode}
              onChange={(mode) => mode !== session.mode && void run(() => switchMode(mode))}
              options={[
                ['test', t('modeTest')],
                ['live', t('modeLive')],
              ]}
            />
            <LanguageButton />
            <button
              type="button"
              className="bar-button"
              onClick={() => void run(signOut)}
              data-testid="sign-out"
            >
              {t('signOut')}
            </button>
          </div>
        </div>
      </header>
      <nav className="office-nav" aria-label={t('navigation')} ref={nav}>
        <ul>
          {shown.map((name) => (
            <li key={name}>
              <PageLink
                page={name}
                aria-current={name === page ? 'page' : undefined}
                data-testid={`nav-${name}`}
              >
                {t(NAV_WORDS[name])}
              </PageLink>
            </li>
          ))}
        </ul>
      </nav>
      <main className="screen office-main" id="main" tabIndex={-1}>
        <Message text={error} />
        {/* A new mode is another set of data: the page reads it afresh. */}
        <PageOf key={`${session.mode} ${page}`} place={place} />
      </main>
    </div>
  );
}
