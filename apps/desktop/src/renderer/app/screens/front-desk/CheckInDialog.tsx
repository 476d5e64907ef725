/**
 * F3 at the desk: an arrival checks in. The room (the stay's own, or another
 * free one of its type: the way to resolve a room another till gave away), the
 * guest register as Tanzanian registers ask it, and a cash deposit if taken.
 * The registration card prints for the guest to sign.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { deskCurrencies, ID_DOCUMENT_TYPES } from '@tz/core';
import type { DeskConflict, DeskStay, DeskView, GuestEntry } from '../../../data/api.ts';
import { useI18n } from '../../../i18n/index.tsx';
import type { MessageKey } from '../../../i18n/en.ts';
import { Dialog, Message } from '../../components/Dialog.tsx';
import { useNotify } from '../../notices.tsx';
import { refusalText } from '../../refusal.ts';
import { stayWhen } from './stay-when.ts';
import { cashTaken, DeskCashFields, NO_CASH, type CashTyped } from './DeskCashFields.tsx';
import { useStore } from '../../store.tsx';

type Guest = Required<Omit<GuestEntry, 'phone'>>;

const blank = (name = ''): Guest => ({
  name,
  nationality: 'TZ',
  id_type: 'national_id',
  id_number: '',
  id_country: 'TZ',
  arriving_from: '',
  going_to: '',
});
const complete = (guest: Guest) =>
  Object.values(guest).every((value) => value.trim() !== '') &&
  /^[A-Za-z]{2}$/.test(guest.nationality) &&
  /^[A-Za-z]{2}$/.test(guest.id_country);

export function CheckInDialog({
  view,
  stay,
  conflict,
  onClose,
}: {
  view: DeskView;
  stay: DeskStay;
  conflict: DeskConflict | null;
  onClose: () => void;
}) {
  const store = useStore();
  const { t, language } = useI18n();
  const notify = useNotify();
  const [rooms, setRooms] = useState<string[]>([]);
  // A room refused at sync is not offered first again.
  const [room, setRoom] = useState(conflict ? '' : (stay.room ?? ''));
  const [guests, setGuests] = useState<Guest[]>([blank(stay.guestName)]);
  const [deposit, setDeposit] = useState<CashTyped>(NO_CASH);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    store.roomsFor(stay.id).then(
      (free) => {
        const offered = conflict?.room ? free.filter((id) => id !== conflict.room) : free;
        setRooms(offered);
        setRoom((chosen) => (offered.includes(chosen) ? chosen : (offered[0] ?? '')));
      },
      (failure: unknown) => setError(refusalText(language, failure)),
    );
  }, [stay.id]);

  const numbers = new Map(view.floors.flatMap((floor) => floor.rooms).map((one) => [one.id, one.number]));
  const depositTaken = cashTaken(deposit, deskCurrencies(view.property));
  const ready = room !== '' && guests.every(complete) && depositTaken !== null && !busy;
  const set = (index: number, patch: Partial<Guest>) =>
    setGuests(guests.map((guest, at) => (at === index ? { ...guest, ...patch } : guest)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    setBusy(true);
    store
      .checkIn({
        reservation: stay.id,
        ...(room !== stay.room ? { room } : {}),
        guests,
        ...(depositTaken?.shillings ? { deposit: depositTaken.shillings } : {}),
        ...(depositTaken?.foreign ? { depositForeign: depositTaken.foreign } : {}),
      })
      .then(
        async (printed) => {
          if (conflict) await store.dismissConflict(conflict);
          notify(t('deskCheckedIn', { guest: stay.guestName, room: numbers.get(room) ?? room }), 'info');
          const card: MessageKey =
            printed === 'printed'
              ? 'deskCardPrinted'
              : printed === 'no_printer'
                ? 'deskCardNoPrinter'
                : 'deskCardFailed';
          notify(t(card), printed === 'printed' ? 'info' : 'error');
          onClose();
        },
        (failure: unknown) => {
          setBusy(false);
          setError(refusalText(language, failure));
        },
      );
  };

  return (
    <Dialog title={`${t('deskCheckIn')}: ${stay.guestName}`} onClose={onClose} wide testId="check-in">
      <form className="desk-form" onSubmit={submit}>
        <div className="stack">
          <p className="muted">
            {stay.typeName} · {stayWhen(t, stay)}
          </p>
          <label>
            {t('deskRoom')}
            <select
              value={room}
              onChange={(e) => setRoom(e.target.value)}
              data-testid="check-in-room"
              autoFocus
            >
              {rooms.length === 0 && <option value="">{t('deskNoFreeRoom')}</option>}
              {rooms.map((id) => (
                <option key={id} value={id}>
                  {numbers.get(id) ?? id}
                </option>
              ))}
            </select>
          </label>
          <DeskCashFields
            property={view.property}
            label={t('deskDeposit')}
            value={deposit}
            onChange={setDeposit}
            testId="check-in-deposit"
          />
          <button type="submit" className="primary big" disabled={!ready} data-testid="check-in-confirm">
            {t('deskCheckIn')}
          </button>
          <Message text={error} />
        </div>
        <fieldset className="stack register" data-testid="check-in-register">
          <legend>{t('deskRegister')}</legend>
          {guests.map((guest, index) => (
            <GuestFields key={index} index={index} guest={guest} onChange={(patch) => set(index, patch)} />
          ))}
          <button
            type="button"
            onClick={() => setGuests([...guests, blank()])}
            data-testid="check-in-add-guest"
          >
            {t('deskAddGuest')}
          </button>
        </fieldset>
      </form>
    </Dialog>
  );
}

function GuestFields({
  index,
  guest,
  onChange,
}: {
  index: number;
  guest: Guest;
  onChange: (patch: Partial<Guest>) => void;
}) {
  const { t } = useI18n();
  const text = (field: keyof Guest, label: MessageKey, extra: { maxLength: number; country?: boolean }) => (
    <label className={extra.country ? 'short' : undefined}>
      {t(label)}
      <input
        value={guest[field]}
        maxLength={extra.maxLength}
        onChange={(e) => onChange({ [field]: extra.country ? e.target.value.toUpperCase() : e.target.value })}
        aria-invalid={extra.country && guest[field] !== '' && !/^[A-Za-z]{2}$/.test(guest[field])}
        data-free-text
        data-testid={`guest-${index}-${field}`}
      />
    </label>
  );
  return (
    <div className="guest" data-testid="guest">
      <h4>{t('deskGuestN', { n: index + 1 })}</h4>
      {text('name', 'deskGuestName', { maxLength: 200 })}
      <div className="row">
        {text('nationality', 'deskNationality', { maxLength: 2, country: true })}
        <label>
          {t('deskIdType')}
          <select
            value={guest.id_type}
            onChange={(e) => onChange({ id_type: e.target.value as Guest['id_type'] })}
            data-testid={`guest-${index}-id_type`}
          >
            {ID_DOCUMENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`idType_${type}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="row">
        {text('id_number', 'deskIdNumber', { maxLength: 40 })}
        {text('id_country', 'deskIdCountry', { maxLength: 2, country: true })}
      </div>
      <div className="row">
        {text('arriving_from', 'deskArrivingFrom', { maxLength: 100 })}
        {text('going_to', 'deskGoingTo', { maxLength: 100 })}
      </div>
    </div>
  );
}
