/**
 * The property: its name, address, phone, check-in and check-out times, region,
 * stars, dollar rate and levies (each left empty takes its default, shown beside
 * it), and how it is booked.
 */
import { useState, type FormEvent } from 'react';
import { BOOKING_MODES, CONFIRMATION_MODES, type BookingMode, type ConfirmationMode } from '@tz/core';
import { DEFAULT_LEVY_SETTINGS, levyRatesOf, type StarRating } from '@tz/core/hospitality/levies';
import { api, ApiError } from '../../api.ts';
import { useAction } from '../../action.ts';
import { SelectField } from '../../components/SelectField.tsx';
import { TextField } from '../../components/TextField.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { Message } from '../../shared.ts';
import {
  CONFIRMATION_WORDS,
  HOSPITALITY_ERRORS,
  MODE_WORDS,
  percentOf,
  typedPercent,
  type Property as PropertyObject,
} from './model.ts';

export function Property() {
  const [loaded, reload] = useLoad(
    () => api.get<{ property: PropertyObject }>('/v1/hospitality'),
    'property',
  );
  if (loaded.kind === 'loading') return <Loading />;
  if (loaded.kind === 'failed') return <Failed error={loaded.error} onRetry={reload} />;
  return (
    <>
      <PropertyForm property={loaded.value.property} />
      <BookingModeForm property={loaded.value.property} onSaved={reload} />
    </>
  );
}

const text = (value: number | null) => (value === null ? '' : String(value));
const bpsText = (value: number | null) => (value === null ? '' : percentOf(value));

function refused(field: string, reason: string): never {
  throw new ApiError(400, 'parameter_invalid', `Invalid ${field}`, { [field]: reason });
}

/** A typed whole number, null when empty, or a refusal naming the field. */
function wholeOrNull(value: string, field: string): number | null {
  if (value.trim() === '') return null;
  const number = Number(value.replace(/[,\s]/g, ''));
  return Number.isInteger(number) && number >= 0 ? number : refused(field, 'must be a whole number');
}

function bpsOrNull(value: string, field: string): number | null {
  if (value.trim() === '') return null;
  return typedPercent(value) ?? refused(field, 'must be a percentage such as 12 or 1.5');
}

