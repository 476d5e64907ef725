/**
 * Rooms by floor: a new room (number, floor, type), each room's housekeeping
 * changed in place (as core's table allows: out of order comes back dirty),
 * its number, floor and type edited, and archived after a question.
 */
import { useState, type FormEvent } from 'react';
import { HOUSEKEEPING_TRANSITIONS, type HousekeepingStatus } from '@tz/core';
import { allPages, api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { RowTable } from '../../components/DataTable.tsx';
import { OfficeDialog } from '../../components/OfficeDialog.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { Message } from '../../shared.ts';
import { HOSPITALITY_ERRORS, HOUSEKEEPING_WORDS, type Room, type RoomType } from './model.ts';

export function Rooms() {
  const { t } = useI18n();
  const [loaded, reload] = useLoad(
    () =>
      Promise.all([
        allPages<RoomType>('/v1/hospitality/room-types'),
        allPages<Room>('/v1/hospitality/rooms'),
      ]),
    'rooms',
  );
  const [editing, setEditing] = useState<Room | null>(null);
  const [archiving, setArchiving] = useState<Room | null>(null);
  if (loaded.kind === 'loading') return <Loading />;
  if (loaded.kind === 'failed') return <Failed error={loaded.error} onRetry={reload} />;
  const [types, rooms] = loaded.value;
  const floors = [...new Set(rooms.map((room) => room.floor ?? ''))].sort((a, b) =>
    a.localeCompare(b, undefined, { numeric: true }),
  );
  const typeName = (id: string) => types.find((type) => type.id === id)?.name ?? '';
  return (
    <>
      {types.length === 0 ? (
        <p className="muted">{t('hospRoomsNeedType')}</p>
      ) : (
        <RoomForm types={types} room={null} onSaved={reload} />
      )}
      {rooms.length === 0 && <p className="muted">{t('hospNoRooms')}</p>}
      {floors.map((floor) => (
        <section key={floor} className="stack" aria-labelledby={`floor-${floor}`} data-testid="floor">
          <h2 id={`floor-${floor}`}>{floor ? t('hospFloorNamed', { floor }) : t('hospNoFloor')}</h2>
          <RowTable
            rows={rooms
              .filter((room) => (room.floor ?? '') === floor)
              .sort((a, b) => a.number.localeCompare(b.number, undefined, { numeric: true }))}
            testId="room-list"
            rowTestId="room"
            caption={floor ? t('hospFloorNamed', { floor }) : t('hospNoFloor')}
            columns={[
              { label: t('hospRoomNumber'), cell: (room) => room.number },
              { label: t('hospRoomType'), cell: (room) => typeName(room.room_type) },
              {
                label: t('hospHousekeeping'),
                cell: (room) => <Housekeeping room={room} onChanged={reload} />,
              },
              {
                label: t('hospActions'),
                nowrap: true,
                cell: (room) => (
                  <div className="row-actions">
                    <button
                      type="button"
                      onClick={() => setEditing(room)}
                      aria-label={`${t('edit')}: ${t('hospRoomNamed', { number: room.number })}`}
                      data-testid="edit-room"
                    >
                      {t('edit')}
                    </button>
                    <button
                      type="button"
                      className="ghost danger"
                      onClick={() => setArchiving(room)}
                      aria-label={`${t('archive')}: ${t('hospRoomNamed', { number: room.number })}`}
                      data-testid="archive-room"
                    >
                      {t('archive')}
                    </button>
                  </div>
                ),
              },
            ]}
          />
        </section>
      ))}
      {editing && (
        <OfficeDialog
          title={t('hospEditRoom', { number: editing.number })}
          onClose={() => setEditing(null)}
          testId="room-dialog"
        >
          <RoomForm
            types={types}
            room={editing}
            onSaved={() => {
              setEditing(null);
              reload();
            }}
          />
        </OfficeDialog>
      )}
      {archiving && (
        <ConfirmDialog
          title={t('hospArchiveRoom', { number: archiving.number })}
          lead={t('hospArchiveRoomLead')}
          confirm={t('archive')}
          words={HOSPITALITY_ERRORS}
          onClose={() => setArchiving(null)}
          onConfirm={async () => {
            await api.delete(`/v1/hospitality/rooms/${archiving.id}`);
            setArchiving(null);
            reload();
          }}
        />
      )}
    </>
  );
}

/** A housekeeping status, changed to one core's table allows from it. */
function Housekeeping({ room, onChanged }: { room: Room; onChanged: () => void }) {
  const { t } = useI18n();
  const { busy, error, run } = useAction(HOSPITALITY_ERRORS);
  const choices: HousekeepingStatus[] = [room.housekeeping, ...HOUSEKEEPING_TRANSITIONS[room.housekeeping]];
  return (
    <>
      <select
        value={room.housekeeping}
        disabled={busy}
        aria-label={t('hospHousekeepingOf', { number: room.number })}
        className={`housekeeping-${room.housekeeping}`}
        data-testid="housekeeping"
        onChange={(event) =>
          void run(async () => {
            await api.patch(`/v1/hospitality/rooms/${room.id}`, { housekeeping: event.target.value });
            onChanged();
          })
        }
      >
        {choices.map((status) => (
          <option key={status} value={status}>
            {t(HOUSEKEEPING_WORDS[status])}
          </option>
        ))}
      </select>
      <Message text={error} />
    </>
  );
}

function RoomForm({ types, room, onSaved }: { types: RoomType[]; room: Room | null; onSaved: () => void }) {
  const { t } = useI18n();
  const { busy, error, run } = useAction(HOSPITALITY_ERRORS);
  const [number, setNumber] = useState(room?.number ?? '');
  const [floor, setFloor] = useState(room?.floor ?? '');
  const [type, setType] = useState(room?.room_type ?? types[0]!.id);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const body = { number: number.trim(), floor: floor.trim() || null, room_type: type };
      if (room) await api.patch(`/v1/hospitality/rooms/${room.id}`, body);
      else {
        await api.post('/v1/hospitality/rooms', body);
        setNumber('');
      }
      onSaved();
    });
  };
  return (
    <form
      className={room ? 'stack' : 'card stack'}
      onSubmit={submit}
      data-testid={room ? 'room-form' : 'new-room'}
    >
      {!room && <h2>{t('hospNewRoom')}</h2>}
      <div className="filters">
        <TextField
          label={t('hospRoomNumber')}
          value={number}
          onChange={setNumber}
          required
          maxLength={20}
          testId="room-number"
        />
        <TextField
          label={t('hospFloor')}
          value={floor}
          onChange={setFloor}
          maxLength={20}
          testId="room-floor"
        />
        <SelectField
          label={t('hospRoomType')}
          value={type}
          onChange={setType}
          options={types.map((one) => [one.id, one.name] as const)}
          testId="room-type"
        />
      </div>
      <Message text={error} />
      <div>
        <button type="submit" className="primary" disabled={busy} data-testid="save-room">
          {room ? t('save') : t('hospAddRoom')}
        </button>
      </div>
    </form>
  );
}
