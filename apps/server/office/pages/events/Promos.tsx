/** An event's promo codes: the list with their uses, a new one, and deleting one. */
import { useState, type FormEvent } from 'react';
import { typedAmount } from '../../amount.ts';
import { api, type List } from '../../api.ts';
import { useAction } from '../../action.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { RowTable } from '../../components/DataTable.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { formatMoney, Message } from '../../shared.ts';
import { EVENT_ERRORS, typedCount, typedTime, type Promo, type TicketedEvent } from './model.ts';
import { EventTime } from './parts.tsx';

const NEW_PROMO = {
  code: '',
  kind: 'percent' as 'percent' | 'amount',
  value: '',
  tier: '',
  usage_limit: '',
  valid_from: '',
  valid_until: '',
};

export function Promos({ event, editable }: { event: TicketedEvent; editable: boolean }) {
  const { t } = useI18n();
  // An event has a handful of codes: the first hundred are all of them.
  const [loaded, reload] = useLoad(
    () => api.get<List<Promo>>(`/v1/events/${event.id}/promos?limit=100`),
    `promos ${event.id}`,
  );
  const [deleting, setDeleting] = useState<Promo | null>(null);
  const tierName = (id: string | null) =>
    id === null ? t('evWholeEvent') : (event.tiers.find((tier) => tier.id === id)?.name ?? id);
  return (
    <section className="card stack" aria-labelledby="promos-title" data-testid="promos">
      <h2 id="promos-title">{t('evPromos')}</h2>
      {loaded.kind === 'loading' && <Loading />}
      {loaded.kind === 'failed' && <Failed error={loaded.error} onRetry={reload} />}
      {loaded.kind === 'done' && (
        <RowTable
          rows={loaded.value.data}
          testId="promo-list"
          rowTestId="promo"
          caption={t('evPromos')}
          empty={t('evNoPromos')}
          columns={[
            { label: t('evCode'), cell: (promo) => <code>{promo.code}</code> },
            {
              label: t('evDiscount'),
              cell: (promo) =>
                promo.percent_off !== null
                  ? t('evPercentShown', { percent: promo.percent_off })
                  : t('evAmountShown', { amount: formatMoney(promo.amount_off ?? 0, 'TZS') }),
              nowrap: true,
            },
            { label: t('evAppliesTo'), cell: (promo) => tierName(promo.tier) },
            {
              label: t('evUses'),
              cell: (promo) =>
                promo.usage_limit === null
                  ? promo.used
                  : t('evUsesOf', { used: promo.used, limit: promo.usage_limit }),
              num: true,
              nowrap: true,
            },
            {
              label: t('evValidFrom'),
              cell: (promo) => <EventTime seconds={promo.valid_from} />,
              nowrap: true,
            },
            {
              label: t('evValidUntil'),
              cell: (promo) => <EventTime seconds={promo.valid_until} />,
              nowrap: true,
            },
            ...(editable
              ? [
                  {
                    label: t('evActions'),
                    cell: (promo: Promo) => (
                      <button
                        type="button"
                        className="ghost danger"
                        onClick={() => setDeleting(promo)}
                        aria-label={t('evDeletePromoTitle', { code: promo.code })}
                        data-testid="delete-promo"
                      >
                        {t('evDelete')}
                      </button>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      {editable && <PromoForm event={event} onAdded={reload} />}
      {deleting && (
        <ConfirmDialog
          title={t('evDeletePromoTitle', { code: deleting.code })}
          lead={t('evDeletePromoLead')}
          confirm={t('evDelete')}
          words={EVENT_ERRORS}
          testId="delete-promo-dialog"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await api.delete(`/v1/events/promos/${deleting.id}`);
            setDeleting(null);
            reload();
          }}
        />
      )}
    </section>
  );
}

function PromoForm({ event, onAdded }: { event: TicketedEvent; onAdded: () => void }) {
  const { t } = useI18n();
  const { busy, error, run } = useAction(EVENT_ERRORS);
  const [form, setForm] = useState(NEW_PROMO);
  const set =
    <K extends keyof typeof form>(name: K) =>
    (value: (typeof form)[K]) =>
      setForm((old) => ({ ...old, [name]: value }));
  const submit = (submitted: FormEvent) => {
    submitted.preventDefault();
    void run(async () => {
      const when = t('evTimeInvalid');
      const discount =
        form.kind === 'percent'
          ? { percent_off: typedCount(form.value, 'percent_off', t('evCountInvalid'), true) }
          : { amount_off: typedAmount(form.value, 'amount_off') };
      const usageLimit = typedCount(form.usage_limit, 'usage_limit', t('evCountInvalid'));
      const validFrom = typedTime(form.valid_from, 'valid_from', when);
      const validUntil = typedTime(form.valid_until, 'valid_until', when);
      await api.post(`/v1/events/${event.id}/promos`, {
        code: form.code.trim(),
        ...discount,
        ...(form.tier ? { tier: form.tier } : {}),
        ...(usageLimit === null ? {} : { usage_limit: usageLimit }),
        ...(validFrom === null ? {} : { valid_from: validFrom }),
        ...(validUntil === null ? {} : { valid_until: validUntil }),
      });
      setForm(NEW_PROMO);
      onAdded();
    });
  };
  return (
    <form className="stack" onSubmit={submit} aria-labelledby="new-promo-title" data-testid="promo-form">
      <h3 id="new-promo-title">{t('evNewPromo')}</h3>
      <div className="ev-fields">
        <TextField
          label={t('evCode')}
          value={form.code}
          onChange={set('code')}
          required
          maxLength={32}
          autoCapitalize="characters"
          testId="promo-code"
        />
        <SelectField
          label={t('evDiscountKind')}
          value={form.kind}
          onChange={set('kind')}
          options={[
            ['percent', t('evPercentOff')],
            ['amount', t('evAmountOff')],
          ]}
          testId="promo-kind"
        />
        <TextField
          label={form.kind === 'percent' ? `${t('evPercentOff')} (%)` : `${t('evAmountOff')} (TZS)`}
          value={form.value}
          onChange={set('value')}
          required
          inputMode="numeric"
          testId="promo-value"
        />
        <SelectField
          label={t('evAppliesTo')}
          value={form.tier}
          onChange={set('tier')}
          options={[['', t('evWholeEvent')], ...event.tiers.map((tier) => [tier.id, tier.name] as const)]}
          testId="promo-tier"
        />
        <TextField
          label={t('evUsageLimit')}
          value={form.usage_limit}
          onChange={set('usage_limit')}
          inputMode="numeric"
          aria-describedby="promo-limit-hint"
          testId="promo-limit"
        />
        <TextField
          label={t('evValidFrom')}
          type="datetime-local"
          value={form.valid_from}
          onChange={set('valid_from')}
          testId="promo-from"
        />
        <TextField
          label={t('evValidUntil')}
          type="datetime-local"
          value={form.valid_until}
          onChange={set('valid_until')}
          testId="promo-until"
        />
      </div>
      <p className="muted small" id="promo-limit-hint">
        {t('evNoLimit')} {t('evTimesIn', { zone: event.time_zone })}
      </p>
      <Message text={error} />
      <div>
        <button type="submit" disabled={busy} data-testid="add-promo">
          {t('evAddPromo')}
        </button>
      </div>
    </form>
  );
}
