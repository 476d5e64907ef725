/**
 * Customers: the list, newest first, searched by email or phone number (as
 * `GET /v1/customers` finds them), and one customer with their payments.
 */
import { TextField } from '../../components/TextField.tsx';
import { useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { PageLink } from '../../router.tsx';
import { PaymentTable } from './PaymentList.tsx';
import { Facts } from '../../components/Facts.tsx';
import { RowTable } from '../../components/DataTable.tsx';
import { phoneText, when, type Payment } from './parts.tsx';

interface Customer {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  description: string | null;
  created: number;
}

export function CustomersTab() {
  const { t } = useI18n();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  // One box: an address is looked up by email, anything else as a phone number.
  const list = useCursorList<Customer>(
    '/v1/customers',
    search.includes('@') ? { email: search } : { phone: search },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(typed.trim());
  };
  return (
    <section className="stack" aria-labelledby="customers-title">
      <h2 id="customers-title" className="sr-only">
        {t('payTabCustomers')}
      </h2>
      <form className="card form-row" role="search" onSubmit={submit}>
        <TextField
          label={t('payCustomerSearch')}
          value={typed}
          onChange={setTyped}
          type="search"
          placeholder="asha@example.co.tz, 0712 345 678"
          testId="customer-search"
        />
        <button type="submit" className="primary">
          {t('paySearch')}
        </button>
      </form>
      <CursorListView list={list} empty={search ? t('payNoneMatch') : t('payNoCustomers')}>
        {(customers) => (
          <RowTable
            rows={customers}
            testId="customer-list"
            rowTestId="customer"
            columns={[
              {
                label: t('payName'),
                cell: (customer) => (
                  <PageLink page="payments" rest={['customers', customer.id]}>
                    {customer.name ?? customer.email ?? customer.id}
                  </PageLink>
                ),
              },
              {
                label: t('payPhone'),
                nowrap: true,
                cell: (customer) => (customer.phone ? phoneText(customer.phone) : '—'),
              },
              { label: t('payEmail'), cell: (customer) => customer.email ?? '—' },
              { label: t('payCreated'), nowrap: true, cell: (customer) => when(customer.created) },
            ]}
          />
        )}
      </CursorListView>
    </section>
  );
}

export function CustomerDetail({ id }: { id: string }) {
  const { t } = useI18n();
  const [loaded, reload] = useLoad(
    () => api.get<Customer>(`/v1/customers/${encodeURIComponent(id)}`),
    `customer ${id}`,
  );
  const payments = useCursorList<Payment>('/v1/payments', { customer: id });
  return (
    <section className="stack" data-testid="customer-detail" aria-labelledby="customer-title">
      <p>
        <PageLink page="payments" rest={['customers']}>
          ← {t('payBackToCustomers')}
        </PageLink>
      </p>
      {loaded.kind === 'loading' && <Loading />}
      {loaded.kind === 'failed' && <Failed error={loaded.error} onRetry={reload} />}
      {loaded.kind === 'done' && (
        <div className="card stack">
          <h2 id="customer-title">{loaded.value.name ?? loaded.value.email ?? loaded.value.id}</h2>
          <Facts
            facts={[
              [t('payPhone'), loaded.value.phone ? phoneText(loaded.value.phone) : '—'],
              [t('payEmail'), loaded.value.email ?? '—'],
              [t('payCreated'), when(loaded.value.created)],
              [t('payDescription'), loaded.value.description ?? '—'],
            ]}
          />
        </div>
      )}
      <h3>{t('payTabPayments')}</h3>
      <CursorListView list={payments} empty={t('payNoPayments')}>
        {(rows) => <PaymentTable payments={rows} />}
      </CursorListView>
    </section>
  );
}
