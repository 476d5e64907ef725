/**
 * F2 at the desk: a guest with no booking. Room type, nights (from today) or,
 * for a type booked for day use, blocks of its time from now; the party and
 * the guest's name; the price is core's quote from the pulled rates (or the
 * type's day rate) and the room is the first free one of the type on this
 * till's board (another may be picked). Booking queues `reservation.create`.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { bookingModeOf } from '@tz/core';
import type { DeskView, WalkInQuote } from '../../../data/api.ts';
import { formatMoney, useI18n } from '../../../i18n/index.tsx';
import type { MessageKey } from '../../../i18n/en.ts';
import { Dialog, Message } from '../../components/Dialog.tsx';
import { refusalText } from '../../refusal.ts';
import { stayWhen } from './stay-when.ts';
import { useStore } from '../../store.tsx';

const whole = (text: string, min: number) =>
  /^\d{1,2}$/.test(text.trim()) && Number(text) >= min ? Number(text) : null;

export function WalkInDialog({
  view,
  onClose,
  onBooked,
}: {
  view: DeskView;
  onClose: () => void;
  onBooked: (reservation: string, guest: string, room: string) => void;
}) {
  const store = useStore();
  const { t, language } = useI18n();
  const [roomType, setRoomType] = useState(view.roomTypes[0]?.id ?? '');
  const [nights, setNights] = useState('1');
  const [blocks, setBlocks] = useState('1');
  const [adults, setAdults] = useState('1');
  const [children, setChildren] = useState('0');
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [room, setRoom] = useState('');
  const [quote, setQuote] = useState<WalkInQuote | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const type = view.roomTypes.find((one) => one.id === roomType);
  const dayUse = type !== undefined && bookingModeOf(view.property, type) === 'day_use';
  const length = dayUse ? whole(blocks, 1) : whole(nights, 1);
  const party = { adults: whole(adults, 1), children: whole(children, 0) };
  const asked =
    length !== null && party.adults !== null && party.children !== null
      ? {
          roomType,
          nights: dayUse ? 0 : length,
          ...(dayUse ? { blocks: length } : {}),
          adults: party.adults,
          children: party.children,
        }
      : null;
  const key = JSON.stringify(asked);

  // Priced again as the stay changes, from what the till holds.
  useEffect(() => {
    if (!asked) return setQuote(null);
    let current = true;
    store.quoteWalkIn({ ...asked, guestName: '' }).then(
      (next) => {
        if (!current) return;
        setQuote(next);
        setError(null);
        setRoom((chosen) => (next.freeRooms.includes(chosen) ? chosen : (next.room ?? '')));
      },
      (failure: unknown) => {
        if (!current) return;
        setQuote(null);
        setError(refusalText(language, failure));
      },
    );
    return () => {
      current = false;
    };
  }, [key]);

  const numbers = new Map(view.floors.flatMap((floor) => floor.rooms).map((one) => [one.id, one.number]));
  const ready = asked !== null && quote !== null && room !== '' && name.trim() !== '' && !busy;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || !asked) return;
    setBusy(true);
    store.walkIn({ ...asked, guestName: name, ...(phone.trim() ? { guestPhone: phone } : {}), room }).then(
      (made) => onBooked(made.reservation, name.trim(), numbers.get(made.room) ?? made.room),
      (failure: unknown) => {
        setBusy(false);
        setError(refusalText(language, failure));
      },
    );
  };

  return (
    <Dialog title={t('deskWalkIn')} onClose={onClose} wide testId="walk-in">
      <form className="desk-form" onSubmit={submit}>
        <div className="stack">
          <label>
            {t('deskRoomType')}
            <select
              value={roomType}
              onChange={(e) => setRoomType(e.target.value)}
              data-testid="walk-in-type"
              autoFocus
            >
              {view.roomTypes.map((type) => (
                <option key={type.id} value={type.id}>
                  {type.name}
                </option>
              ))}
            </select>
          </label>
          <div className="row">
            {dayUse ? (
              <Count
                label={t('deskDayUseBlocks', { minutes: type.day_use_block_minutes })}
                value={blocks}
                onChange={setBlocks}
                testId="walk-in-blocks"
              />
            ) : (
              <Count label={t('deskNights')} value={nights} onChange={setNights} testId="walk-in-nights" />
            )}
            <Count label={t('deskAdults')} value={adults} onChange={setAdults} testId="walk-in-adults" />
            <Count
              label={t('deskChildren')}
              value={children}
              onChange={setChildren}
              testId="walk-in-children"
            />
          </div>
          <label>
            {t('deskGuestName')}
            <input
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={200}
              data-free-text
              data-testid="walk-in-name"
            />
          </label>
          <label>
            {t('deskGuestPhone')}
            <input
              inputMode="tel"
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
              maxLength={40}
              data-testid="walk-in-phone"
            />
          </label>
        </div>
        <div className="stack">
          {quote && (
            <>
              <p className="muted" data-testid="walk-in-when">
                {stayWhen(t, { ...quote, hours: quote.dayUse })}
              </p>
              <dl className="desk-quote" data-testid="walk-in-quote">
                {[
                  [
                    `${t('deskRoomCharge')} · ${
                      quote.dayUse && type
                        ? t('deskBlocksCount', {
                            count: quote.quote.blocks,
                            minutes: type.day_use_block_minutes,
                          })
                        : t('deskNightsCount', { count: quote.quote.nights })
                    }`,
                    quote.quote.room_charge,
                  ],
                  ...quote.quote.levies
                    .filter((levy) => levy.amount > 0)
                    .map((levy) => [t(`deskLevy_${levy.kind}` as MessageKey), levy.amount] as const),
                  [t('deskVat'), quote.quote.vat.amount],
                ].map(([label, amount]) => (
                  <div key={label} className="quote-row">
                    <dt>{label}</dt>
                    <dd>{formatMoney(amount as number, 'TZS')}</dd>
                  </div>
                ))}
                <div className="quote-row strong">
                  <dt>{t('deskTotal')}</dt>
                  <dd data-testid="walk-in-total">{formatMoney(quote.quote.total, 'TZS')}</dd>
                </div>
              </dl>
              {quote.freeRooms.length === 0 ? (
                <Message text={t('deskNoFreeRoom')} />
              ) : (
                <label>
                  {t('deskRoom')}
                  <select value={room} onChange={(e) => setRoom(e.target.value)} data-testid="walk-in-room">
                    {quote.freeRooms.map((id) => (
                      <option key={id} value={id}>
                        {numbers.get(id) ?? id}
                      </option>
                    ))}
                  </select>
                </label>
              )}
            </>
          )}
          <button type="submit" className="primary big" disabled={!ready} data-testid="walk-in-book">
            {t('deskBook')}
          </button>
          <Message text={error} />
        </div>
      </form>
    </Dialog>
  );
}

function Count(props: { label: string; value: string; onChange: (text: string) => void; testId: string }) {
  return (
    <label>
      {props.label}
      <input
        inputMode="numeric"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={props.testId}
      />
    </label>
  );
}
