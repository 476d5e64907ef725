/**
 * The payment dialog's "charge to room": the guests in house as this desk
 * sees them (a check-in queued offline counts), found by room number; the one
 * picked takes the amount (what is left, unless typed). The server posts it to
 * the stay's folio when the sale's command applies, and refuses the sale if
 * the guest is no longer checked in by then.
 */
import { useState } from 'react';
import type { DeskView } from '../../data/api.ts';
import { useI18n } from '../../i18n/index.tsx';
import { Kbd } from '../components/Dialog.tsx';
import { useObservable, useStore } from '../store.tsx';
import { PartAmount, partAmount, type TenderFormProps } from './TenderParts.tsx';

export function RoomChargeForm({ remaining, currency, busy, onTake }: TenderFormProps) {
  const store = useStore();
  const { t } = useI18n();
  const desk = useObservable<DeskView | null>(store.desk$, null);
  const [search, setSearch] = useState('');
  const [text, setText] = useState('');
  const [index, setIndex] = useState(0);
  const amount = partAmount(text, remaining, currency);
  const valid = amount !== null && amount > 0 && amount <= remaining && !busy;
  const wanted = search.trim().toLowerCase();
  const guests = (desk?.inHouse ?? [])
    .flatMap((stay) => (stay.roomNumber === null ? [] : [{ ...stay, roomNumber: stay.roomNumber }]))
    .filter((stay) => stay.roomNumber.toLowerCase().startsWith(wanted))
    .sort((a, b) => a.roomNumber.localeCompare(b.roomNumber, undefined, { numeric: true }));
  const pick = (position: number) => {
    const stay = guests[position];
    if (!stay || !valid) return;
    onTake({ method: 'room', amount, reservation: stay.id, room: stay.roomNumber, guest: stay.guestName });
  };
  return (
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault();
        pick(index);
      }}
    >
      <input
        className="big-input"
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
          setIndex(0);
        }}
        placeholder={t('roomChargeSearch')}
        aria-label={t('roomChargeSearch')}
        autoFocus
        autoComplete="off"
        data-free-text
        data-testid="room-charge-search"
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') setIndex((i) => Math.min(guests.length - 1, i + 1));
          if (event.key === 'ArrowUp') setIndex((i) => Math.max(0, i - 1));
        }}
      />
      <PartAmount text={text} onChange={setText} remaining={remaining} currency={currency} />
      {guests.length === 0 && <p className="muted">{t('roomChargeNone')}</p>}
      {guests.length > 0 && (
        <ul className="pick-list" data-testid="room-charge-guests">
          {guests.map((stay, position) => (
            <li key={stay.id}>
              <button
                type="button"
                className={position === index ? 'active' : ''}
                disabled={!valid}
                onClick={() => pick(position)}
              >
                <strong>{t('roomChargeGuest', { room: stay.roomNumber, name: stay.guestName })}</strong>
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="submit" className="primary huge" disabled={!valid || guests[index] === undefined}>
        {t('roomCharge')} <Kbd>Enter</Kbd>
      </button>
    </form>
  );
}
