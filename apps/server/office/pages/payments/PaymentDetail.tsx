/**
 * One payment: what it is and where it stands, its lines in the ledger
 * (`GET /v1/transactions?source=`), the webhook deliveries of its events
 * (`GET /v1/webhook-deliveries?object=`), and refunding it while it is paid.
 */
import { useState } from 'react';
import { api, type List } from '../../api.ts';
import { Failed, Loading } from '../../components/Status.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { PageLink } from '../../router.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Facts } from '../../components/Facts.tsx';
import { RowTable } from '../../components/DataTable.tsx';
import {
  money,
  NETWORK_NAMES,
  phoneText,
  StatusBadge,
  useLineWord,
  when,
  type Line,
  type Payment,
} from './parts.tsx';

interface Delivery {
  id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: Array<{ at: number; status_code: number | null }>;
  created: number;
}

export function PaymentDetail({ id }: { id: string }) {
  const { t } = useI18n();
  const [loaded, reload] = useLoad(
    () =>
      Promise.all([
        api.get<Payment>(`/v1/payments/${encodeURIComponent(id)}`),
        api.get<List<Line>>(`/v1/transactions?limit=100&source=${encodeURIComponent(id)}`),
        api.get<List<Delivery>>(`/v1/webhook-deliveries?limit=100&object=${encodeURIComponent(id)}`),
      ]),
    `payment ${id}`,
  );
  const [refunding, setRefunding] = useState(false);
  return (
    <section className="stack" data-testid="payment-detail" aria-labelledby="payment-title">
      <p>
        <PageLink page="payments" rest={['payments']}>
          ← {t('payBackToList')}
        </PageLink>
      </p>
      {loaded.kind === 'loading' && <Loading />}
      {loaded.kind === 'failed' && <Failed error={loaded.error} onRetry={reload} />}
      {loaded.kind === 'done' && (
        <>
          <Summary payment={loaded.value[0]} onRefund={() => setRefunding(true)} />
          <Lines lines={loaded.value[1].data} />
          <Deliveries deliveries={loaded.value[2].data} />
          {refunding && (
            <RefundDialog
              payment={loaded.value[0]}
              onClose={() => setRefunding(false)}
              onRefunded={() => {
                setRefunding(false);
                reload();
              }}
            />
          )}
        </>
      )}
    </section>
  );
}

function Summary({ payment, onRefund }: { payment: Payment; onRefund: () => void }) {
  const { t } = useI18n();
  const amount = (value: number | null) => money(value, payment.currency);
  return (
    <div className="card stack">
      <div className="till-head">
        <h2 id="payment-title" data-testid="payment-amount">
          {amount(payment.amount)}
        </h2>
        <StatusBadge status={payment.status} />
      </div>
      <Facts
        facts={[
          [t('payPhone'), phoneText(payment.phone)],
          [t('payNetwork'), payment.network ? NETWORK_NAMES[payment.network] : '—'],
          [t('payCreated'), when(payment.created)],
          [t('payPaidAt'), when(payment.paid_at)],
          [t('fees'), amount(payment.fee)],
          [t('net'), amount(payment.net)],
          ...(payment.refunded_at
            ? [[t('payRefundedAt'), when(payment.refunded_at)] as [string, string]]
            : []),
          ...(payment.description ? [[t('payDescription'), payment.description] as [string, string]] : []),
          ...(payment.failure_message
            ? [[t('payFailure'), payment.failure_message] as [string, string]]
            : []),
          [t('payReference'), <code className="break">{payment.id}</code>],
        ]}
      />
      {payment.status === 'paid' && (
        <div className="row">
          <button type="button" className="danger" onClick={onRefund} data-testid="refund">
            {t('payRefund')}
          </button>
        </div>
      )}
    </div>
  );
}

function Lines({ lines }: { lines: Line[] }) {
  const { t } = useI18n();
  const word = useLineWord();
  const amount = (value: number, line: Line) => money(value, line.currency);
  return (
    <section className="stack" aria-labelledby="ledger-lines">
      <h3 id="ledger-lines">{t('payLedger')}</h3>
      <RowTable
        rows={lines}
        empty={t('payNoLedger')}
        testId="ledger-lines"
        rowTestId="ledger-line"
        columns={[
          { label: t('payType'), cell: (line) => word(line.type) },
          { label: t('payBalance'), cell: (line) => word(line.balance) },
          { label: t('amount'), num: true, cell: (line) => amount(line.amount, line) },
          { label: t('fees'), num: true, cell: (line) => amount(line.fee, line) },
          { label: t('net'), num: true, cell: (line) => amount(line.net, line) },
          { label: t('payCreated'), nowrap: true, cell: (line) => when(line.created) },
        ]}
      />
    </section>
  );
}

function Deliveries({ deliveries }: { deliveries: Delivery[] }) {
  const { t } = useI18n();
  return (
    <section className="stack" aria-labelledby="deliveries">
      <h3 id="deliveries">{t('payDeliveries')}</h3>
      <RowTable
        rows={deliveries}
        empty={t('payNoDeliveries')}
        testId="deliveries"
        rowTestId="delivery"
        columns={[
          { label: t('payEvent'), cell: (delivery) => delivery.event_type },
          { label: t('payStatus'), cell: (delivery) => <StatusBadge status={delivery.status} /> },
          { label: t('payAttempts'), num: true, cell: (delivery) => delivery.attempts.length },
          { label: t('payLastAnswer'), cell: (delivery) => delivery.attempts.at(-1)?.status_code ?? '—' },
          { label: t('payCreated'), nowrap: true, cell: (delivery) => when(delivery.created) },
        ]}
      />
    </section>
  );
}

/** The API refunds a payment whole (its net leaves the available balance, the fee comes back). */
function RefundDialog({
  payment,
  onClose,
  onRefunded,
}: {
  payment: Payment;
  onClose: () => void;
  onRefunded: () => void;
}) {
  const { t } = useI18n();
  const amount = money(payment.amount, payment.currency);
  return (
    <ConfirmDialog
      title={t('payRefundTitle', { amount })}
      lead={t('payRefundLead', { amount, phone: phoneText(payment.phone) })}
      confirm={t('payRefundConfirm', { amount })}
      onConfirm={async () => {
        await api.post(`/v1/payments/${encodeURIComponent(payment.id)}/refund`);
        onRefunded();
      }}
      onClose={onClose}
      testId="refund-dialog"
      confirmTestId="confirm-refund"
    />
  );
}
