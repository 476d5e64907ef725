/**
 * The front desk (a till whose merchant set up the hospitality app): today's
 * arrivals and departures, the guests in house, the room board by floor, and
 * the steps the server refused. A guest or a room is picked with a click (or
 * Tab and Enter); the F-keys act on what is picked, on the first arrival or
 * departure when nothing is. Every step is queued like a sale and shows at once.
 */
import { shopDate } from '@tz/core';
import { useState } from 'react';
import type { DeskConflict, DeskStay, DeskView } from '../../../data/api.ts';
import { formatMoney, useI18n } from '../../../i18n/index.tsx';
import { ServerRefusal } from '../../components/Dialog.tsx';
import { useShortcuts, type KeyAction } from '../../keyboard/shortcuts.ts';
import { useNotify } from '../../notices.tsx';
import { refusalText } from '../../refusal.ts';
import { stayWhen } from './stay-when.ts';
import { useObservable, useStore } from '../../store.tsx';
import type { MessageKey } from '../../../i18n/en.ts';
import { CheckInDialog } from './CheckInDialog.tsx';
import { CheckOutDialog } from './CheckOutDialog.tsx';
import { HousekeepingDialog, MoveRoomDialog } from './RoomDialogs.tsx';
import { RoomBoard } from './RoomBoard.tsx';
import { WalkInDialog } from './WalkInDialog.tsx';

export type DeskDialog =
  | { kind: 'walkIn' }
  | { kind: 'checkIn'; stay: DeskStay; reason?: DeskConflict }
  | { kind: 'checkOut'; stay: DeskStay }
  | { kind: 'move'; stay: DeskStay }
  | { kind: 'housekeeping'; room: string };

