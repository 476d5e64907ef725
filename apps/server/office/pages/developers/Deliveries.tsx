/**
 * The webhook delivery log, newest first, by status and event type; a
 * delivery's page (`/office/developers/deliveries/<id>`) with every attempt
 * and the replay, which sends its event again as a new delivery.
 */
import { useState } from 'react';
import { api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { Facts } from '../../components/Facts.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { navigate, PageLink } from '../../router.tsx';
import { formatDateTime, Message } from '../../shared.ts';
import { useEventTypes } from './event-types.ts';

interface Delivery {
  id: string;
  endpoint: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  failure_reason: 'attempts_exhausted' | 'endpoint_deleted' | 'endpoint_disabled' | null;
  attempts: {
    at: number;
    status_code: number | null;
    duration_ms: number;
    error: string | null;
    succeeded: boolean;
    response_body: string | null;
  }[];
  next_attempt_at: number | null;
  created: number;
  replayed_from: string | null;
}

const STATUSES = ['pending', 'succeeded', 'failed'] as const;
const STATUS_WORDS: Record<Delivery['status'], MessageKey> = {
  pending: 'deliveryPending',
  succeeded: 'deliverySucceeded',
  failed: 'deliveryFailed',
};
const REASON_WORDS: Record<NonNullable<Delivery['failure_reason']>, MessageKey> = {
  attempts_exhausted: 'deliveryExhausted',
  endpoint_deleted: 'deliveryEndpointDeleted',
  endpoint_disabled: 'deliveryEndpointDisabled',
};

const Status = ({ status }: { status: Delivery['status'] }) => {
  const { t } = useI18n();
  return <span className={`badge status-${status}`}>{t(STATUS_WORDS[status])}</span>;
};

export function Deliveries() {
  const { t } = useI18n();
  const types = useEventTypes();
  const [status, setStatus] = useState('');
  const [eventType, setEventType] = useState('');
  const list = useCursorList<Delivery>('/v1/webhook-deliveries', { status, event_type: eventType });
  return (
    <section className="stack" aria-labelledby="deliveries-title" data-testid="deliveries">
      <h2 id="deliveries-title">{t('deliveriesTitle')}</h2>
      <div className="filters">
        <SelectField
          label={t('deliveryStatus')}
          value={status}
          onChange={setStatus}
          options={[['', t('all')], ...STATUSES.map((value) => [value, t(STATUS_WORDS[value])] as const)]}
          testId="delivery-status"
        />
        <SelectField
          label={t('deliveryEventType')}
          value={eventType}
          onChange={setEventType}
          options={[['', t('all')], ...types.map((type) => [type, type] as const)]}
        />
      </div>
      <CursorListView list={list} empty={t('deliveriesEmpty')}>
        {(deliveries) => (
          <DataTable
            caption={t('deliveriesTitle')}
            hideCaption
            testId="delivery-list"
            columns={[
              { label: t('deliveryEventType') },
              { label: t('deliveryStatus') },
              { label: t('deliveryAttempts'), num: true },
              { label: t('created') },
            ]}
          >
            {deliveries.map((delivery) => (
              <tr key={delivery.id} data-testid="delivery" data-delivery={delivery.id}>
                <th scope="row" className="nowrap">
                  <PageLink page="developers" rest={['deliveries', delivery.id]} className="code">
                    {delivery.event_type}
                  </PageLink>
                  {delivery.replayed_from && <span className="muted small"> · {t('deliveryReplay')}</span>}
                </th>
                <td>
                  <Status status={delivery.status} />
                </td>
                <td className="num">{delivery.attempts.length}</td>
                <td className="nowrap">{formatDateTime(delivery.created * 1000)}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </CursorListView>
    </section>
  );
}

export function DeliveryDetail({ id }: { id: string }) {
  const { t } = useI18n();
  const [loaded, reload] = useLoad(
    () => api.get<Delivery>(`/v1/webhook-deliveries/${encodeURIComponent(id)}`),
    id,
  );
  const { busy, error, run } = useAction();
  const delivery = loaded.kind === 'done' ? loaded.value : null;
  const replay = () =>
    void run(async () => {
      const replayed = await api.post<Delivery>(`/v1/webhook-deliveries/${encodeURIComponent(id)}/replay`);
      navigate('developers', ['deliveries', replayed.id]);
    });
  return (
    <section className="stack" aria-labelledby="delivery-title" data-testid="delivery-detail">
      <p>
        <PageLink page="developers" rest={['deliveries']}>
          ← {t('deliveriesTitle')}
        </PageLink>
      </p>
      {loaded.kind === 'loading' && <Loading />}
      {loaded.kind === 'failed' && <Failed error={loaded.error} onRetry={reload} />}
      {delivery && (
        <>
          <div className="card stack">
            <div className="card-head">
              <h2 id="delivery-title" className="code">
                {delivery.event_type}
              </h2>
              <span data-testid="delivery-status-badge">
                <Status status={delivery.status} />
              </span>
            </div>
            <Facts
              facts={[
                [t('deliveryId'), delivery.id, { testId: 'delivery-id', className: 'code' }],
                [t('deliveryEvent'), delivery.event_id, { className: 'code' }],
                [t('deliveryEndpoint'), delivery.endpoint, { className: 'code' }],
                [t('created'), formatDateTime(delivery.created * 1000)],
                delivery.next_attempt_at !== null && [
                  t('deliveryNext'),
                  formatDateTime(delivery.next_attempt_at * 1000),
                ],
                delivery.failure_reason !== null && [
                  t('deliveryWhyFailed'),
                  t(REASON_WORDS[delivery.failure_reason]),
                  { className: 'warn' },
                ],
                delivery.replayed_from !== null && [
                  t('deliveryReplayOf'),
                  <PageLink page="developers" rest={['deliveries', delivery.replayed_from]} className="code">
                    {delivery.replayed_from}
                  </PageLink>,
                ],
              ]}
            />
            <Message text={error} />
            <div className="row">
              <button type="button" className="primary" onClick={replay} disabled={busy} data-testid="replay">
                {t('deliveryReplayButton')}
              </button>
              <button type="button" onClick={reload} data-testid="refresh-delivery">
                {t('refresh')}
              </button>
            </div>
            <p className="muted small">{t('deliveryReplayLead')}</p>
          </div>
          <Attempts attempts={delivery.attempts} />
        </>
      )}
    </section>
  );
}

function Attempts({ attempts }: { attempts: Delivery['attempts'] }) {
  const { t } = useI18n();
  if (attempts.length === 0) return <p className="muted">{t('deliveryNoAttempts')}</p>;
  return (
    <DataTable
      caption={t('deliveryAttempts')}
      testId="attempts"
      columns={[
        { label: t('deliveryAttemptAt') },
        { label: t('deliveryAnswer') },
        { label: t('deliveryDuration'), num: true },
        { label: t('deliveryResponse') },
      ]}
    >
      {attempts.map((attempt, index) => (
        <tr key={index} data-testid="attempt">
          <th scope="row" className="nowrap">
            {formatDateTime(attempt.at * 1000)}
          </th>
          <td className={attempt.succeeded ? undefined : 'warn'}>
            {attempt.status_code ?? t('endpointNoAnswer')}
            {attempt.error && <span className="small"> · {attempt.error}</span>}
          </td>
          <td className="num">{attempt.duration_ms} ms</td>
          <td className="wrap code small">{attempt.response_body ?? ''}</td>
        </tr>
      ))}
    </DataTable>
  );
}
