/**
 * Ticket orders: the list read with the API's cursors, filtered by event,
 * status and the buyer's phone; each at `/office/events/orders/<id>` with its
 * lines and its tickets' status and admission.
 */
import { useState, type FormEvent } from 'react';
import { EVENT_ORDER_STATUSES } from '@tz/core';
import { api } from '../../api.ts';
import { errorText } from '../../errors.ts';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { RowTable } from '../../components/DataTable.tsx';
import { Facts } from '../../components/Facts.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { PageLink } from '../../router.tsx';
import { formatDateTime, formatMoney, Message } from '../../shared.ts';
import { EVENT_ERRORS, ORDER_STATUS_WORDS, type EventOrder } from './model.ts';
import { OrderBadge, TicketBadge, useEvents } from './parts.tsx';

export function Orders({ id, event }: { id?: string | undefined; event?: string | undefined }) {
  if (id) return <OrderDetail id={id} />;
  return <OrderList event={event ?? ''} />;
}

function OrderList({ event }: { event: string }) {
  const { t } = useI18n();
  const start = { event, status: '', phone: '' };
  const [draft, setDraft] = useState(start);
  const [applied, setApplied] = useState(start);
  const events = useEvents();
  const list = useCursorList<EventOrder>('/v1/events/orders', applied);
  const set = (name: keyof typeof start) => (value: string) => setDraft((old) => ({ ...old, [name]: value }));
  const apply = (submitted: FormEvent) => {
    submitted.preventDefault();
    setApplied({ ...draft, phone: draft.phone.trim() });
  };
  const refused = list.loaded.kind === 'failed' ? list.loaded.error : null;
  return (
    <>
      <form className="filters" onSubmit={apply} role="search" aria-label={t('evFilterOrders')}>
        <SelectField
          label={t('evEvent')}
          value={draft.event}
          onChange={set('event')}
          options={[['', t('evAnyEvent')], ...events.map((one) => [one.id, one.name] as const)]}
          testId="filter-event"
        />
        <SelectField
          label={t('status')}
          value={draft.status}
          onChange={set('status')}
          options={[
            ['', t('evAnyStatus')],
            ...EVENT_ORDER_STATUSES.map((status) => [status, t(ORDER_STATUS_WORDS[status])] as const),
          ]}
          testId="filter-status"
        />
        <TextField
          label={t('evBuyerPhone')}
          type="tel"
          value={draft.phone}
          onChange={set('phone')}
          autoComplete="off"
          testId="filter-phone"
        />
        <div className="filter-actions row">
          <button type="submit" data-testid="apply-filters">
            {t('evFilter')}
          </button>
          <button
            type="button"
            onClick={() => {
              const none = { event: '', status: '', phone: '' };
              setDraft(none);
              setApplied(none);
            }}
          >
            {t('evClearFilters')}
          </button>
        </div>
      </form>
      {refused ? (
        <FilterRefused error={refused} />
      ) : (
        <CursorListView list={list} empty={t('evNoOrders')}>
          {(rows) => (
            <RowTable
              rows={rows}
              testId="order-list"
              rowTestId="order"
              caption={t('evTabOrders')}
              columns={[
                {
                  label: t('evBuyer'),
                  cell: (order) => (
                    <PageLink page="events" rest={['orders', order.id]}>
                      {order.buyer.name}
                    </PageLink>
                  ),
                },
                { label: t('evBuyerPhone'), cell: (order) => order.buyer.phone, nowrap: true },
                {
                  label: t('evEvent'),
                  cell: (order) => events.find((one) => one.id === order.event)?.name ?? '',
                },
                { label: t('evTickets'), cell: (order) => order.tickets.length, num: true },
                {
                  label: t('evOrderAmount'),
                  cell: (order) => formatMoney(order.amount, 'TZS'),
                  num: true,
                  nowrap: true,
                },
                { label: t('status'), cell: (order) => <OrderBadge status={order.status} /> },
                {
                  label: t('evOrdered'),
                  cell: (order) => formatDateTime(order.created * 1000),
                  nowrap: true,
                },
              ]}
            />
          )}
        </CursorListView>
      )}
    </>
  );
}

/** A filter the API refused (a phone that is not one), as a sentence naming the field. */
function FilterRefused({ error }: { error: unknown }) {
  const { t, language } = useI18n();
  return <Message text={errorText(t, error, language, EVENT_ERRORS)} />;
}

function OrderDetail({ id }: { id: string }) {
  const { t } = useI18n();
  const [loaded, reload] = useLoad(
    () => api.get<EventOrder>(`/v1/events/orders/${encodeURIComponent(id)}`),
    id,
  );
  const events = useEvents();
  if (loaded.kind === 'loading') return <Loading />;
  if (loaded.kind === 'failed') return <Failed error={loaded.error} onRetry={reload} />;
  const order = loaded.value;
  const event = events.find((one) => one.id === order.event);
  const tierName = (tier: string) => event?.tiers.find((one) => one.id === tier)?.name ?? tier;
  const money = (amount: number) => formatMoney(amount, 'TZS');
  return (
    <>
      <PageLink page="events" rest={['orders']}>
        ← {t('evAllOrders')}
      </PageLink>
      <section className="card stack" aria-labelledby="order-title" data-testid="order">
        <div className="card-head">
          <h2 id="order-title" className="ev-id">
            {t('evOrder', { id: order.id })}
          </h2>
          <OrderBadge status={order.status} />
        </div>
        <Facts
          facts={[
            [t('evBuyer'), order.buyer.name, { testId: 'order-buyer' }],
            [t('evBuyerPhone'), order.buyer.phone],
            [t('evEvent'), event?.name ?? order.event],
            [
              t('evLines'),
              order.lines
                .map((line) =>
                  t('evLine', {
                    quantity: line.quantity,
                    tier: tierName(line.tier),
                    price: money(line.unit_price),
                  }),
                )
                .join('; '),
            ],
            order.discount > 0 && [t('evPromoDiscount'), money(order.discount)],
            [t('evOrderAmount'), money(order.amount), { testId: 'order-amount' }],
            [t('evOrdered'), formatDateTime(order.created * 1000)],
          ]}
        />
        <RowTable
          rows={order.tickets}
          testId="ticket-list"
          rowTestId="ticket"
          caption={t('evTickets')}
          columns={[
            { label: t('evTier'), cell: (ticket) => tierName(ticket.tier) },
            { label: t('evHolder'), cell: (ticket) => ticket.holder },
            { label: t('status'), cell: (ticket) => <TicketBadge status={ticket.status} /> },
            {
              label: t('evAdmitted'),
              cell: (ticket) =>
                ticket.checked_in
                  ? t('evAdmittedAt', {
                      time: formatDateTime(ticket.checked_in.at * 1000),
                      door: ticket.checked_in.door,
                    })
                  : t('evNotYet'),
              nowrap: true,
            },
            { label: t('evTicket'), cell: (ticket) => <code>{ticket.id}</code> },
          ]}
        />
      </section>
    </>
  );
}
