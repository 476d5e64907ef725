/**
 * The payments, newest first, a page at a time, narrowed by status, the days
 * they were made (in the shop's time), the payer's number and network.
 */
import { SelectField } from '../../components/SelectField.tsx';
import { useState, type FormEvent } from 'react';
import { eastAfricaDay } from '@tz/core/time';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { useI18n } from '../../i18n/index.ts';
import { PageLink } from '../../router.tsx';
import { RowTable } from '../../components/DataTable.tsx';
import {
  money,
  NETWORK_NAMES,
  NETWORKS,
  PhoneField,
  phoneText,
  StatusBadge,
  STATUS_WORDS,
  when,
  type Payment,
} from './parts.tsx';

interface Filters {
  status: string;
  from: string;
  to: string;
  phone: string;
  network: string;
}
const NO_FILTERS: Filters = { status: '', from: '', to: '', phone: '', network: '' };

/** The filters as `GET /v1/payments` takes them: days as their first and last second in East Africa Time. */
function query(filters: Filters): Record<string, string | number | undefined> {
  const from = eastAfricaDay(filters.from);
  const to = eastAfricaDay(filters.to);
  return {
    status: filters.status,
    phone: filters.phone.trim(),
    network: filters.network,
    created_gte: from ? from.start.getTime() / 1000 : undefined,
    created_lte: to ? to.end.getTime() / 1000 - 1 : undefined,
  };
}

export function PaymentList() {
  const { t } = useI18n();
  const [draft, setDraft] = useState(NO_FILTERS);
  const [applied, setApplied] = useState(NO_FILTERS);
  const list = useCursorList<Payment>('/v1/payments', query(applied));
  const set = (name: keyof Filters) => (event: { target: { value: string } }) =>
    setDraft((old) => ({ ...old, [name]: event.target.value }));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setApplied(draft);
  };
  const filtered = Object.values(applied).some(Boolean);
  return (
    <section className="stack" aria-labelledby="payment-list">
      <h2 id="payment-list" className="sr-only">
        {t('payTabPayments')}
      </h2>
      <form className="card filters" onSubmit={apply} aria-label={t('payFilters')}>
        <SelectField
          label={t('payStatus')}
          value={draft.status}
          onChange={(value) => set('status')({ target: { value } })}
          options={[
            ['', t('payAll')],
            ...(['pending', 'paid', 'failed', 'refunded'] as const).map(
              (status) => [status, t(STATUS_WORDS[status]!)] as const,
            ),
          ]}
          testId="filter-status"
        />
        <label>
          {t('payFrom')}
          <input type="date" value={draft.from} onChange={set('from')} data-testid="filter-from" />
        </label>
        <label>
          {t('payTo')}
          <input type="date" value={draft.to} onChange={set('to')} data-testid="filter-to" />
        </label>
        <PhoneField value={draft.phone} onChange={set('phone')} testId="filter-phone" />
        <SelectField
          label={t('payNetwork')}
          value={draft.network}
          onChange={(value) => set('network')({ target: { value } })}
          options={[
            ['', t('payAll')],
            ...NETWORKS.map((network) => [network, NETWORK_NAMES[network] ?? network] as const),
          ]}
          testId="filter-network"
        />
        <div className="row filter-actions">
          <button type="submit" className="primary" data-testid="apply-filters">
            {t('payApply')}
          </button>
          {filtered && (
            <button
              type="button"
              onClick={() => {
                setDraft(NO_FILTERS);
                setApplied(NO_FILTERS);
              }}
            >
              {t('payClear')}
            </button>
          )}
        </div>
      </form>
      <CursorListView list={list} empty={filtered ? t('payNoneMatch') : t('payNoPayments')}>
        {(payments) => <PaymentTable payments={payments} />}
      </CursorListView>
    </section>
  );
}

export function PaymentTable({ payments }: { payments: Payment[] }) {
  const { t } = useI18n();
  return (
    <RowTable
      rows={payments}
      testId="payment-list"
      rowTestId="payment"
      caption={t('payTabPayments')}
      columns={[
        {
          label: t('amount'),
          num: true,
          cell: (payment) => (
            <PageLink page="payments" rest={['payments', payment.id]}>
              {money(payment.amount, payment.currency)}
            </PageLink>
          ),
        },
        { label: t('payStatus'), cell: (payment) => <StatusBadge status={payment.status} /> },
        { label: t('payPhone'), nowrap: true, cell: (payment) => phoneText(payment.phone) },
        {
          label: t('payNetwork'),
          cell: (payment) => (payment.network ? NETWORK_NAMES[payment.network] : '—'),
        },
        { label: t('payCreated'), nowrap: true, cell: (payment) => when(payment.created) },
      ]}
    />
  );
}
