/**
 * Reservations: the list by status, arrival dates and room type; a new one at
 * `/office/hospitality/reservations/new` and each at `.../reservations/<id>`.
 */
import { useState, type FormEvent } from 'react';
import { RESERVATION_STATUSES } from '@tz/core';
import { allPages } from '../../api.ts';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { RowTable } from '../../components/DataTable.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { PageLink } from '../../router.tsx';
import { formatMoney } from '../../shared.ts';
import { dayLabel, STATUS_WORDS, type Reservation, type Room, type RoomType } from './model.ts';
import { NewReservation } from './NewReservation.tsx';
import { StayStatus } from './parts.tsx';
import { ReservationDetail } from './ReservationDetail.tsx';

const NO_FILTERS = { status: '', arrival_gte: '', arrival_lte: '', room_type: '' };

export function Reservations({ id }: { id: string | undefined }) {
  if (id === 'new') return <NewReservation />;
  if (id) return <ReservationDetail id={id} />;
  return <ReservationList />;
}

function ReservationList() {
  const { t, language } = useI18n();
  const [draft, setDraft] = useState(NO_FILTERS);
  const [applied, setApplied] = useState(NO_FILTERS);
  const list = useCursorList<Reservation>('/v1/hospitality/reservations', applied);
  const [setup] = useLoad(
    () =>
      Promise.all([
        allPages<RoomType>('/v1/hospitality/room-types'),
        allPages<Room>('/v1/hospitality/rooms'),
      ]),
    'reservation setup',
  );
  const [types, rooms] = setup.kind === 'done' ? setup.value : [[], []];
  const set = (name: keyof typeof NO_FILTERS) => (value: string) =>
    setDraft((old) => ({ ...old, [name]: value }));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setApplied(draft);
  };
  return (
    <>
      <div className="row">
        <PageLink
          page="hospitality"
          rest={['reservations', 'new']}
          className="button primary"
          data-testid="new-reservation"
        >
          {t('hospNewReservation')}
        </PageLink>
      </div>
      <form className="filters" onSubmit={apply} role="search" aria-label={t('hospFilterReservations')}>
        <SelectField
          label={t('status')}
          value={draft.status}
          onChange={set('status')}
          options={[
            ['', t('hospAnyStatus')],
            ...RESERVATION_STATUSES.map((status) => [status, t(STATUS_WORDS[status])] as const),
          ]}
          testId="filter-status"
        />
        <TextField
          label={t('hospArrivingFrom')}
          type="date"
          value={draft.arrival_gte}
          onChange={set('arrival_gte')}
          testId="filter-from"
        />
        <TextField
          label={t('hospArrivingTo')}
          type="date"
          value={draft.arrival_lte}
          onChange={set('arrival_lte')}
          testId="filter-to"
        />
        <SelectField
          label={t('hospRoomType')}
          value={draft.room_type}
          onChange={set('room_type')}
          options={[['', t('hospAnyType')], ...types.map((type) => [type.id, type.name] as const)]}
          testId="filter-room-type"
        />
        <div className="filter-actions row">
          <button type="submit" data-testid="apply-filters">
            {t('hospFilter')}
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(NO_FILTERS);
              setApplied(NO_FILTERS);
            }}
          >
            {t('hospClearFilters')}
          </button>
        </div>
      </form>
      <CursorListView list={list} empty={t('hospNoReservations')}>
        {(rows) => (
          <RowTable
            rows={rows}
            testId="reservation-list"
            rowTestId="reservation"
            caption={t('hospTabReservations')}
            columns={[
              {
                label: t('hospGuest'),
                cell: (stay) => (
                  <PageLink page="hospitality" rest={['reservations', stay.id]}>
                    {stay.guest.name}
                  </PageLink>
                ),
              },
              {
                label: t('hospArrival'),
                cell: (stay) => (stay.arrival ? dayLabel(stay.arrival, language) : ''),
                nowrap: true,
              },
              {
                label: t('hospDeparture'),
                cell: (stay) => (stay.departure ? dayLabel(stay.departure, language) : ''),
                nowrap: true,
              },
              {
                label: t('hospRoomType'),
                cell: (stay) => types.find((type) => type.id === stay.room_type)?.name ?? '',
              },
              {
                label: t('hospRoom'),
                cell: (stay) => rooms.find((room) => room.id === stay.room)?.number ?? '—',
              },
              { label: t('status'), cell: (stay) => <StayStatus status={stay.status} /> },
              {
                label: t('hospTotal'),
                cell: (stay) => formatMoney(stay.total, stay.currency),
                num: true,
                nowrap: true,
              },
            ]}
          />
        )}
      </CursorListView>
    </>
  );
}
