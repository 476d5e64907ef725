/** The property's day: its rooms, arrivals, departures, guests in house and requests waiting. */
import { api } from '../../api.ts';
import { Facts } from '../../components/Facts.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { PageLink } from '../../router.tsx';
import { dayLabel, type Summary } from './model.ts';

export function Today() {
  const { t, language } = useI18n();
  const [loaded, reload] = useLoad(() => api.get<Summary>('/v1/hospitality'), 'hospitality');
  if (loaded.kind === 'loading') return <Loading />;
  if (loaded.kind === 'failed') return <Failed error={loaded.error} onRetry={reload} />;
  const day = loaded.value;
  return (
    <div className="stack" data-testid="hospitality-today">
      <h2>
        {day.property.name} · {dayLabel(day.date, language)}
      </h2>
      <Facts
        facts={[
          [t('hospArrivals'), day.arrivals, { testId: 'today-arrivals' }],
          [t('hospDepartures'), day.departures, { testId: 'today-departures' }],
          [t('hospInHouse'), day.in_house, { testId: 'today-in-house' }],
          [t('hospRequestsWaiting'), day.pending],
          [t('hospTabRooms'), day.rooms],
          [t('hospOutOfOrder'), day.rooms_out_of_order],
          [t('hospTabRoomTypes'), day.room_types],
        ]}
      />
      <div className="row">
        <PageLink
          page="hospitality"
          rest={['reservations', 'new']}
          className="button primary"
          data-testid="new-reservation"
        >
          {t('hospNewReservation')}
        </PageLink>
        <PageLink page="hospitality" rest={['calendar']} className="button">
          {t('hospTabCalendar')}
        </PageLink>
      </div>
      {day.room_types === 0 && <p className="muted">{t('hospStartHere')}</p>}
    </div>
  );
}
