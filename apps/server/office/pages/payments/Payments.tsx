/**
 * Payments: the section's tabs as a sub-navigation, each at
 * `/office/payments/<tab>/<id>`: payments (the list, one payment with its
 * ledger lines and webhook deliveries, refunding), the balance and its
 * transactions, payouts, customers, invoices, subscriptions and escrow.
 */
import { SubNav, tabOf } from '../../components/SubNav.tsx';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { BalanceTab } from './Balance.tsx';
import { CustomerDetail, CustomersTab } from './Customers.tsx';
import { PaymentDetail } from './PaymentDetail.tsx';
import { PaymentList } from './PaymentList.tsx';
import { InvoicesTab } from './Invoices.tsx';
import { PayoutsTab } from './Payouts.tsx';
import { EscrowTab, SubscriptionsTab } from './Subscriptions.tsx';
import './payments.css';

const TABS = ['payments', 'balance', 'payouts', 'customers', 'invoices', 'subscriptions', 'escrow'] as const;
type Tab = (typeof TABS)[number];

const TAB_WORDS: Record<Tab, MessageKey> = {
  payments: 'payTabPayments',
  balance: 'payTabBalance',
  payouts: 'payTabPayouts',
  customers: 'payTabCustomers',
  invoices: 'payTabInvoices',
  subscriptions: 'payTabSubscriptions',
  escrow: 'payTabEscrow',
};

export function Payments({ rest }: { rest: string[] }) {
  const { t } = useI18n();
  const [, id, action] = rest;
  const tab = tabOf(TABS, rest);
  return (
    <div className="page" data-testid="payments">
      <div className="page-head">
        <h1>{t('navPayments')}</h1>
      </div>
      <SubNav
        page="payments"
        label={t('payTabs')}
        current={tab}
        tabs={TABS.map((name) => [name, t(TAB_WORDS[name])] as const)}
      />
      <TabOf tab={tab} id={id} action={action} />
    </div>
  );
}

function TabOf({ tab, id, action }: { tab: Tab; id: string | undefined; action: string | undefined }) {
  switch (tab) {
    case 'payments':
      return id ? <PaymentDetail key={id} id={id} /> : <PaymentList />;
    case 'balance':
      return <BalanceTab />;
    case 'payouts':
      return <PayoutsTab />;
    case 'customers':
      return id ? <CustomerDetail key={id} id={id} /> : <CustomersTab />;
    case 'invoices':
      return <InvoicesTab id={id} action={action} />;
    case 'subscriptions':
      return <SubscriptionsTab id={id} />;
    case 'escrow':
      return <EscrowTab id={id} />;
  }
}
