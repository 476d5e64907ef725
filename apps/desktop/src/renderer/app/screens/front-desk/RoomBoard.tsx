/**
 * The room board: each room's number, type and state by floor. A state is a
 * colour and always its word too (a mark for each, so no one reads colour alone).
 */
import { shopDate } from '@tz/core';
import type { DeskView } from '../../../data/api.ts';
import { useI18n } from '../../../i18n/index.tsx';
import type { MessageKey } from '../../../i18n/en.ts';

/** A mark beside each state's word, for a screen seen in poor light or by a colour-blind eye. */
const MARKS: Record<string, string> = {
  vacant_clean: '✓',
  vacant_dirty: '~',
  occupied: '●',
  arriving: '→',
  departing: '←',
  out_of_order: '✕',
};

export function RoomBoard({
  view,
  picked,
  onPick,
}: {
  view: DeskView;
  picked: string | null;
  onPick: (room: string) => void;
}) {
  const { t } = useI18n();
  return (
    <section className="room-board" data-testid="room-board" aria-label={t('deskRooms')}>
      <h3>
        {t('deskRooms')} <span className="muted">{t('deskToday', { date: shopDate(view.today) })}</span>
      </h3>
      {view.floors.map((floor) => (
        <div key={floor.floor} className="floor">
          <h4>{floor.floor === '' ? t('deskNoFloor') : t('deskFloor', { floor: floor.floor })}</h4>
          <ul className="rooms">
            {floor.rooms.map((room) => (
              <li key={room.id}>
                <button
                  type="button"
                  className={`room state-${room.state}${room.id === picked ? ' picked' : ''}`}
                  aria-pressed={room.id === picked}
                  onClick={() => onPick(room.id)}
                  data-testid="room"
                  data-room={room.number}
                  data-state={room.state}
                >
                  <strong className="number">{room.number}</strong>
                  <span className="type">{room.typeName}</span>
                  <span className="state">
                    <span aria-hidden="true">{MARKS[room.state]}</span>{' '}
                    {t(`roomState_${room.state}` as MessageKey)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
