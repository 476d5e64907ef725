/** F6 and F7 at the desk: move a guest in house to another free room of the type, and mark a room's housekeeping. */
import { useEffect, useState } from 'react';
import { HOUSEKEEPING_STATES, HOUSEKEEPING_STATUSES, canTransition } from '@tz/core';
import type { DeskStay, DeskView } from '../../../data/api.ts';
import { useI18n } from '../../../i18n/index.tsx';
import type { MessageKey } from '../../../i18n/en.ts';
import { Dialog, Message } from '../../components/Dialog.tsx';
import { useNotify } from '../../notices.tsx';
import { refusalText } from '../../refusal.ts';
import { useStore } from '../../store.tsx';

const boardRooms = (view: DeskView) => view.floors.flatMap((floor) => floor.rooms);

export function MoveRoomDialog({
  stay,
  view,
  onClose,
}: {
  stay: DeskStay;
  view: DeskView;
  onClose: () => void;
}) {
  const store = useStore();
  const { t, language } = useI18n();
  const notify = useNotify();
  const [rooms, setRooms] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const numbers = new Map(boardRooms(view).map((room) => [room.id, room.number]));

  useEffect(() => {
    store.roomsFor(stay.id).then(
      (free) => setRooms(free.filter((id) => id !== stay.room)),
      (failure: unknown) => setError(refusalText(language, failure)),
    );
  }, [stay.id]);

  const move = (room: string) =>
    store.moveStay(stay.id, room).then(
      () => {
        notify(t('deskMoved', { guest: stay.guestName, room: numbers.get(room) ?? room }), 'info');
        onClose();
      },
      (failure: unknown) => setError(refusalText(language, failure)),
    );

  return (
    <Dialog title={`${t('deskMoveRoom')}: ${stay.guestName}`} onClose={onClose} testId="move-room">
      <div className="stack">
        <p className="muted">
          {stay.roomNumber ? t('deskRoomNumber', { room: stay.roomNumber }) : t('deskNoRoom')} ·{' '}
          {stay.typeName}
        </p>
        <h4>{t('deskMoveTo')}</h4>
        {rooms !== null && rooms.length === 0 && <Message text={t('deskNoFreeRoom')} />}
        <div className="choices">
          {(rooms ?? []).map((room, index) => (
            <button
              key={room}
              type="button"
              className="big"
              autoFocus={index === 0}
              onClick={() => void move(room)}
              data-testid="move-room-to"
              data-room={numbers.get(room)}
            >
              {numbers.get(room) ?? room}
            </button>
          ))}
        </div>
        <Message text={error} />
      </div>
    </Dialog>
  );
}

export function HousekeepingDialog({
  view,
  room,
  onClose,
}: {
  view: DeskView;
  room: string;
  onClose: () => void;
}) {
  const store = useStore();
  const { t, language } = useI18n();
  const notify = useNotify();
  const [error, setError] = useState<string | null>(null);
  const current = boardRooms(view).find((one) => one.id === room);
  if (!current) return null;
  // Only the moves the housekeeping machine allows (out of order comes back as dirty).
  const next = HOUSEKEEPING_STATUSES.filter((status) =>
    canTransition(HOUSEKEEPING_STATES, current.housekeeping, status),
  );
  const mark = (status: (typeof HOUSEKEEPING_STATUSES)[number]) =>
    store.setHousekeeping(room, status).then(
      () => {
        notify(
          t('deskHousekeepingSet', {
            room: current.number,
            status: t(`housekeeping_${status}` as MessageKey),
          }),
          'info',
        );
        onClose();
      },
      (failure: unknown) => setError(refusalText(language, failure)),
    );
  return (
    <Dialog
      title={`${t('deskHousekeeping')}: ${t('deskRoomNumber', { room: current.number })}`}
      onClose={onClose}
      testId="housekeeping"
    >
      <div className="stack">
        <p className="muted">
          {current.typeName} · {t(`housekeeping_${current.housekeeping}` as MessageKey)}
        </p>
        <div className="choices">
          {next.map((status, index) => (
            <button
              key={status}
              type="button"
              className={status === 'out_of_order' ? 'danger big' : 'big'}
              autoFocus={index === 0}
              onClick={() => void mark(status)}
              data-testid="housekeeping-set"
              data-status={status}
            >
              {t(`housekeeping_${status}` as MessageKey)}
            </button>
          ))}
        </div>
        <Message text={error} />
      </div>
    </Dialog>
  );
}