function PropertyForm({ property }: { property: PropertyObject }) {
  const { t } = useI18n();
  const { busy, error, run } = useAction(HOSPITALITY_ERRORS);
  const [saved, setSaved] = useState(false);
  const [form, setForm] = useState({
    name: property.name,
    address: property.address_lines.join('\n'),
    phone: property.phone ?? '',
    check_in_time: property.check_in_time,
    check_out_time: property.check_out_time,
    region: property.region,
    star_rating: text(property.star_rating),
    usd_rate: text(property.usd_rate),
    hotel_levy: bpsText(property.hotel_levy_bps),
    tourism_levy: bpsText(property.tourism_levy_bps),
    infrastructure_tax: text(property.infrastructure_tax_usd),
    vat: bpsText(property.vat_bps),
  });
  const set = (name: keyof typeof form) => (value: string) => {
    setSaved(false);
    setForm((old) => ({ ...old, [name]: value }));
  };
  // The defaults the empty fields take, for the region and stars chosen now.
  const defaults = levyRatesOf({
    ...DEFAULT_LEVY_SETTINGS,
    region: form.region,
    star_rating: (Number(form.star_rating) || null) as StarRating | null,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api.patch('/v1/hospitality/property', {
        name: form.name.trim(),
        address_lines: form.address
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
        phone: form.phone.trim() || null,
        check_in_time: form.check_in_time,
        check_out_time: form.check_out_time,
        region: form.region,
        star_rating: form.star_rating ? Number(form.star_rating) : null,
        usd_rate: wholeOrNull(form.usd_rate, 'usd_rate'),
        hotel_levy_bps: bpsOrNull(form.hotel_levy, 'hotel_levy_bps'),
        tourism_levy_bps: bpsOrNull(form.tourism_levy, 'tourism_levy_bps'),
        infrastructure_tax_usd: wholeOrNull(form.infrastructure_tax, 'infrastructure_tax_usd'),
        vat_bps: bpsOrNull(form.vat, 'vat_bps'),
      });
      setSaved(true);
    });
  };
  const byDefault = (value: string) => t('hospDefault', { value });
  return (
    <form className="card stack" onSubmit={submit} data-testid="property-form">
      <h2>{t('hospTabProperty')}</h2>
      <div className="hosp-form">
        <TextField
          label={t('hospName')}
          value={form.name}
          onChange={set('name')}
          required
          maxLength={200}
          testId="property-name"
        />
        <TextField
          label={t('hospPhone')}
          value={form.phone}
          onChange={set('phone')}
          type="tel"
          maxLength={40}
          testId="property-phone"
        />
        <div className="wide">
          <TextField
            label={t('hospAddress')}
            value={form.address}
            onChange={set('address')}
            rows={3}
            testId="property-address"
          />
        </div>
        <TextField
          label={t('hospCheckInTime')}
          value={form.check_in_time}
          onChange={set('check_in_time')}
          type="time"
          required
          testId="property-check-in"
        />
        <TextField
          label={t('hospCheckOutTime')}
          value={form.check_out_time}
          onChange={set('check_out_time')}
          type="time"
          required
          testId="property-check-out"
        />
        <SelectField
          label={t('hospRegion')}
          value={form.region}
          onChange={set('region')}
          options={[
            ['mainland', t('mainland')],
            ['zanzibar', t('zanzibar')],
          ]}
          testId="property-region"
        />
        <SelectField
          label={t('hospStars')}
          value={form.star_rating}
          onChange={set('star_rating')}
          options={[
            ['', t('hospUnclassified')],
            ...[1, 2, 3, 4, 5].map((n) => [String(n), '★'.repeat(n)] as const),
          ]}
          testId="property-stars"
        />
        <TextField
          label={t('hospUsdRate')}
          value={form.usd_rate}
          onChange={set('usd_rate')}
          inputMode="numeric"
          testId="property-usd-rate"
        />
      </div>
      <fieldset className="stack">
        <legend className="hosp-legend">{t('hospLevies')}</legend>
        <p className="muted small">{t('hospLeviesLead')}</p>
        <div className="hosp-form">
          <TextField
            label={`${t('hospHotelLevy')} (%)`}
            value={form.hotel_levy}
            onChange={set('hotel_levy')}
            inputMode="decimal"
            testId="property-hotel-levy"
          />
          <TextField
            label={`${t('hospTourismLevy')} (%)`}
            value={form.tourism_levy}
            onChange={set('tourism_levy')}
            inputMode="decimal"
            testId="property-tourism-levy"
          />
          <TextField
            label={`${t('hospInfrastructureTax')} (USD)`}
            value={form.infrastructure_tax}
            onChange={set('infrastructure_tax')}
            inputMode="numeric"
            testId="property-infrastructure-tax"
          />
          <TextField
            label={`${t('hospVat')} (%)`}
            value={form.vat}
            onChange={set('vat')}
            inputMode="decimal"
            testId="property-vat"
          />
        </div>
        <ul className="muted small hosp-defaults" data-testid="levy-defaults">
          <li>
            {t('hospHotelLevy')}: {byDefault(`${percentOf(defaults.hotel_levy_bps)} %`)}
          </li>
          <li>
            {t('hospTourismLevy')}: {byDefault(`${percentOf(defaults.tourism_levy_bps)} %`)}
          </li>
          <li>
            {t('hospInfrastructureTax')}: {byDefault(`USD ${defaults.infrastructure_tax_usd}`)}
          </li>
          <li>
            {t('hospVat')}: {byDefault(`${percentOf(defaults.vat_bps)} %`)}
          </li>
        </ul>
      </fieldset>
      <Message text={error} />
      {saved && (
        <p className="ok" role="status" data-testid="property-saved">
          {t('saved')}
        </p>
      )}
      <div>
        <button type="submit" className="primary" disabled={busy} data-testid="save-property">
          {t('save')}
        </button>
      </div>
    </form>
  );
}

/** How the property is booked: by the night or by day use, confirmed at once or on request. */
function BookingModeForm({ property, onSaved }: { property: PropertyObject; onSaved: () => void }) {
  const { t } = useI18n();
  const { busy, error, run } = useAction(HOSPITALITY_ERRORS);
  const [mode, setMode] = useState<BookingMode>(property.booking_mode);
  const [confirmation, setConfirmation] = useState<ConfirmationMode>(property.confirmation);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api.post('/v1/hospitality/availability', { mode, confirmation });
      onSaved();
    });
  };
  return (
    <form className="card stack" onSubmit={submit} data-testid="booking-mode-form">
      <h2>{t('hospBookingMode')}</h2>
      <div className="filters">
        <SelectField
          label={t('hospBookedBy')}
          value={mode}
          onChange={setMode}
          options={BOOKING_MODES.map((m) => [m, t(MODE_WORDS[m])] as const)}
          testId="property-mode"
        />
        <SelectField
          label={t('hospConfirmation')}
          value={confirmation}
          onChange={setConfirmation}
          options={CONFIRMATION_MODES.map((c) => [c, t(CONFIRMATION_WORDS[c])] as const)}
          testId="property-confirmation"
        />
        <button
          type="submit"
          disabled={busy || (mode === property.booking_mode && confirmation === property.confirmation)}
          data-testid="save-booking-mode"
        >
          {t('save')}
        </button>
      </div>
      <Message text={error} />
    </form>
  );
}
