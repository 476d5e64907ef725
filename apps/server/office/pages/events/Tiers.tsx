/** An event's tiers: the list with what each has sold, a tier's form (new or edited), and deleting one. */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { typedAmount } from '../../amount.ts';
import { api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { RowTable } from '../../components/DataTable.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useI18n } from '../../i18n/index.ts';
import { formatCount, formatMoney, Message } from '../../shared.ts';
import { EVENT_ERRORS, timeField, typedCount, typedTime, type TicketedEvent, type Tier } from './model.ts';
import { EventTime } from './parts.tsx';

export function Tiers({
  event,
  editable,
  onChanged,
}: {
  event: TicketedEvent;
  /** A canceled or ended event's tiers are only shown. */
  editable: boolean;
  onChanged: () => void;
}) {
  const { t } = useI18n();
  const [editing, setEditing] = useState<Tier | null>(null);
  const [deleting, setDeleting] = useState<Tier | null>(null);
  return (
    <section className="card stack" aria-labelledby="tiers-title" data-testid="tiers">
      <h2 id="tiers-title">{t('evTiers')}</h2>
      <RowTable
        rows={event.tiers}
        testId="tier-list"
        rowTestId="tier"
        caption={t('evTiers')}
        empty={t('evNoTiers')}
        columns={[
          { label: t('evTier'), cell: (tier) => tier.name },
          { label: t('evPrice'), cell: (tier) => formatMoney(tier.price, 'TZS'), num: true, nowrap: true },
          { label: t('evQuantity'), cell: (tier) => formatCount(tier.quantity), num: true },
          { label: t('evTaken'), cell: (tier) => formatCount(tier.taken), num: true },
          {
            label: t('evSalesStart'),
            cell: (tier) => <EventTime seconds={tier.sales_start} />,
            nowrap: true,
          },
          { label: t('evSalesEnd'), cell: (tier) => <EventTime seconds={tier.sales_end} />, nowrap: true },
          { label: t('evPerOrder'), cell: (tier) => tier.per_order_limit, num: true },
          ...(editable
            ? [
                {
                  label: t('evActions'),
                  nowrap: true,
                  cell: (tier: Tier) => (
                    <>
                      <button
                        type="button"
                        className="ghost"
                        onClick={() => setEditing(tier)}
                        aria-label={t('evEditTier', { name: tier.name })}
                        data-testid="edit-tier"
                      >
                        {t('evEdit')}
                      </button>
                      <button
                        type="button"
                        className="ghost danger"
                        onClick={() => setDeleting(tier)}
                        aria-label={t('evDeleteTierTitle', { name: tier.name })}
                        data-testid="delete-tier"
                      >
                        {t('evDelete')}
                      </button>
                    </>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editable && (
        <TierForm
          key={editing?.id ?? 'new'}
          event={event}
          tier={editing}
          onDone={() => {
            setEditing(null);
            onChanged();
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('evDeleteTierTitle', { name: deleting.name })}
          lead={t('evDeleteTierLead')}
          confirm={t('evDelete')}
          words={EVENT_ERRORS}
          testId="delete-tier-dialog"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await api.delete(`/v1/events/tiers/${deleting.id}`);
            setDeleting(null);
            onChanged();
          }}
        />
      )}
    </section>
  );
}

/** A new tier, or the one being edited: its price, quantity, sale window and limit per order. */
function TierForm({
  event,
  tier,
  onDone,
  onCancel,
}: {
  event: TicketedEvent;
  tier: Tier | null;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const { busy, error, run } = useAction(EVENT_ERRORS);
  const [form, setForm] = useState({
    name: tier?.name ?? '',
    price: tier ? String(tier.price) : '',
    quantity: tier ? String(tier.quantity) : '',
    sales_start: timeField(tier?.sales_start ?? null),
    sales_end: timeField(tier?.sales_end ?? null),
    per_order_limit: String(tier?.per_order_limit ?? 10),
  });
  const set = (name: keyof typeof form) => (value: string) => setForm((old) => ({ ...old, [name]: value }));
  const formRef = useRef<HTMLFormElement>(null);
  // Editing a tier from its row takes the keyboard to its form.
  useEffect(() => {
    if (tier) formRef.current?.querySelector('input')?.focus();
  }, [tier]);
  const submit = (submitted: FormEvent) => {
    submitted.preventDefault();
    void run(async () => {
      const when = t('evTimeInvalid');
      const count = t('evCountInvalid');
      const body = {
        name: form.name.trim(),
        price: typedAmount(form.price, 'price', { zero: true }),
        quantity: typedCount(form.quantity, 'quantity', count, true),
        sales_start: typedTime(form.sales_start, 'sales_start', when),
        sales_end: typedTime(form.sales_end, 'sales_end', when),
        per_order_limit: typedCount(form.per_order_limit, 'per_order_limit', count, true),
      };
      if (tier) await api.patch(`/v1/events/tiers/${tier.id}`, body);
      else await api.post(`/v1/events/${event.id}/tiers`, body);
      if (!tier) setForm({ ...form, name: '', price: '', quantity: '' });
      onDone();
    });
  };
  const title = tier ? t('evEditTier', { name: tier.name }) : t('evNewTier');
  return (
    <form className="stack" onSubmit={submit} aria-label={title} ref={formRef} data-testid="tier-form">
      <h3>{title}</h3>
      <div className="ev-fields">
        <TextField
          label={t('evTier')}
          value={form.name}
          onChange={set('name')}
          required
          maxLength={200}
          testId="tier-name"
        />
        <TextField
          label={`${t('evPrice')} (TZS)`}
          value={form.price}
          onChange={set('price')}
          required
          inputMode="numeric"
          testId="tier-price"
        />
        <TextField
          label={t('evQuantity')}
          value={form.quantity}
          onChange={set('quantity')}
          required
          inputMode="numeric"
          testId="tier-quantity"
        />
        <TextField
          label={t('evSalesStart')}
          type="datetime-local"
          value={form.sales_start}
          onChange={set('sales_start')}
          aria-describedby="tier-window-hint"
          testId="tier-sales-start"
        />
        <TextField
          label={t('evSalesEnd')}
          type="datetime-local"
          value={form.sales_end}
          onChange={set('sales_end')}
          aria-describedby="tier-window-hint"
          testId="tier-sales-end"
        />
        <TextField
          label={t('evPerOrder')}
          value={form.per_order_limit}
          onChange={set('per_order_limit')}
          required
          inputMode="numeric"
          testId="tier-limit"
        />
      </div>
      <p className="muted small" id="tier-window-hint">
        {t('evWindowHint')} {t('evTimesIn', { zone: event.time_zone })}
      </p>
      <Message text={error} />
      <div className="row">
        <button
          type="submit"
          className={tier ? 'primary' : undefined}
          disabled={busy}
          data-testid="save-tier"
        >
          {tier ? t('save') : t('evAddTier')}
        </button>
        {tier && (
          <button type="button" onClick={onCancel}>
            {t('cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
