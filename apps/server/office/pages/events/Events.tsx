/**
 * Ticketed events: the events (each with its tiers, promo codes and sales),
 * the orders with their tickets, the check-in list, and the organizer, each a tab at
 * `/office/events/<tab>[/<id>]` (an event's orders at `/office/events/orders/event/<id>`). Shown while the events app is installed.
 */
import { SubNav, tabOf } from '../../components/SubNav.tsx';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { PageLink } from '../../router.tsx';
import { useInstalledApps } from '../apps/installed.tsx';
import { Checkins } from './Checkins.tsx';
import { EventPages } from './EventPages.tsx';
import { Orders } from './Orders.tsx';
import { Organizer } from './Organizer.tsx';
import './events.css';

const TABS = ['events', 'orders', 'check-ins', 'organizer'] as const;
type Tab = (typeof TABS)[number];
const TAB_WORDS: Record<Tab, MessageKey> = {
  events: 'evTabEvents',
  orders: 'evTabOrders',
  'check-ins': 'evTabCheckins',
  organizer: 'evTabOrganizer',
};

export function Events({ rest }: { rest: string[] }) {
  const { t } = useI18n();
  const { installed } = useInstalledApps();
  const [, id, eventId] = rest;
  const tab = tabOf(TABS, rest);
  return (
    <div className="page" data-testid="events">
      <div className="page-head">
        <h1>{t('navEvents')}</h1>
      </div>
      {installed && !installed.has('events') ? (
        <p data-testid="events-not-installed">
          {t('evNotInstalled')} <PageLink page="apps">{t('navApps')}</PageLink>
        </p>
      ) : (
        <>
          <SubNav
            page="events"
            label={t('evTabs')}
            current={tab}
            tabs={TABS.map((name) => [name, t(TAB_WORDS[name])] as const)}
          />
          <section aria-label={t(TAB_WORDS[tab])} className="stack">
            {tab === 'events' && <EventPages id={id} />}
            {tab === 'orders' && (id === 'event' ? <Orders event={eventId} /> : <Orders id={id} />)}
            {tab === 'check-ins' && <Checkins />}
            {tab === 'organizer' && <Organizer />}
          </section>
        </>
      )}
    </div>
  );
}
