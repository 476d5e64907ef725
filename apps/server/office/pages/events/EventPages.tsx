/**
 * Events: the list, a new one at `/office/events/events/new`, and each at
 * `/office/events/events/<id>` with its details and status, tiers, promo codes and sales.
 */
import { api } from '../../api.ts';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { RowTable } from '../../components/DataTable.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { PageLink } from '../../router.tsx';
import { formatCount, formatDateTime } from '../../shared.ts';
import { EventForm } from './EventForm.tsx';
import { EventStatusActions } from './EventStatus.tsx';
import type { TicketedEvent } from './model.ts';
import { EventBadge } from './parts.tsx';
import { Promos } from './Promos.tsx';
import { SalesChart } from './SalesChart.tsx';
import { Tiers } from './Tiers.tsx';

export function EventPages({ id }: { id: string | undefined }) {
  if (id === 'new') return <EventForm event={null} onSaved={() => undefined} />;
  if (id) return <EventDetail id={id} />;
  return <EventList />;
}

function EventDetail({ id }: { id: string }) {
  const [loaded, reload] = useLoad(() => api.get<TicketedEvent>(`/v1/events/${encodeURIComponent(id)}`), id);
  if (loaded.kind === 'loading') return <Loading />;
  if (loaded.kind === 'failed') return <Failed error={loaded.error} onRetry={reload} />;
  const event = loaded.value;
  const open = event.status === 'draft' || event.status === 'published';
  return (
    <>
      <EventForm key={`${event.id} ${event.status}`} event={event} onSaved={reload}>
        <EventStatusActions event={event} onChanged={reload} />
      </EventForm>
      <Tiers event={event} editable={open} onChanged={reload} />
      <Promos event={event} editable={open} />
      <SalesChart event={event} />
    </>
  );
}

function EventList() {
  const { t } = useI18n();
  const list = useCursorList<TicketedEvent>('/v1/events');
  return (
    <>
      <div className="row">
        <PageLink page="events" rest={['events', 'new']} className="button primary" data-testid="new-event">
          {t('evNewEvent')}
        </PageLink>
      </div>
      <CursorListView list={list} empty={t('evNoEvents')}>
        {(rows) => (
          <RowTable
            rows={rows}
            testId="event-list"
            rowTestId="event"
            caption={t('evTabEvents')}
            columns={[
              {
                label: t('evName'),
                cell: (event) => (
                  <PageLink page="events" rest={['events', event.id]}>
                    {event.name}
                  </PageLink>
                ),
              },
              { label: t('evVenue'), cell: (event) => event.venue },
              { label: t('evStarts'), cell: (event) => formatDateTime(event.starts_at * 1000), nowrap: true },
              { label: t('status'), cell: (event) => <EventBadge status={event.status} /> },
              {
                label: t('evTaken'),
                cell: (event) => `${formatCount(event.taken)} / ${formatCount(event.capacity)}`,
                num: true,
                nowrap: true,
              },
              { label: t('evTiers'), cell: (event) => event.tiers.length, num: true },
            ]}
          />
        )}
      </CursorListView>
    </>
  );
}
