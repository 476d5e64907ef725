/** A room type's form: create, or edit and archive (refused, naming them, while reservations hold its rooms). */
import { useState, type FormEvent } from 'react';
import { typedAmount } from '../../amount.ts';
import { api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useI18n } from '../../i18n/index.ts';
import { navigate, PageLink } from '../../router.tsx';
import { Message } from '../../shared.ts';
import { HOSPITALITY_ERRORS, type RoomType } from './model.ts';

export function RoomTypeForm({ roomType, onSaved }: { roomType: RoomType | null; onSaved: () => void }) {
  const { t } = useI18n();
  const { busy, error, run } = useAction(HOSPITALITY_ERRORS);
  const [saved, setSaved] = useState(false);
  const [archiving, setArchiving] = useState(false);
  const [form, setForm] = useState({
    name: roomType?.name ?? '',
    description: roomType?.description ?? '',
    base_rate: roomType ? String(roomType.base_rate) : '',
    max_adults: String(roomType?.max_adults ?? 2),
    max_children: String(roomType?.max_children ?? 0),
    day_use_rate: roomType?.day_use_rate === null || !roomType ? '' : String(roomType.day_use_rate),
    day_use_block_minutes: String(roomType?.day_use_block_minutes ?? 60),
  });
  const set = (name: keyof typeof form) => (value: string) => {
    setSaved(false);
    setForm((old) => ({ ...old, [name]: value }));
  };
  const amount = (value: string, field: string) =>
    typedAmount(value, field, { reason: t('hospAmountInvalid') });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const body = {
        name: form.name.trim(),
        description: form.description.trim(),
        base_rate: amount(form.base_rate, 'base_rate'),
        max_adults: Number(form.max_adults),
        max_children: Number(form.max_children),
        day_use_rate: form.day_use_rate.trim() === '' ? null : amount(form.day_use_rate, 'day_use_rate'),
        day_use_block_minutes: Number(form.day_use_block_minutes),
      };
      if (roomType) {
        await api.patch(`/v1/hospitality/room-types/${roomType.id}`, body);
        setSaved(true);
        onSaved();
      } else {
        const created = await api.post<RoomType>('/v1/hospitality/room-types', body);
        navigate('hospitality', ['room-types', created.id]);
      }
    });
  };
  return (
    <>
      <PageLink page="hospitality" rest={['room-types']}>
        ← {t('hospAllRoomTypes')}
      </PageLink>
      <form className="card stack" onSubmit={submit} data-testid="room-type-form">
        <div className="card-head">
          <h2>{roomType ? roomType.name : t('hospNewRoomType')}</h2>
          {roomType?.archived && <span className="badge">{t('archived')}</span>}
        </div>
        <div className="hosp-form">
          <TextField
            label={t('hospName')}
            value={form.name}
            onChange={set('name')}
            required
            maxLength={200}
            testId="room-type-name"
          />
          <TextField
            label={`${t('hospBaseRate')} (TZS)`}
            value={form.base_rate}
            onChange={set('base_rate')}
            required
            inputMode="numeric"
            testId="room-type-rate"
          />
          <TextField
            label={t('hospMaxAdults')}
            value={form.max_adults}
            onChange={set('max_adults')}
            type="number"
            min={1}
            max={20}
            required
            testId="room-type-adults"
          />
          <TextField
            label={t('hospMaxChildren')}
            value={form.max_children}
            onChange={set('max_children')}
            type="number"
            min={0}
            max={20}
            required
            testId="room-type-children"
          />
          <TextField
            label={`${t('hospDayUseRate')} (TZS)`}
            value={form.day_use_rate}
            onChange={set('day_use_rate')}
            inputMode="numeric"
            testId="room-type-day-rate"
          />
          <TextField
            label={t('hospBlockMinutes')}
            value={form.day_use_block_minutes}
            onChange={set('day_use_block_minutes')}
            type="number"
            min={15}
            max={720}
            step={15}
            testId="room-type-block"
          />
          <div className="wide">
            <TextField
              label={t('hospDescription')}
              value={form.description}
              onChange={set('description')}
              rows={2}
              testId="room-type-description"
            />
          </div>
        </div>
        <p className="muted small">{t('hospRateLead')}</p>
        <Message text={error} />
        {saved && (
          <p className="ok" role="status" data-testid="room-type-saved">
            {t('saved')}
          </p>
        )}
        {!roomType?.archived && (
          <div className="row">
            <button type="submit" className="primary" disabled={busy} data-testid="save-room-type">
              {t('save')}
            </button>
            {roomType && (
              <button
                type="button"
                className="ghost danger"
                onClick={() => setArchiving(true)}
                data-testid="archive-room-type"
              >
                {t('archive')}
              </button>
            )}
          </div>
        )}
      </form>
      {archiving && roomType && (
        <ConfirmDialog
          title={t('hospArchiveTitle', { name: roomType.name })}
          lead={t('hospArchiveTypeLead')}
          confirm={t('archive')}
          words={HOSPITALITY_ERRORS}
          onClose={() => setArchiving(false)}
          onConfirm={async () => {
            await api.delete(`/v1/hospitality/room-types/${roomType.id}`);
            navigate('hospitality', ['room-types']);
          }}
        />
      )}
    </>
  );
}
