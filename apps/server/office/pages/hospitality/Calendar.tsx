/**
 * The calendar: rooms down (by type), dates across (two to four weeks), each
 * stay a bar from its arrival to its departure and closed nights hatched. With a
 * pointer, a stay dragged onto another room of its type moves there through
 * `/assign`; from the keyboard each bar is a link to its reservation, where the
 * room is moved.
 */
import { useRef, useState, type PointerEvent } from 'react';
import { addDays, dayNumber, weekdayOf } from '@tz/core/hospitality/stay';
import { eastAfricaDate } from '@tz/core/time';
import { allPages, api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { SelectField } from '../../components/SelectField.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { PageLink } from '../../router.tsx';
import { Message } from '../../shared.ts';
import {
  datesFrom,
  dayLabel,
  HOSPITALITY_ERRORS,
  STATUS_WORDS,
  WEEKDAY_WORDS,
  type Blackout,
  type Reservation,
  type Room,
  type RoomType,
} from './model.ts';
import { stayDates } from './parts.tsx';

const SPANS = ['14', '21', '28'] as const;
/** Stays that began this many days before the first date still show (the list is filtered by arrival). */
const LOOK_BACK_DAYS = 31;
const SHOWN: ReadonlyArray<Reservation['status']> = ['pending', 'confirmed', 'checked_in', 'checked_out'];

interface Dragging {
  id: string;
  roomType: string;
  room: string | null;
  x: number;
  y: number;
  moved: boolean;
  bar: HTMLElement;
}

export function Calendar() {
  const { t, language } = useI18n();
  const [start, setStart] = useState(() => eastAfricaDate(new Date()));
  const [span, setSpan] = useState<(typeof SPANS)[number]>('14');
  const days = Number(span);
  const end = addDays(start, days);
  const [loaded, reload] = useLoad(
    () =>
      Promise.all([
        allPages<RoomType>('/v1/hospitality/room-types'),
        allPages<Room>('/v1/hospitality/rooms'),
        allPages<Reservation>(
          `/v1/hospitality/reservations?arrival_gte=${addDays(start, -LOOK_BACK_DAYS)}&arrival_lte=${end}`,
        ),
        allPages<Blackout>('/v1/hospitality/blackouts'),
      ]),
    `${start} ${days}`,
  );
  const { error, run } = useAction(HOSPITALITY_ERRORS);
  const dragging = useRef<Dragging | null>(null);
  // When the last drag ended: the click that may follow it is no click on the stay's link.
  const draggedAt = useRef(0);
  const [over, setOver] = useState<string | null>(null);
  const origin = dayNumber(start) ?? 0;
  // A date's place across the calendar, as a share of its width: a stay runs from midday to midday.
  const at = (date: string) => Math.min(1, Math.max(0, ((dayNumber(date) ?? origin) - origin + 0.5) / days));
  const rowUnder = (x: number, y: number) =>
    document
      .elementsFromPoint(x, y)
      .find(
        (element): element is HTMLElement =>
          element instanceof HTMLElement && element.dataset.room !== undefined,
      );

  const down = (event: PointerEvent<HTMLElement>, stay: Reservation) => {
    if (event.button !== 0 || event.pointerType === 'touch') return;
    dragging.current = {
      id: stay.id,
      roomType: stay.room_type,
      room: stay.room,
      x: event.clientX,
      y: event.clientY,
      moved: false,
      bar: event.currentTarget,
    };
  };
  const move = (event: PointerEvent<HTMLElement>) => {
    const drag = dragging.current;
    if (!drag) return;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.abs(dy) + Math.abs(event.clientX - drag.x) < 6) return;
    if (!drag.moved) {
      // Captured only once it is a drag: a plain click must still reach the stay's link.
      drag.bar.setPointerCapture(event.pointerId);
      drag.moved = true;
    }
    drag.bar.style.transform = `translateY(${dy}px)`;
    drag.bar.classList.add('dragging');
    const row = rowUnder(event.clientX, event.clientY);
    setOver(row && row.dataset.roomType === drag.roomType ? row.dataset.room! : null);
  };
  const up = (event: PointerEvent<HTMLElement>) => {
    const drag = dragging.current;
    dragging.current = null;
    setOver(null);
    if (!drag) return;
    drag.bar.style.transform = '';
    drag.bar.classList.remove('dragging');
    if (!drag.moved) return;
    draggedAt.current = Date.now();
    const row = rowUnder(event.clientX, event.clientY);
    const room = row?.dataset.room;
    if (row && room && row.dataset.roomType === drag.roomType && room !== drag.room)
      void run(async () => {
        await api.post(`/v1/hospitality/reservations/${drag.id}/assign`, { room });
        reload();
      });
  };
  const cancel = () => {
    const drag = dragging.current;
    dragging.current = null;
    setOver(null);
    if (drag) {
      drag.bar.style.transform = '';
      drag.bar.classList.remove('dragging');
    }
  };

  const dates = datesFrom(start, days);
  const today = eastAfricaDate(new Date());
  return (
    <>
      <div className="filters">
        <TextField
          label={t('hospFrom')}
          type="date"
          value={start}
          onChange={(value) => value && setStart(value)}
          required
          testId="calendar-start"
        />
        <SelectField
          label={t('hospDays')}
          value={span}
          onChange={setSpan}
          options={SPANS.map((one) => [one, t('hospDaysCount', { count: one })] as const)}
          testId="calendar-span"
        />
        <div className="row">
          <button type="button" onClick={() => setStart(addDays(start, -7))} data-testid="calendar-earlier">
            ← {t('hospWeekEarlier')}
          </button>
          <button type="button" onClick={() => setStart(today)}>
            {t('hospToday')}
          </button>
          <button type="button" onClick={() => setStart(addDays(start, 7))} data-testid="calendar-later">
            {t('hospWeekLater')} →
          </button>
        </div>
      </div>
      <p className="muted small">{t('hospCalendarLead')}</p>
      <Message text={error} />
      {loaded.kind === 'loading' && <Loading />}
      {loaded.kind === 'failed' && <Failed error={loaded.error} onRetry={reload} />}
      {loaded.kind === 'done' &&
        (() => {
          const [types, rooms, stays, blackouts] = loaded.value;
          const shown = stays.filter(
            (stay) =>
              SHOWN.includes(stay.status) &&
              stay.arrival &&
              stay.departure &&
              stay.departure > start &&
              stay.arrival < end,
          );
          const unassigned = shown.filter((stay) => !stay.room);
          return (
            <div
              className="table-wrap cal-wrap"
              tabIndex={0}
              role="region"
              aria-label={t('hospCalendarOf', {
                from: dayLabel(start, language),
                to: dayLabel(addDays(end, -1), language),
              })}
              data-testid="calendar"
            >
              <div className="cal" style={{ ['--days' as string]: days }}>
                <div className="cal-row cal-head" aria-hidden="true">
                  <span className="cal-room" />
                  <div className="cal-dates">
                    {dates.map((date) => (
                      <span key={date} className={date === today ? 'today' : undefined}>
                        {t(WEEKDAY_WORDS[weekdayOf(date)]!)}
                        <br />
                        {dayLabel(date, language, false)}
                      </span>
                    ))}
                  </div>
                </div>
                {types.map((type) => (
                  <div key={type.id} role="group" aria-label={type.name} className="cal-type">
                    <div className="cal-type-name">{type.name}</div>
                    {rooms
                      .filter((room) => room.room_type === type.id)
                      .sort((a, b) => a.number.localeCompare(b.number, undefined, { numeric: true }))
                      .map((room) => {
                        const closed = blackouts.filter(
                          (b) =>
                            (b.room ? b.room === room.id : !b.room_type || b.room_type === type.id) &&
                            addDays(b.ends_on, 1) > start &&
                            b.starts_on < end,
                        );
                        return (
                          <div
                            key={room.id}
                            className={`cal-row${over === room.id ? ' over' : ''}`}
                            data-room={room.id}
                            data-room-type={type.id}
                            data-testid="calendar-row"
                          >
                            <span className="cal-room">{room.number}</span>
                            <ul
                              className="cal-track"
                              aria-label={t('hospRoomNamed', { number: room.number })}
                            >
                              {closed.map((b) => (
                                <li
                                  key={b.id}
                                  className="cal-closed"
                                  style={{
                                    left: `${at(b.starts_on) * 100}%`,
                                    width: `${(at(addDays(b.ends_on, 1)) - at(b.starts_on)) * 100}%`,
                                  }}
                                  data-testid="calendar-closed"
                                >
                                  <span className="sr-only">
                                    {t('hospClosedNights', {
                                      dates: `${dayLabel(b.starts_on, language)} – ${dayLabel(b.ends_on, language)}`,
                                    })}
                                  </span>
                                </li>
                              ))}
                              {shown
                                .filter((stay) => stay.room === room.id)
                                .map((stay) => (
                                  <li
                                    key={stay.id}
                                    className={`cal-stay stay-${stay.status}`}
                                    style={{
                                      left: `${at(stay.arrival!) * 100}%`,
                                      width: `${(at(stay.departure!) - at(stay.arrival!)) * 100}%`,
                                    }}
                                    onPointerDown={(event) => down(event, stay)}
                                    onPointerMove={move}
                                    onPointerUp={up}
                                    onPointerCancel={cancel}
                                    onClickCapture={(event) => {
                                      if (Date.now() - draggedAt.current > 500) return;
                                      event.preventDefault();
                                      event.stopPropagation();
                                    }}
                                    data-testid="calendar-stay"
                                    data-id={stay.id}
                                  >
                                    <PageLink
                                      page="hospitality"
                                      rest={['reservations', stay.id]}
                                      draggable={false}
                                      aria-label={`${stay.guest.name}, ${stayDates(stay, language)}, ${t(STATUS_WORDS[stay.status])}`}
                                    >
                                      {stay.guest.name}
                                    </PageLink>
                                  </li>
                                ))}
                            </ul>
                          </div>
                        );
                      })}
                  </div>
                ))}
              </div>
              {unassigned.length > 0 && (
                <div className="stack cal-unassigned" data-testid="calendar-unassigned">
                  <h3>{t('hospNoRoomYet')}</h3>
                  <ul>
                    {unassigned.map((stay) => (
                      <li key={stay.id}>
                        <PageLink page="hospitality" rest={['reservations', stay.id]}>
                          {stay.guest.name}, {stayDates(stay, language)}
                        </PageLink>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </div>
          );
        })()}
    </>
  );
}
