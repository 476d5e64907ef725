/** An event's details: create a draft, or edit one; times are typed in the event's time zone. */
import { useState, type FormEvent, type ReactNode } from 'react';
import { EAST_AFRICA_TIME_ZONE, EVENT_TIME_ZONES } from '@tz/core';
import { api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { SelectField } from '../../components/SelectField.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useI18n } from '../../i18n/index.ts';
import { navigate, PageLink } from '../../router.tsx';
import { formatCount, Message } from '../../shared.ts';
import { EVENT_ERRORS, requiredTime, timeField, typedCount, typedTime, type TicketedEvent } from './model.ts';
import { EventBadge } from './parts.tsx';

type TimeZone = (typeof EVENT_TIME_ZONES)[number];

export function EventForm({
  event,
  onSaved,
  children,
}: {
  event: TicketedEvent | null;
  onSaved: () => void;
  /** The event's status and its moves, under its details. */
  children?: ReactNode;
}) {
  const { t } = useI18n();
  const { busy, error, run } = useAction(EVENT_ERRORS);
  const [saved, setSaved] = useState(false);
  const [form, setForm] = useState({
    name: event?.name ?? '',
    venue: event?.venue ?? '',
    starts_at: timeField(event?.starts_at ?? null),
    ends_at: timeField(event?.ends_at ?? null),
    doors_open_at: timeField(event?.doors_open_at ?? null),
    time_zone: (event?.time_zone ?? EAST_AFRICA_TIME_ZONE) as TimeZone,
    capacity: event ? String(event.capacity) : '',
    description: event?.description ?? '',
  });
  const set =
    <K extends keyof typeof form>(name: K) =>
    (value: (typeof form)[K]) => {
      setSaved(false);
      setForm((old) => ({ ...old, [name]: value }));
    };
  const editable = !event || event.status === 'draft' || event.status === 'published';
  const submit = (submitted: FormEvent) => {
    submitted.preventDefault();
    void run(async () => {
      const when = t('evTimeInvalid');
      const body = {
        name: form.name.trim(),
        venue: form.venue.trim(),
        description: form.description.trim() || null,
        starts_at: requiredTime(form.starts_at, 'starts_at', when),
        ends_at: requiredTime(form.ends_at, 'ends_at', when),
        doors_open_at: typedTime(form.doors_open_at, 'doors_open_at', when),
        time_zone: form.time_zone,
        capacity: typedCount(form.capacity, 'capacity', t('evCountInvalid'), true)!,
      };
      if (event) {
        await api.patch(`/v1/events/${event.id}`, body);
        setSaved(true);
        onSaved();
      } else {
        const created = await api.post<TicketedEvent>('/v1/events', body);
        navigate('events', ['events', created.id]);
      }
    });
  };
  return (
    <>
      <PageLink page="events" rest={['events']}>
        ← {t('evAllEvents')}
      </PageLink>
      <section className="card stack" aria-labelledby="event-title">
        <div className="card-head">
          <h2 id="event-title">{event ? event.name : t('evNewEvent')}</h2>
          {event && <EventBadge status={event.status} />}
        </div>
        {event && (
          <p className="muted small" data-testid="event-taken">
            {t('evTaken')}: {formatCount(event.taken)} / {formatCount(event.capacity)}
          </p>
        )}
        <form className="stack" onSubmit={submit} data-testid="event-form">
          <fieldset className="ev-fields" disabled={!editable}>
            <TextField
              label={t('evName')}
              value={form.name}
              onChange={set('name')}
              required
              maxLength={200}
              testId="event-name"
            />
            <TextField
              label={t('evVenue')}
              value={form.venue}
              onChange={set('venue')}
              required
              maxLength={200}
              testId="event-venue"
            />
            <TextField
              label={t('evStarts')}
              type="datetime-local"
              value={form.starts_at}
              onChange={set('starts_at')}
              required
              aria-describedby="event-zone"
              testId="event-starts"
            />
            <TextField
              label={t('evEnds')}
              type="datetime-local"
              value={form.ends_at}
              onChange={set('ends_at')}
              required
              aria-describedby="event-zone"
              testId="event-ends"
            />
            <TextField
              label={t('evDoorsOpen')}
              type="datetime-local"
              value={form.doors_open_at}
              onChange={set('doors_open_at')}
              aria-describedby="event-doors-hint event-zone"
              testId="event-doors"
            />
            <SelectField<TimeZone>
              label={t('evTimeZone')}
              value={form.time_zone}
              onChange={set('time_zone')}
              options={EVENT_TIME_ZONES.map((zone) => [zone, zone] as const)}
              aria-describedby="event-zone"
              testId="event-time-zone"
            />
            <TextField
              label={t('evCapacity')}
              value={form.capacity}
              onChange={set('capacity')}
              required
              inputMode="numeric"
              aria-describedby="event-capacity-hint"
              testId="event-capacity"
            />
            <div className="ev-wide">
              <TextField
                label={t('evDescription')}
                value={form.description}
                onChange={set('description')}
                rows={2}
                testId="event-description"
              />
            </div>
          </fieldset>
          <ul className="muted small ev-hints">
            <li id="event-zone" data-testid="event-zone">
              {t('evTimesIn', { zone: form.time_zone })}
            </li>
            <li id="event-doors-hint">{t('evDoorsOpenHint')}</li>
            <li id="event-capacity-hint">{t('evCapacityHint')}</li>
          </ul>
          <Message text={error} />
          {saved && (
            <p className="ok" role="status" data-testid="event-saved">
              {t('saved')}
            </p>
          )}
          {editable && (
            <div className="row">
              <button type="submit" className="primary" disabled={busy} data-testid="save-event">
                {event ? t('save') : t('evNewEvent')}
              </button>
            </div>
          )}
        </form>
        {children}
      </section>
    </>
  );
}