export function FrontDeskScreen({ blocked }: { blocked: boolean }) {
  const store = useStore();
  const { t, language } = useI18n();
  const notify = useNotify();
  const view = useObservable<DeskView | null>(store.desk$, null);
  const [picked, setPicked] = useState<string | null>(null);
  const [room, setRoom] = useState<string | null>(null);
  const [dialog, setDialog] = useState<DeskDialog | null>(null);
  const stays = view ? [...view.arrivals, ...view.inHouse] : [];
  const stay = stays.find((one) => one.id === picked) ?? null;
  const arrival = stay && stay.status !== 'checked_in' ? stay : (view?.arrivals[0] ?? null);
  const leaving = stay && stay.status === 'checked_in' ? stay : (view?.departures[0] ?? null);
  const need = (what: MessageKey) => notify(t(what), 'error');
  const actions: Partial<Record<KeyAction, () => void>> = {
    walkIn: () => setDialog({ kind: 'walkIn' }),
    checkIn: () => (arrival ? setDialog({ kind: 'checkIn', stay: arrival }) : need('deskPickGuest')),
    checkOut: () => (leaving ? setDialog({ kind: 'checkOut', stay: leaving }) : need('deskPickGuest')),
    moveRoom: () =>
      stay?.status === 'checked_in' ? setDialog({ kind: 'move', stay }) : need('deskPickGuest'),
    housekeeping: () => (room ? setDialog({ kind: 'housekeeping', room }) : need('deskPickRoom')),
  };
  useShortcuts('desk', !blocked && !dialog && view !== null, () => ({}), actions);
  if (!view) return <div className="splash">{t('deskTab')}</div>;

  const pickRoom = (id: string) => {
    setRoom(id);
    const holder = view.floors.flatMap((floor) => floor.rooms).find((one) => one.id === id)?.stay;
    if (holder) setPicked(holder);
  };
  const resolve = (conflict: DeskConflict) => {
    const refused = stays.find((one) => one.id === conflict.reservation);
    if (conflict.type === 'reservation.check_in' && refused && refused.status !== 'checked_in')
      setDialog({ kind: 'checkIn', stay: refused, reason: conflict });
    else if (refused?.status === 'checked_in') setDialog({ kind: 'move', stay: refused });
    else
      void store.dismissConflict(conflict).catch((e: unknown) => notify(refusalText(language, e), 'error'));
  };

  return (
    <div className="desk" data-testid="desk-screen">
      <section className="desk-left">
        <div className="desk-actions" role="toolbar">
          <button type="button" className="primary" onClick={actions.walkIn} data-testid="desk-walk-in">
            {t('deskWalkIn')} <kbd>F2</kbd>
          </button>
          <button type="button" onClick={actions.checkIn} data-testid="desk-check-in">
            {t('deskCheckIn')} <kbd>F3</kbd>
          </button>
          <button type="button" onClick={actions.checkOut} data-testid="desk-check-out">
            {t('deskCheckOut')} <kbd>F4</kbd>
          </button>
          <button type="button" onClick={actions.moveRoom} data-testid="desk-move">
            {t('deskMoveRoom')} <kbd>F6</kbd>
          </button>
          <button type="button" onClick={actions.housekeeping} data-testid="desk-housekeeping">
            {t('deskHousekeeping')} <kbd>F7</kbd>
          </button>
        </div>
        {view.conflicts.length > 0 && (
          <section className="desk-conflicts" data-testid="desk-conflicts" aria-live="polite">
            <h3>{t('deskConflicts')}</h3>
            <ul>
              {view.conflicts.map((conflict) => (
                <li
                  key={conflict.command}
                  data-testid="desk-conflict"
                  data-mine={conflict.mine ? 'yes' : 'no'}
                  data-reservation={conflict.reservation ?? ''}
                >
                  <strong>
                    {t(conflict.mine ? 'deskConflict' : 'deskConflictElsewhere', {
                      step: t(`command_${conflict.type.replace('.', '_')}` as MessageKey),
                      guest: conflict.guestName ?? conflict.reservation ?? '',
                      room: conflict.roomNumber ?? '—',
                      till: conflict.tillName ?? '',
                    })}
                  </strong>
                  {conflict.holderName && <p>{t('deskConflictHolder', { holder: conflict.holderName })}</p>}
                  {conflict.mine && (
                    <ServerRefusal refusal={{ code: conflict.code, message: conflict.message }} />
                  )}
                  <div className="row">
                    {conflict.mine && (
                      <button
                        type="button"
                        onClick={() => resolve(conflict)}
                        data-testid="desk-conflict-resolve"
                      >
                        {t('deskConflictResolve')}
                      </button>
                    )}
                    <button
                      type="button"
                      onClick={() =>
                        void store
                          .dismissConflict(conflict)
                          .catch((e: unknown) => notify(refusalText(language, e), 'error'))
                      }
                      data-testid="desk-conflict-done"
                    >
                      {t('deskConflictDone')}
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          </section>
        )}
        <StayList
          title={t('deskArrivals')}
          stays={view.arrivals}
          picked={picked}
          onPick={setPicked}
          testId="desk-arrivals"
        />
        <StayList
          title={t('deskDepartures')}
          stays={view.departures}
          picked={picked}
          onPick={setPicked}
          testId="desk-departures"
        />
        <StayList
          title={t('deskInHouse')}
          stays={view.inHouse.filter((one) => !view.departures.includes(one))}
          picked={picked}
          onPick={setPicked}
          testId="desk-in-house"
        />
      </section>
      <RoomBoard view={view} picked={room} onPick={pickRoom} />
      {dialog?.kind === 'walkIn' && (
        <WalkInDialog
          view={view}
          onClose={() => setDialog(null)}
          onBooked={(id, guest, number) => {
            setPicked(id);
            setDialog(null);
            notify(t('deskBooked', { guest, room: number }), 'info');
          }}
        />
      )}
      {dialog?.kind === 'checkIn' && (
        <CheckInDialog
          view={view}
          stay={dialog.stay}
          conflict={dialog.reason ?? null}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'checkOut' && (
        <CheckOutDialog view={view} stay={dialog.stay} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'move' && (
        <MoveRoomDialog stay={dialog.stay} view={view} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'housekeeping' && (
        <HousekeepingDialog view={view} room={dialog.room} onClose={() => setDialog(null)} />
      )}
    </div>
  );
}

function StayList({
  title,
  stays,
  picked,
  onPick,
  testId,
}: {
  title: string;
  stays: DeskStay[];
  picked: string | null;
  onPick: (id: string) => void;
  testId: string;
}) {
  const { t } = useI18n();
  return (
    <section className="desk-list" data-testid={testId}>
      <h3>
        {title} <span className="count">{stays.length}</span>
      </h3>
      {stays.length === 0 ? (
        <p className="muted">{t('deskNone')}</p>
      ) : (
        <ul>
          {stays.map((stay) => (
            <li key={stay.id}>
              <button
                type="button"
                className={stay.id === picked ? 'desk-stay picked' : 'desk-stay'}
                aria-pressed={stay.id === picked}
                onClick={() => onPick(stay.id)}
                data-testid="desk-stay"
                data-reservation={stay.id}
              >
                <strong>{stay.guestName}</strong>
                <span>
                  {stay.roomNumber ? t('deskRoomNumber', { room: stay.roomNumber }) : t('deskNoRoom')}
                </span>
                <span className="muted">
                  {stay.typeName} · {stayWhen(t, stay)}
                </span>
                {stay.status === 'checked_in' && stay.balance !== 0 && (
                  <span className={stay.balance > 0 ? 'owes' : 'muted'}>
                    {stay.balance > 0
                      ? t('deskOwes', { amount: formatMoney(stay.balance, 'TZS') })
                      : `${t('deskBalanceOwedBack')}: ${formatMoney(-stay.balance, 'TZS')}`}
                  </span>
                )}
                {stay.overdue && (
                  <span className="badge overdue" data-testid="desk-overdue">
                    {t('deskOverdue', { date: shopDate(stay.arrival) })}
                  </span>
                )}
                {stay.waiting && <span className="badge pending">{t('deskWaiting')}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
