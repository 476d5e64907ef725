/**
 * Hospitality: the day at a glance, reservations with their calendar, room
 * types with their rates, rooms, blackouts and the property, each a tab at
 * `/office/hospitality/<tab>[/<id>]`. Shown while the hospitality app is installed.
 */
import { SubNav, tabOf } from '../../components/SubNav.tsx';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { PageLink } from '../../router.tsx';
import { useInstalledApps } from '../apps/installed.tsx';
import { Blackouts } from './Blackouts.tsx';
import { Calendar } from './Calendar.tsx';
import { Property } from './Property.tsx';
import { Reservations } from './Reservations.tsx';
import { Rooms } from './Rooms.tsx';
import { RoomTypes } from './RoomTypes.tsx';
import { Today } from './Today.tsx';
import './hospitality.css';

const TABS = ['today', 'reservations', 'calendar', 'room-types', 'rooms', 'blackouts', 'property'] as const;
type Tab = (typeof TABS)[number];
const TAB_WORDS: Record<Tab, MessageKey> = {
  today: 'hospTabToday',
  reservations: 'hospTabReservations',
  calendar: 'hospTabCalendar',
  'room-types': 'hospTabRoomTypes',
  rooms: 'hospTabRooms',
  blackouts: 'hospTabBlackouts',
  property: 'hospTabProperty',
};

export function Hospitality({ rest }: { rest: string[] }) {
  const { t } = useI18n();
  const { installed } = useInstalledApps();
  const [, id] = rest;
  const tab = tabOf(TABS, rest);
  return (
    <div className="page" data-testid="hospitality">
      <div className="page-head">
        <h1>{t('navHospitality')}</h1>
      </div>
      {installed && !installed.has('hospitality') ? (
        <p data-testid="hospitality-not-installed">
          {t('hospNotInstalled')} <PageLink page="apps">{t('navApps')}</PageLink>
        </p>
      ) : (
        <>
          <SubNav
            page="hospitality"
            label={t('hospTabs')}
            current={tab}
            tabs={TABS.map((name) => [name, t(TAB_WORDS[name])] as const)}
          />
          <section aria-label={t(TAB_WORDS[tab])} className="stack">
            <TabOf tab={tab} id={id} />
          </section>
        </>
      )}
    </div>
  );
}

function TabOf({ tab, id }: { tab: Tab; id: string | undefined }) {
  switch (tab) {
    case 'today':
      return <Today />;
    case 'reservations':
      return <Reservations id={id} />;
    case 'calendar':
      return <Calendar />;
    case 'room-types':
      return <RoomTypes id={id} />;
    case 'rooms':
      return <Rooms />;
    case 'blackouts':
      return <Blackouts />;
    case 'property':
      return <Property />;
  }
}
