/** A room type's rates (a price for a date range, on some weekdays or all) and its booking mode. */
import { useState, type FormEvent } from 'react';
import { BOOKING_MODES, CONFIRMATION_MODES, type BookingMode, type ConfirmationMode } from '@tz/core';
import { typedAmount } from '../../amount.ts';
import { api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { RowTable } from '../../components/DataTable.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useI18n } from '../../i18n/index.ts';
import { formatMoney, Message } from '../../shared.ts';
import {
  CONFIRMATION_WORDS,
  dayLabel,
  HOSPITALITY_ERRORS,
  MODE_WORDS,
  WEEKDAY_WORDS,
  type RoomType,
} from './model.ts';

// Monday first, as a week is read here; the API counts 0 = Sunday.
const WEEK = [1, 2, 3, 4, 5, 6, 0];

export function Rates({ roomType, onChanged }: { roomType: RoomType; onChanged: () => void }) {
  const { t, language } = useI18n();
  const { busy, error, run } = useAction(HOSPITALITY_ERRORS);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [days, setDays] = useState<number[]>([]);
  const [price, setPrice] = useState('');
  const toggle = (day: number) =>
    setDays((old) => (old.includes(day) ? old.filter((one) => one !== day) : [...old, day]));
  const add = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api.post('/v1/hospitality/rates', {
        room_type: roomType.id,
        starts_on: from,
        ends_on: to,
        days_of_week: days.length === 0 ? null : [...days].sort(),
        rate: typedAmount(price, 'rate', { reason: t('hospAmountInvalid') }),
      });
      setPrice('');
      setDays([]);
      onChanged();
    });
  };
  const remove = (id: string) =>
    void run(async () => {
      await api.delete(`/v1/hospitality/rates/${id}`);
      onChanged();
    });
  const weekdays = (list: number[] | null) =>
    list === null
      ? t('hospEveryDay')
      : WEEK.filter((day) => list.includes(day))
          .map((day) => t(WEEKDAY_WORDS[day]!))
          .join(', ');
  return (
    <section className="card stack" aria-labelledby="rates-title" data-testid="rates">
      <h2 id="rates-title">{t('hospRates')}</h2>
      <p className="muted small">{t('hospRatesLead', { base: formatMoney(roomType.base_rate, 'TZS') })}</p>
      <RowTable
        rows={roomType.rates}
        testId="rate-list"
        rowTestId="rate"
        caption={t('hospRates')}
        empty={t('hospNoRates')}
        columns={[
          { label: t('hospFrom'), cell: (rate) => dayLabel(rate.starts_on, language), nowrap: true },
          { label: t('hospLastNight'), cell: (rate) => dayLabel(rate.ends_on, language), nowrap: true },
          { label: t('hospWeekdays'), cell: (rate) => weekdays(rate.days_of_week) },
          { label: t('hospPrice'), cell: (rate) => formatMoney(rate.rate, 'TZS'), num: true, nowrap: true },
          {
            label: t('hospActions'),
            cell: (rate) => (
              <button
                type="button"
                className="ghost danger"
                disabled={busy}
                onClick={() => remove(rate.id)}
                aria-label={`${t('hospDelete')}: ${t('hospFrom')} ${dayLabel(rate.starts_on, language)}`}
                data-testid="delete-rate"
              >
                {t('hospDelete')}
              </button>
            ),
          },
        ]}
      />
      <form className="stack" onSubmit={add} data-testid="new-rate">
        <h3>{t('hospNewRate')}</h3>
        <div className="filters">
          <TextField
            label={t('hospFrom')}
            type="date"
            value={from}
            onChange={setFrom}
            required
            testId="rate-from"
          />
          <TextField
            label={t('hospLastNight')}
            type="date"
            value={to}
            onChange={setTo}
            required
            testId="rate-to"
          />
          <TextField
            label={`${t('hospPrice')} (TZS)`}
            value={price}
            onChange={setPrice}
            required
            inputMode="numeric"
            testId="rate-price"
          />
        </div>
        <fieldset>
          <legend>{t('hospWeekdaysLegend')}</legend>
          <div className="hosp-weekdays">
            {WEEK.map((day) => (
              <label key={day} className="check">
                <input
                  type="checkbox"
                  checked={days.includes(day)}
                  onChange={() => toggle(day)}
                  data-testid={`rate-day-${day}`}
                />
                {t(WEEKDAY_WORDS[day]!)}
              </label>
            ))}
          </div>
        </fieldset>
        <Message text={error} />
        <div>
          <button type="submit" disabled={busy} data-testid="add-rate">
            {t('hospAddRate')}
          </button>
        </div>
      </form>
    </section>
  );
}

/** The type's own booking mode and confirmation, or the property's until one is chosen. */
export function RoomTypeMode({ roomType, onChanged }: { roomType: RoomType; onChanged: () => void }) {
  const { t } = useI18n();
  const { busy, error, run } = useAction(HOSPITALITY_ERRORS);
  const [mode, setMode] = useState<BookingMode | ''>(roomType.booking_mode ?? '');
  const [confirmation, setConfirmation] = useState<ConfirmationMode | ''>(roomType.confirmation ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api.post('/v1/hospitality/availability', {
        room_type: roomType.id,
        ...(mode ? { mode } : {}),
        ...(confirmation ? { confirmation } : {}),
      });
      onChanged();
    });
  };
  return (
    <form className="card stack" onSubmit={submit} data-testid="room-type-mode">
      <h2>{t('hospBookingMode')}</h2>
      <div className="filters">
        <SelectField
          label={t('hospBookedBy')}
          value={mode}
          onChange={setMode}
          options={[['', t('hospAsProperty')], ...BOOKING_MODES.map((m) => [m, t(MODE_WORDS[m])] as const)]}
          testId="room-type-booking-mode"
        />
        <SelectField
          label={t('hospConfirmation')}
          value={confirmation}
          onChange={setConfirmation}
          options={[
            ['', t('hospAsProperty')],
            ...CONFIRMATION_MODES.map((c) => [c, t(CONFIRMATION_WORDS[c])] as const),
          ]}
          testId="room-type-confirmation"
        />
        <button
          type="submit"
          disabled={
            busy || (mode === (roomType.booking_mode ?? '') && confirmation === (roomType.confirmation ?? ''))
          }
          data-testid="save-room-type-mode"
        >
          {t('save')}
        </button>
      </div>
      <Message text={error} />
    </form>
  );
}
