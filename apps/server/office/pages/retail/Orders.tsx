/** Orders: the sales, newest first, by store, till and cashier. */
import { SelectField } from '../../components/SelectField.tsx';
import { allPages } from '../../api.ts';
import { useState } from 'react';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { formatDateTime, formatMoney } from '../../shared.ts';
import { type Store } from './model.ts';

interface Order {
  id: string;
  receipt_number: string;
  status: 'open' | 'paid' | 'partially_refunded' | 'refunded' | 'voided';
  store: string;
  till: string | null;
  cashier: string | null;
  currency: string;
  total: number;
  created: number;
  paid_at: number | null;
}
interface Named {
  id: string;
  name: string;
}

export function Orders() {
  const { t } = useI18n();
  const [store, setStore] = useState('');
  const [till, setTill] = useState('');
  const [cashier, setCashier] = useState('');
  const [choices] = useLoad(
    () =>
      Promise.all([
        allPages<Store>('/v1/retail/stores'),
        allPages<Named>('/v1/tills'),
        allPages<Named>('/v1/employees'),
      ]),
    'order-choices',
  );
  const [stores, tills, cashiers] = choices.kind === 'done' ? choices.value : [[], [], []];
  const list = useCursorList<Order>('/v1/orders', { store, till, cashier });
  // A till's order names its till and cashier by id; an API key's order by the names it gave.
  const nameIn = (named: Named[], id: string | null) => named.find((n) => n.id === id)?.name ?? id ?? '';
  const choice = (
    label: string,
    all: string,
    value: string,
    set: (v: string) => void,
    named: Named[],
    testId: string,
  ) => (
    <SelectField
      label={label}
      value={value}
      onChange={set}
      options={[['', all] as const, ...named.map((n) => [n.id, n.name] as const)]}
      testId={testId}
    />
  );
  return (
    <>
      <div className="filters">
        {choice(t('store'), t('allStores'), store, setStore, stores, 'orders-store')}
        {choice(t('till'), t('allTills'), till, setTill, tills, 'orders-till')}
        {choice(t('cashier'), t('allCashiers'), cashier, setCashier, cashiers, 'orders-cashier')}
      </div>
      <CursorListView list={list} empty={t('noOrders')}>
        {(rows) => (
          <DataTable
            testId="order-list"
            className="retail-table"
            columns={[
              t('receipt'),
              t('when'),
              t('store'),
              t('till'),
              t('cashier'),
              { label: t('total'), num: true },
              t('status'),
            ]}
          >
            {rows.map((order) => (
              <tr key={order.id} data-testid="order">
                <th scope="row">{order.receipt_number}</th>
                <td>{formatDateTime((order.paid_at ?? order.created) * 1000)}</td>
                <td>{nameIn(stores, order.store)}</td>
                <td>{nameIn(tills, order.till)}</td>
                <td>{nameIn(cashiers, order.cashier)}</td>
                <td className="num">{formatMoney(order.total, order.currency)}</td>
                <td>{t(`order_${order.status}` as MessageKey)}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </CursorListView>
    </>
  );
}
