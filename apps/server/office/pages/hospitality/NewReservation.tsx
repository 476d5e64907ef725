/**
 * A new reservation: the stay (nights from arrival to departure, or day use
 * from a time for some hours) and party, then each room type's free rooms and
 * priced quote (nights, rates, levies, VAT, total) from the API, and the guest
 * booked into the type chosen (any free room, or one named).
 */
import { useState, type FormEvent } from 'react';
import { addDays } from '@tz/core/hospitality/stay';
import { eastAfricaDate, eastAfricaDay } from '@tz/core/time';
import { allPages, api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { SelectField } from '../../components/SelectField.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { navigate, PageLink } from '../../router.tsx';
import { Message } from '../../shared.ts';
import { HOSPITALITY_ERRORS, type Availability, type Reservation, type Room } from './model.ts';
import { QuoteView } from './parts.tsx';

interface StayForm {
  kind: 'nightly' | 'day_use';
  arrival: string;
  departure: string;
  /** Day use: the day, the time it starts (East Africa Time) and how many hours. */
  day: string;
  from: string;
  hours: string;
  adults: string;
  children: string;
}

/** The stay as the API reads it: arrival and departure, or day use's starts_at and ends_at (unix seconds). */
function stayOf(stay: StayForm): Record<string, string | number> {
  const party = { adults: Number(stay.adults), children: Number(stay.children) };
  if (stay.kind === 'nightly') return { arrival: stay.arrival, departure: stay.departure, ...party };
  const [hour, minute] = stay.from.split(':').map(Number);
  const start = (eastAfricaDay(stay.day)?.start.getTime() ?? Number.NaN) / 1000 + hour! * 3600 + minute! * 60;
  return { starts_at: start, ends_at: start + Number(stay.hours) * 3600, ...party };
}

export function NewReservation() {
  const { t } = useI18n();
  const today = eastAfricaDate(new Date());
  const [stay, setStay] = useState<StayForm>({
    kind: 'nightly',
    arrival: today,
    departure: addDays(today, 1),
    day: today,
    from: '10:00',
    hours: '3',
    adults: '2',
    children: '0',
  });
  const [asked, setAsked] = useState<StayForm | null>(null);
  const [found, setFound] = useState<Availability | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const { busy, error, run } = useAction(HOSPITALITY_ERRORS);
  const set = (name: keyof typeof stay) => (value: string) => setStay((old) => ({ ...old, [name]: value }));
  const check = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const query = new URLSearchParams(
        Object.entries(stayOf(stay)).map(([name, value]) => [name, String(value)]),
      ).toString();
      setFound(await api.get<Availability>(`/v1/hospitality/availability?${query}`));
      setAsked(stay);
      setChosen(null);
    });
  };
  const option = found?.data.find((one) => one.room_type.id === chosen);
  return (
    <>
      <PageLink page="hospitality" rest={['reservations']}>
        ← {t('hospAllReservations')}
      </PageLink>
      <form className="card stack" onSubmit={check} data-testid="stay-form">
        <h2>{t('hospNewReservation')}</h2>
        <div className="filters">
          <SelectField
            label={t('hospStayKind')}
            value={stay.kind}
            onChange={set('kind')}
            options={[
              ['nightly', t('hospNightly')],
              ['day_use', t('hospDayUse')],
            ]}
            testId="stay-kind"
          />
          {stay.kind === 'nightly' ? (
            <>
              <TextField
                label={t('hospArrival')}
                type="date"
                value={stay.arrival}
                onChange={set('arrival')}
                required
                testId="stay-arrival"
              />
              <TextField
                label={t('hospDeparture')}
                type="date"
                value={stay.departure}
                onChange={set('departure')}
                required
                testId="stay-departure"
              />
            </>
          ) : (
            <>
              <TextField
                label={t('hospDay')}
                type="date"
                value={stay.day}
                onChange={set('day')}
                required
                testId="stay-day"
              />
              <TextField
                label={t('hospFrom')}
                type="time"
                step={900}
                value={stay.from}
                onChange={set('from')}
                required
                testId="stay-from"
              />
              <TextField
                label={t('hospHours')}
                type="number"
                min={1}
                max={12}
                value={stay.hours}
                onChange={set('hours')}
                required
                testId="stay-hours"
              />
            </>
          )}
          <TextField
            label={t('hospAdults')}
            type="number"
            min={1}
            max={20}
            value={stay.adults}
            onChange={set('adults')}
            required
            testId="stay-adults"
          />
          <TextField
            label={t('hospChildren')}
            type="number"
            min={0}
            max={20}
            value={stay.children}
            onChange={set('children')}
            required
            testId="stay-children"
          />
        </div>
        <Message text={error} />
        <div>
          <button type="submit" className="primary" disabled={busy} data-testid="check-availability">
            {t('hospCheckAvailability')}
          </button>
        </div>
      </form>
      {found && asked && (
        <section className="stack" aria-labelledby="availability-title">
          <h2 id="availability-title">{t('hospAvailability')}</h2>
          {found.data.length === 0 && <p className="muted">{t('hospNoRoomTypes')}</p>}
          <ul className="cards" data-testid="availability">
            {found.data.map((one) => (
              <li
                key={one.room_type.id}
                className={`card${chosen === one.room_type.id ? ' chosen' : ''}`}
                data-testid="offer"
                data-room-type={one.room_type.id}
              >
                <div className="card-head">
                  <h3>{one.room_type.name}</h3>
                  <span
                    className={`badge ${one.quote && one.free_rooms > 0 ? 'status-active' : 'status-inactive'}`}
                    data-testid="free-rooms"
                  >
                    {t('hospFreeRooms', { count: one.free_rooms })}
                  </span>
                </div>
                {one.quote ? (
                  <QuoteView quote={one.quote} />
                ) : (
                  <p className="muted">
                    {t('hospCannotTake')}
                    {one.unavailable_reason && <span lang="en"> ({one.unavailable_reason})</span>}
                  </p>
                )}
                {one.quote && one.free_rooms > 0 && (
                  <button
                    type="button"
                    className={chosen === one.room_type.id ? 'primary' : undefined}
                    aria-pressed={chosen === one.room_type.id}
                    onClick={() => setChosen(one.room_type.id)}
                    data-testid="choose-offer"
                  >
                    {t('hospChoose', { name: one.room_type.name })}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {option && asked && <GuestForm key={option.room_type.id} roomType={option.room_type.id} stay={asked} />}
    </>
  );
}

function GuestForm({ roomType, stay }: { roomType: string; stay: StayForm }) {
  const { t } = useI18n();
  const { busy, error, run } = useAction(HOSPITALITY_ERRORS);
  const [rooms] = useLoad(() => allPages<Room>('/v1/hospitality/rooms'), 'rooms');
  const [guest, setGuest] = useState({ name: '', phone: '', email: '', notes: '', room: '' });
  const set = (name: keyof typeof guest) => (value: string) => setGuest((old) => ({ ...old, [name]: value }));
  const ofType = rooms.kind === 'done' ? rooms.value.filter((room) => room.room_type === roomType) : [];
  const book = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const created = await api.post<Reservation>('/v1/hospitality/reservations', {
        room_type: roomType,
        ...(guest.room ? { room: guest.room } : {}),
        ...stayOf(stay),
        guest: {
          name: guest.name.trim(),
          ...(guest.phone.trim() ? { phone: guest.phone.trim() } : {}),
          ...(guest.email.trim() ? { email: guest.email.trim() } : {}),
        },
        ...(guest.notes.trim() ? { notes: guest.notes.trim() } : {}),
      });
      navigate('hospitality', ['reservations', created.id]);
    });
  };
  return (
    <form className="card stack" onSubmit={book} data-testid="guest-form">
      <h2>{t('hospGuest')}</h2>
      <div className="filters">
        <TextField
          label={t('hospGuestName')}
          value={guest.name}
          onChange={set('name')}
          required
          maxLength={200}
          autoComplete="off"
          testId="guest-name"
        />
        <TextField
          label={t('hospPhone')}
          type="tel"
          value={guest.phone}
          onChange={set('phone')}
          maxLength={40}
          testId="guest-phone"
        />
        <TextField
          label={t('hospEmail')}
          type="email"
          value={guest.email}
          onChange={set('email')}
          maxLength={200}
          testId="guest-email"
        />
        <SelectField
          label={t('hospRoom')}
          value={guest.room}
          onChange={set('room')}
          options={[['', t('hospAnyFreeRoom')], ...ofType.map((room) => [room.id, room.number] as const)]}
          testId="guest-room"
        />
      </div>
      <TextField
        label={t('hospNotes')}
        value={guest.notes}
        onChange={set('notes')}
        rows={2}
        testId="guest-notes"
      />
      <Message text={error} />
      <div>
        <button type="submit" className="primary" disabled={busy} data-testid="book">
          {t('hospBook')}
        </button>
      </div>
    </form>
  );
}
