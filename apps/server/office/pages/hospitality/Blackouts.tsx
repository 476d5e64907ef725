/**
 * Blackouts: nights closed for a room, a room type or the whole property, with
 * their reason; a new one is refused, naming them, while reservations hold rooms
 * there; deleting opens the nights again.
 */
import { useState, type FormEvent } from 'react';
import { allPages, api } from '../../api.ts';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { RowTable } from '../../components/DataTable.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { Message } from '../../shared.ts';
import { dayLabel, roomName, type Blackout, type Room, type RoomType } from './model.ts';
import { InTheWay, useStayAction } from './parts.tsx';

type Scope = 'property' | 'room_type' | 'room';

export function Blackouts() {
  const { t, language } = useI18n();
  const list = useCursorList<Blackout>('/v1/hospitality/blackouts');
  const [setup] = useLoad(
    () =>
      Promise.all([
        allPages<RoomType>('/v1/hospitality/room-types'),
        allPages<Room>('/v1/hospitality/rooms'),
      ]),
    'blackout setup',
  );
  const [types, rooms] = setup.kind === 'done' ? setup.value : [[], []];
  const { busy, error, run, inTheWay } = useStayAction();
  const [scope, setScope] = useState<Scope>('property');
  const [target, setTarget] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [reason, setReason] = useState('');
  const targets: ReadonlyArray<readonly [string, string]> =
    scope === 'room_type'
      ? types.map((type) => [type.id, type.name] as const)
      : scope === 'room'
        ? rooms.map((room) => [room.id, roomName(room, types)] as const)
        : [];
  const chosen = targets.some(([id]) => id === target) ? target : (targets[0]?.[0] ?? '');
  const create = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api.post('/v1/hospitality/blackouts', {
        ...(scope === 'property' ? {} : { [scope]: chosen }),
        starts_on: from,
        ends_on: to,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      });
      setReason('');
      list.reload();
    });
  };
  const remove = (id: string) =>
    void run(async () => {
      await api.delete(`/v1/hospitality/blackouts/${id}`);
      list.reload();
    });
  const closes = (blackout: Blackout) =>
    blackout.room
      ? roomName(
          rooms.find((room) => room.id === blackout.room),
          types,
        )
      : blackout.room_type
        ? (types.find((type) => type.id === blackout.room_type)?.name ?? '')
        : t('hospWholeProperty');
  return (
    <>
      <form className="card stack" onSubmit={create} data-testid="new-blackout">
        <h2>{t('hospNewBlackout')}</h2>
        <p className="muted small">{t('hospBlackoutLead')}</p>
        <div className="filters">
          <SelectField<Scope>
            label={t('hospCloses')}
            value={scope}
            onChange={setScope}
            options={[
              ['property', t('hospWholeProperty')],
              ['room_type', t('hospRoomType')],
              ['room', t('hospRoom')],
            ]}
            testId="blackout-scope"
          />
          {scope !== 'property' && (
            <SelectField
              label={scope === 'room' ? t('hospRoom') : t('hospRoomType')}
              value={chosen}
              onChange={setTarget}
              options={targets}
              testId="blackout-target"
            />
          )}
          <TextField
            label={t('hospFirstNight')}
            type="date"
            value={from}
            onChange={setFrom}
            required
            testId="blackout-from"
          />
          <TextField
            label={t('hospLastNight')}
            type="date"
            value={to}
            onChange={setTo}
            required
            testId="blackout-to"
          />
          <TextField
            label={t('hospReason')}
            value={reason}
            onChange={setReason}
            maxLength={200}
            testId="blackout-reason"
          />
        </div>
        <div className="stack" data-testid="blackout-error">
          <Message text={error} />
          <InTheWay ids={inTheWay} />
        </div>
        <div>
          <button type="submit" className="primary" disabled={busy} data-testid="create-blackout">
            {t('hospCloseNights')}
          </button>
        </div>
      </form>
      <CursorListView list={list} empty={t('hospNoBlackouts')}>
        {(rows) => (
          <RowTable
            rows={rows}
            testId="blackout-list"
            rowTestId="blackout"
            caption={t('hospTabBlackouts')}
            columns={[
              { label: t('hospCloses'), cell: closes },
              { label: t('hospFirstNight'), cell: (row) => dayLabel(row.starts_on, language), nowrap: true },
              { label: t('hospLastNight'), cell: (row) => dayLabel(row.ends_on, language), nowrap: true },
              { label: t('hospReason'), cell: (row) => row.reason ?? '' },
              {
                label: t('hospActions'),
                cell: (row) => (
                  <button
                    type="button"
                    className="ghost danger"
                    disabled={busy}
                    onClick={() => remove(row.id)}
                    aria-label={`${t('hospDelete')}: ${t('hospFirstNight')} ${dayLabel(row.starts_on, language)}`}
                    data-testid="delete-blackout"
                  >
                    {t('hospDelete')}
                  </button>
                ),
              },
            ]}
          />
        )}
      </CursorListView>
    </>
  );
}
