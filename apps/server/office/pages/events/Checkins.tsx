/**
 * The check-in list: an event's admissions, newest first, by door and time,
 * read with the API's cursors; a ticket that a second door admitted too
 * (both offline) is marked with that door and time.
 */
import { useState, type FormEvent } from 'react';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { RowTable } from '../../components/DataTable.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useI18n } from '../../i18n/index.ts';
import { formatDateTime } from '../../shared.ts';
import type { CheckinRecord } from './model.ts';
import { useEvents } from './parts.tsx';

export function Checkins() {
  const { t } = useI18n();
  const events = useEvents();
  const [draft, setDraft] = useState({ event: '', door: '' });
  const [applied, setApplied] = useState({ event: '', door: '' });
  // The newest event on sale until one is chosen (the API lists one event's admissions).
  const event = applied.event || (events.find((one) => one.status === 'published') ?? events[0])?.id || '';
  const apply = (submitted: FormEvent) => {
    submitted.preventDefault();
    setApplied({ event: draft.event, door: draft.door.trim() });
  };
  return (
    <>
      <p className="muted small">{t('evCheckinsLead')}</p>
      <form className="filters" onSubmit={apply} role="search" aria-label={t('evFilterCheckins')}>
        <SelectField
          label={t('evEvent')}
          value={draft.event || event}
          onChange={(value) => setDraft((old) => ({ ...old, event: value }))}
          options={events.map((one) => [one.id, one.name] as const)}
          testId="checkin-event"
        />
        <TextField
          label={t('evDoorFilter')}
          value={draft.door}
          onChange={(value) => setDraft((old) => ({ ...old, door: value }))}
          testId="checkin-door"
        />
        <div className="filter-actions row">
          <button type="submit" data-testid="apply-checkin-filters">
            {t('evFilter')}
          </button>
        </div>
      </form>
      {event ? <CheckinList event={event} door={applied.door} /> : <p className="muted">{t('evNoEvents')}</p>}
    </>
  );
}

function CheckinList({ event, door }: { event: string; door: string }) {
  const { t } = useI18n();
  const list = useCursorList<CheckinRecord>('/v1/events/checkins', { event, door });
  return (
    <CursorListView list={list} empty={t('evNoCheckins')}>
      {(rows) => (
        <RowTable
          rows={rows}
          testId="checkin-list"
          rowTestId="checkin"
          caption={t('evTabCheckins')}
          columns={[
            {
              label: t('evTime'),
              // The mark comes first, so a phone shows it before the table scrolls.
              cell: (row) => (
                <>
                  {formatDateTime(row.at * 1000)}
                  {row.double_admissions.length > 0 && (
                    <>
                      <br />
                      <span className="badge ev-double">{t('evDouble')}</span>
                    </>
                  )}
                </>
              ),
              nowrap: true,
            },
            { label: t('evDoor'), cell: (row) => row.door },
            { label: t('evTicket'), cell: (row) => <code>{row.ticket}</code> },
            {
              label: t('evDoubleAdmission'),
              cell: (row) =>
                row.double_admissions.length === 0 ? (
                  '—'
                ) : (
                  <span data-testid="double-admission">
                    {row.double_admissions
                      .map((double) =>
                        t('evDoubleAt', { door: double.door, time: formatDateTime(double.at * 1000) }),
                      )
                      .join('; ')}
                  </span>
                ),
            },
          ]}
        />
      )}
    </CursorListView>
  );
}
