/**
 * A reservation: the guest, the stay, its quote as sold, and what can happen
 * next by core's table: confirm, assign or move the room (the keyboard's way to
 * move a stay on the calendar), check in and out, cancel or mark a no-show.
 */
import { useState } from 'react';
import { RESERVATION_TRANSITIONS } from '@tz/core';
import { allPages, api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { Actions } from '../../components/Actions.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Facts } from '../../components/Facts.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { PageLink } from '../../router.tsx';
import { formatDateTime, Message } from '../../shared.ts';
import { HOSPITALITY_ERRORS, MODE_WORDS, type Reservation, type Room, type RoomType } from './model.ts';
import { QuoteView, StayStatus, stayDates } from './parts.tsx';
import { CheckInDialog } from './CheckInDialog.tsx';
import { CheckOutDialog } from './CheckOutDialog.tsx';

type Asking = 'cancel' | 'no_show' | null;

export function ReservationDetail({ id }: { id: string }) {
  const { t, language } = useI18n();
  const [loaded, reload] = useLoad(
    () =>
      Promise.all([
        api.get<Reservation>(`/v1/hospitality/reservations/${encodeURIComponent(id)}`),
        allPages<RoomType>('/v1/hospitality/room-types'),
        allPages<Room>('/v1/hospitality/rooms'),
      ]),
    id,
  );
  const { busy, error, run } = useAction(HOSPITALITY_ERRORS);
  const [asking, setAsking] = useState<Asking>(null);
  const [checkingIn, setCheckingIn] = useState(false);
  const [checkingOut, setCheckingOut] = useState(false);
  const [picked, setPicked] = useState('');
  if (loaded.kind === 'loading') return <Loading />;
  if (loaded.kind === 'failed') return <Failed error={loaded.error} onRetry={reload} />;
  const [stay, types, allRooms] = loaded.value;
  const rooms = allRooms.filter((room) => room.room_type === stay.room_type);
  const room = picked || stay.room || rooms[0]?.id || '';
  const can = (status: Reservation['status']) => RESERVATION_TRANSITIONS[stay.status].includes(status);
  const step = (path: string, body?: unknown) =>
    void run(async () => {
      await api.post(`/v1/hospitality/reservations/${stay.id}/${path}`, body);
      setPicked('');
      reload();
    });
  const holding = stay.status === 'pending' || stay.status === 'confirmed' || stay.status === 'checked_in';
  return (
    <>
      <PageLink page="hospitality" rest={['reservations']}>
        ← {t('hospAllReservations')}
      </PageLink>
      <div className="card stack hosp-stay" data-testid="reservation" data-id={stay.id}>
        <div className="card-head">
          <h2>{stay.guest.name}</h2>
          <StayStatus status={stay.status} />
        </div>
        <Facts
          facts={[
            [t('hospStay'), stayDates(stay, language), { testId: 'stay-dates' }],
            [t('hospRoomType'), types.find((type) => type.id === stay.room_type)?.name ?? ''],
            [
              t('hospRoom'),
              allRooms.find((one) => one.id === stay.room)?.number ?? t('hospNoRoomYet'),
              { testId: 'stay-room' },
            ],
            [t('hospGuests'), t('hospParty', { adults: stay.adults, children: stay.children })],
            [t('hospBookedBy'), t(MODE_WORDS[stay.mode])],
            [t('hospPhone'), stay.guest.phone],
            [t('hospEmail'), stay.guest.email],
            [t('hospNotes'), stay.notes],
            [t('hospBooked'), formatDateTime(stay.created * 1000)],
          ]}
        />
        {holding && rooms.length > 0 && (stay.status !== 'pending' || !stay.room) && (
          <div className="filters" data-testid="room-choice">
            <SelectField
              label={stay.room ? t('hospMoveTo') : t('hospRoom')}
              value={room}
              onChange={setPicked}
              options={rooms.map((one) => [one.id, one.number] as const)}
              testId="assign-room"
            />
            <button
              type="button"
              disabled={busy || room === stay.room}
              onClick={() => step('assign', { room })}
              data-testid="assign"
            >
              {stay.room ? t('hospMove') : t('hospAssign')}
            </button>
          </div>
        )}
        <Message text={error} />
        <Actions
          actions={[
            can('confirmed') && {
              label: t('hospConfirm'),
              onClick: () => step('confirm'),
              testId: 'confirm-stay',
              className: 'primary',
            },
            can('checked_in') && {
              label: t('hospCheckIn'),
              onClick: () => setCheckingIn(true),
              testId: 'check-in',
              className: 'primary',
            },
            can('checked_out') && {
              label: t('hospCheckOut'),
              onClick: () => setCheckingOut(true),
              testId: 'check-out',
              className: 'primary',
            },
            can('no_show') && {
              label: t('hospMarkNoShow'),
              onClick: () => setAsking('no_show'),
              testId: 'no-show',
              className: 'ghost danger',
            },
            can('canceled') && {
              label: t('hospCancelStay'),
              onClick: () => setAsking('cancel'),
              testId: 'cancel-stay',
              className: 'ghost danger',
            },
          ]}
        />
      </div>
      <section className="card stack" aria-labelledby="quote-title">
        <h2 id="quote-title">{t('hospQuote')}</h2>
        <QuoteView quote={stay.quote} testId="stay-quote" />
      </section>
      {checkingIn && (
        <CheckInDialog
          stay={stay}
          room={stay.room ? null : room}
          onClose={() => setCheckingIn(false)}
          onDone={() => {
            setCheckingIn(false);
            setPicked('');
            reload();
          }}
        />
      )}
      {checkingOut && (
        <CheckOutDialog
          stay={stay}
          onClose={() => setCheckingOut(false)}
          onDone={() => {
            setCheckingOut(false);
            reload();
          }}
        />
      )}
      {asking && (
        <ConfirmDialog
          title={
            asking === 'cancel'
              ? t('hospCancelTitle', { name: stay.guest.name })
              : t('hospNoShowTitle', { name: stay.guest.name })
          }
          lead={asking === 'cancel' ? t('hospCancelLead') : t('hospNoShowLead')}
          confirm={asking === 'cancel' ? t('hospCancelStay') : t('hospMarkNoShow')}
          words={HOSPITALITY_ERRORS}
          onClose={() => setAsking(null)}
          onConfirm={async () => {
            await api.post(`/v1/hospitality/reservations/${stay.id}/${asking}`);
            setAsking(null);
            reload();
          }}
        />
      )}
    </>
  );
}
