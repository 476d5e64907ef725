/** The organizer: the name and contact buyers see, the payout number and the refund policy. */
import { useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { Failed, Loading } from '../../components/Status.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { Message } from '../../shared.ts';
import { EVENT_ERRORS, type Organizer as OrganizerObject } from './model.ts';

export function Organizer() {
  const [loaded, reload] = useLoad(() => api.get<OrganizerObject>('/v1/events/organizer'), 'organizer');
  if (loaded.kind === 'loading') return <Loading />;
  if (loaded.kind === 'failed') return <Failed error={loaded.error} onRetry={reload} />;
  return <OrganizerForm organizer={loaded.value} />;
}

function OrganizerForm({ organizer }: { organizer: OrganizerObject }) {
  const { t } = useI18n();
  const { busy, error, run } = useAction(EVENT_ERRORS);
  const [saved, setSaved] = useState(false);
  const [form, setForm] = useState({
    display_name: organizer.display_name,
    contact_email: organizer.contact_email ?? '',
    contact_phone: organizer.contact_phone ?? '',
    payout_phone: organizer.payout_phone ?? '',
    refund_policy: organizer.refund_policy ?? '',
  });
  const set = (name: keyof typeof form) => (value: string) => {
    setSaved(false);
    setForm((old) => ({ ...old, [name]: value }));
  };
  // An emptied field clears it.
  const orNull = (value: string) => value.trim() || null;
  const submit = (submitted: FormEvent) => {
    submitted.preventDefault();
    void run(async () => {
      await api.patch('/v1/events/organizer', {
        display_name: form.display_name.trim(),
        contact_email: orNull(form.contact_email),
        contact_phone: orNull(form.contact_phone),
        payout_phone: orNull(form.payout_phone),
        refund_policy: orNull(form.refund_policy),
      });
      setSaved(true);
    });
  };
  return (
    <form
      className="card stack"
      onSubmit={submit}
      aria-labelledby="organizer-title"
      data-testid="organizer-form"
    >
      <h2 id="organizer-title">{t('evTabOrganizer')}</h2>
      <p className="muted small">{t('evOrganizerLead')}</p>
      <div className="ev-fields">
        <TextField
          label={t('evDisplayName')}
          value={form.display_name}
          onChange={set('display_name')}
          required
          maxLength={200}
          testId="organizer-name"
        />
        <TextField
          label={t('evContactEmail')}
          type="email"
          value={form.contact_email}
          onChange={set('contact_email')}
          testId="organizer-email"
        />
        <TextField
          label={t('evContactPhone')}
          type="tel"
          value={form.contact_phone}
          onChange={set('contact_phone')}
          testId="organizer-phone"
        />
        <TextField
          label={t('evPayoutPhone')}
          type="tel"
          value={form.payout_phone}
          onChange={set('payout_phone')}
          testId="organizer-payout"
        />
        <div className="ev-wide">
          <TextField
            label={t('evRefundPolicy')}
            value={form.refund_policy}
            onChange={set('refund_policy')}
            rows={3}
            testId="organizer-refunds"
          />
        </div>
      </div>
      <Message text={error} />
      {saved && (
        <p className="ok" role="status" data-testid="organizer-saved">
          {t('saved')}
        </p>
      )}
      <div>
        <button type="submit" className="primary" disabled={busy} data-testid="save-organizer">
          {t('save')}
        </button>
      </div>
    </form>
  );
}
