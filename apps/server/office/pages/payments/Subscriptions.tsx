/**
 * Subscriptions and escrow, read: each list a page at a time, and one of each
 * with its facts (a subscription's periods, an escrow's splits); a
 * subscription that is not canceled can be canceled now, after a confirmation.
 */
import { useState } from 'react';
import { api } from '../../api.ts';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { PageLink } from '../../router.tsx';
import { formatCount } from '../../shared.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Facts } from '../../components/Facts.tsx';
import { RowTable } from '../../components/DataTable.tsx';
import { money, phoneText, StatusBadge, when } from './parts.tsx';

interface Subscription {
  id: string;
  customer: string;
  amount: number;
  currency: string;
  interval: 'day' | 'week' | 'month' | 'year';
  interval_count: number;
  phone: string;
  description: string | null;
  status: string;
  current_period_end: number | null;
  next_renewal: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  created: number;
}
interface Escrow {
  id: string;
  payment: string;
  amount: number;
  currency: string;
  platform_fee: number;
  status: string;
  released_amount: number;
  refunded_amount: number;
  splits: Array<{
    id: string;
    merchant: string | null;
    phone: string | null;
    amount: number;
    status: string;
  }>;
  description: string | null;
  created: number;
}

const EVERY: Record<Subscription['interval'], MessageKey> = {
  day: 'payEveryDay',
  week: 'payEveryWeek',
  month: 'payEveryMonth',
  year: 'payEveryYear',
};

export function SubscriptionsTab({ id }: { id: string | undefined }) {
  return id ? <SubscriptionDetail key={id} id={id} /> : <SubscriptionList />;
}

function SubscriptionList() {
  const { t } = useI18n();
  const list = useCursorList<Subscription>('/v1/subscriptions');
  return (
    <CursorListView list={list} empty={t('payNoSubscriptions')}>
      {(subscriptions) => (
        <RowTable
          rows={subscriptions}
          testId="subscription-list"
          rowTestId="subscription"
          caption={t('payTabSubscriptions')}
          columns={[
            {
              label: t('amount'),
              num: true,
              cell: (s) => (
                <PageLink page="payments" rest={['subscriptions', s.id]}>
                  {money(s.amount, s.currency)}
                </PageLink>
              ),
            },
            { label: t('payEvery'), cell: (s) => t(EVERY[s.interval], { n: formatCount(s.interval_count) }) },
            { label: t('payStatus'), cell: (s) => <StatusBadge status={s.status} /> },
            { label: t('payPhone'), nowrap: true, cell: (s) => phoneText(s.phone) },
            { label: t('payNextRenewal'), nowrap: true, cell: (s) => when(s.next_renewal) },
          ]}
        />
      )}
    </CursorListView>
  );
}

function SubscriptionDetail({ id }: { id: string }) {
  const { t } = useI18n();
  const path = `/v1/subscriptions/${encodeURIComponent(id)}`;
  const [loaded, reload] = useLoad(() => api.get<Subscription>(path), `subscription ${id}`);
  const [canceling, setCanceling] = useState(false);
  if (loaded.kind === 'loading') return <Loading />;
  if (loaded.kind === 'failed') return <Failed error={loaded.error} onRetry={reload} />;
  const s = loaded.value;
  return (
    <section className="card stack" data-testid="subscription-detail" aria-labelledby="subscription-title">
      <div className="till-head">
        <h2 id="subscription-title">
          {money(s.amount, s.currency)} · {t(EVERY[s.interval], { n: formatCount(s.interval_count) })}
        </h2>
        <StatusBadge status={s.status} />
      </div>
      <Facts
        facts={[
          [t('payPhone'), phoneText(s.phone)],
          [
            t('payCustomer'),
            <PageLink page="payments" rest={['customers', s.customer]}>
              {s.customer}
            </PageLink>,
          ],
          [t('payPeriodEnd'), when(s.current_period_end)],
          [t('payNextRenewal'), when(s.next_renewal)],
          [t('payCanceledAt'), when(s.canceled_at)],
          [t('payDescription'), s.description ?? '—'],
        ]}
      />
      {s.status !== 'canceled' && (
        <div className="row">
          <button
            type="button"
            className="danger"
            onClick={() => setCanceling(true)}
            data-testid="cancel-subscription"
          >
            {t('payCancelSubscription')}
          </button>
        </div>
      )}
      {canceling && (
        <ConfirmDialog
          title={t('payCancelSubscription')}
          lead={t('payCancelLead')}
          confirm={t('payCancelNow')}
          onConfirm={async () => {
            await api.post(`${path}/cancel`, {});
            setCanceling(false);
            reload();
          }}
          onClose={() => setCanceling(false)}
          testId="cancel-dialog"
          confirmTestId="confirm-cancel"
        />
      )}
    </section>
  );
}

export function EscrowTab({ id }: { id: string | undefined }) {
  return id ? <EscrowDetail key={id} id={id} /> : <EscrowList />;
}

function EscrowList() {
  const { t } = useI18n();
  const list = useCursorList<Escrow>('/v1/escrow');
  return (
    <CursorListView list={list} empty={t('payNoEscrow')}>
      {(escrows) => (
        <RowTable
          rows={escrows}
          testId="escrow-list"
          rowTestId="escrow"
          caption={t('payTabEscrow')}
          columns={[
            {
              label: t('amount'),
              num: true,
              cell: (e) => (
                <PageLink page="payments" rest={['escrow', e.id]}>
                  {money(e.amount, e.currency)}
                </PageLink>
              ),
            },
            { label: t('payStatus'), cell: (e) => <StatusBadge status={e.status} /> },
            { label: t('payReleased'), num: true, cell: (e) => money(e.released_amount, e.currency) },
            { label: t('payCreated'), nowrap: true, cell: (e) => when(e.created) },
          ]}
        />
      )}
    </CursorListView>
  );
}

function EscrowDetail({ id }: { id: string }) {
  const { t } = useI18n();
  const [loaded, reload] = useLoad(
    () => api.get<Escrow>(`/v1/escrow/${encodeURIComponent(id)}`),
    `escrow ${id}`,
  );
  if (loaded.kind === 'loading') return <Loading />;
  if (loaded.kind === 'failed') return <Failed error={loaded.error} onRetry={reload} />;
  const e = loaded.value;
  const amount = (value: number) => money(value, e.currency);
  return (
    <section className="card stack" data-testid="escrow-detail" aria-labelledby="escrow-title">
      <div className="till-head">
        <h2 id="escrow-title">{amount(e.amount)}</h2>
        <StatusBadge status={e.status} />
      </div>
      <Facts
        facts={[
          [
            t('payTabPayments'),
            <PageLink page="payments" rest={['payments', e.payment]}>
              {e.payment}
            </PageLink>,
          ],
          [t('payPlatformFee'), amount(e.platform_fee)],
          [t('payReleased'), amount(e.released_amount)],
          [t('payLineRefund'), amount(e.refunded_amount)],
          [t('payCreated'), when(e.created)],
        ]}
      />
      <RowTable
        rows={e.splits}
        testId="escrow-splits"
        caption={t('paySplits')}
        columns={[
          {
            label: t('payRecipient'),
            cell: (split) => (split.phone ? phoneText(split.phone) : split.merchant),
          },
          { label: t('amount'), num: true, cell: (split) => amount(split.amount) },
          { label: t('payStatus'), cell: (split) => <StatusBadge status={split.status} /> },
        ]}
      />
    </section>
  );
}
