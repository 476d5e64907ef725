/**
 * Webhook endpoints of the session's mode with their health: creating one
 * (its signing secret shown once), editing its URL, events and description,
 * turning it off and on, a new signing secret, deleting it.
 */
import { useState } from 'react';
import { api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { Actions } from '../../components/Actions.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { Facts } from '../../components/Facts.tsx';
import { OfficeDialog } from '../../components/OfficeDialog.tsx';
import { SecretDialog } from '../../components/SecretDialog.tsx';
import type { ErrorWords } from '../../errors.ts';
import { useI18n } from '../../i18n/index.ts';
import { formatCount, formatDateTime, Message } from '../../shared.ts';
import { EndpointForm, type EndpointFields } from './EndpointForm.tsx';

export interface Endpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  disabled_reason: 'manual' | 'consecutive_failures' | null;
  created: number;
  secret?: string;
  health: {
    consecutive_failures: number;
    recent_attempts: number;
    recent_success_rate: number | null;
    last_attempt: { at: number; succeeded: boolean; status_code: number | null } | null;
  };
}

export const ENDPOINT_WORDS: ErrorWords = {
  codes: { url_not_allowed: 'endpointUrlNotAllowed' },
  fields: { url: 'endpointUrl', events: 'endpointEvents', description: 'endpointDescription' },
};

export function Webhooks() {
  const { t } = useI18n();
  const list = useCursorList<Endpoint>('/v1/webhooks');
  const [secret, setSecret] = useState<Endpoint | null>(null);
  const [editing, setEditing] = useState<Endpoint | null>(null);
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  const [rotating, setRotating] = useState<Endpoint | null>(null);
  return (
    <section className="stack" aria-labelledby="webhooks-title" data-testid="webhooks">
      <h2 id="webhooks-title">{t('webhooksTitle')}</h2>
      <p className="muted">{t('webhooksLead')}</p>
      <NewEndpoint
        onCreated={(endpoint) => {
          setSecret(endpoint);
          list.reload();
        }}
      />
      <CursorListView list={list} empty={t('webhooksEmpty')}>
        {(endpoints) => (
          <ul className="cards" data-testid="endpoint-list">
            {endpoints.map((endpoint) => (
              <EndpointCard
                key={endpoint.id}
                endpoint={endpoint}
                onEdit={() => setEditing(endpoint)}
                onRotate={() => setRotating(endpoint)}
                onDelete={() => setDeleting(endpoint)}
              />
            ))}
          </ul>
        )}
      </CursorListView>
      {secret?.secret && (
        <SecretDialog
          title={t('endpointSecretTitle')}
          label={t('endpointSecret')}
          secret={secret.secret}
          onClose={() => setSecret(null)}
        />
      )}
      {editing && (
        <EditEndpoint
          endpoint={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            list.reload();
          }}
        />
      )}
      {rotating && (
        <ConfirmDialog
          title={t('endpointRotateTitle')}
          lead={t('endpointRotateLead')}
          confirm={t('endpointRotate')}
          onClose={() => setRotating(null)}
          onConfirm={async () => {
            const rotated = await api.post<Endpoint>(`/v1/webhooks/${rotating.id}/rotate-secret`);
            setRotating(null);
            setSecret(rotated);
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('endpointDeleteTitle', { url: deleting.url })}
          lead={t('endpointDeleteLead')}
          confirm={t('endpointDelete')}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await api.delete(`/v1/webhooks/${deleting.id}`);
            setDeleting(null);
            list.reload();
          }}
        />
      )}
    </section>
  );
}

function EndpointCard({
  endpoint,
  onEdit,
  onRotate,
  onDelete,
}: {
  endpoint: Endpoint;
  onEdit: () => void;
  onRotate: () => void;
  onDelete: () => void;
}) {
  const { t } = useI18n();
  const { health } = endpoint;
  const rate = health.recent_success_rate;
  return (
    <li className="card" data-testid="endpoint" data-endpoint={endpoint.id}>
      <div className="card-head">
        <h3 className="code">{endpoint.url}</h3>
        <span className={`badge status-${endpoint.status}`}>
          {t(endpoint.status === 'enabled' ? 'endpointEnabled' : 'endpointDisabled')}
        </span>
      </div>
      {endpoint.description && <p>{endpoint.description}</p>}
      {endpoint.disabled_reason === 'consecutive_failures' && (
        <p className="warn">{t('endpointDisabledFailures')}</p>
      )}
      <Facts
        facts={[
          [
            t('endpointEvents'),
            endpoint.events.includes('*')
              ? t('endpointAllEvents')
              : t('endpointEventCount', { count: endpoint.events.length }),
          ],
          [
            t('endpointSuccessRate'),
            rate === null
              ? t('endpointNoAttempts')
              : t('endpointRate', {
                  percent: Math.round(rate * 100),
                  count: formatCount(health.recent_attempts),
                }),
          ],
          [
            t('endpointLastAttempt'),
            health.last_attempt
              ? `${formatDateTime(health.last_attempt.at * 1000)} · ${health.last_attempt.status_code ?? t('endpointNoAnswer')}`
              : t('never'),
            { className: health.last_attempt && !health.last_attempt.succeeded ? 'warn' : '' },
          ],
        ]}
      />
      <Actions
        actions={[
          { label: t('endpointEdit'), onClick: onEdit, testId: 'edit-endpoint' },
          { label: t('endpointRotate'), onClick: onRotate, testId: 'rotate-secret', className: 'ghost' },
          {
            label: t('endpointDelete'),
            onClick: onDelete,
            testId: 'delete-endpoint',
            className: 'ghost danger',
          },
        ]}
      />
    </li>
  );
}

const bodyOf = (fields: EndpointFields) => ({
  url: fields.url,
  events: fields.events,
  ...(fields.description ? { description: fields.description } : {}),
});

function NewEndpoint({ onCreated }: { onCreated: (endpoint: Endpoint) => void }) {
  const { t } = useI18n();
  const { busy, error, run } = useAction(ENDPOINT_WORDS);
  // A new form (cleared) after each endpoint made.
  const [round, setRound] = useState(0);
  return (
    <div className="card stack">
      <h3>{t('endpointNew')}</h3>
      <EndpointForm
        key={round}
        idPrefix="new-endpoint"
        initial={{ url: '', description: '', events: ['*'] }}
        onSubmit={(fields) =>
          void run(async () => {
            onCreated(await api.post<Endpoint>('/v1/webhooks', bodyOf(fields)));
            setRound((n) => n + 1);
          })
        }
      >
        <Message text={error} />
        <div>
          <button type="submit" className="primary" disabled={busy} data-testid="create-endpoint">
            {t('endpointCreate')}
          </button>
        </div>
      </EndpointForm>
    </div>
  );
}

function EditEndpoint({
  endpoint,
  onClose,
  onSaved,
}: {
  endpoint: Endpoint;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useI18n();
  const { busy, error, run } = useAction(ENDPOINT_WORDS);
  const enabled = endpoint.status === 'enabled';
  const save = (body: Record<string, unknown>) =>
    void run(async () => {
      await api.patch(`/v1/webhooks/${endpoint.id}`, body);
      onSaved();
    });
  return (
    <OfficeDialog title={t('endpointEditTitle')} onClose={onClose} wide testId="edit-endpoint-dialog">
      <EndpointForm
        idPrefix="edit-endpoint"
        initial={{ url: endpoint.url, description: endpoint.description ?? '', events: endpoint.events }}
        onSubmit={(fields) => save({ ...bodyOf(fields), description: fields.description || null })}
      >
        <Message text={error} />
        <div className="row">
          <button type="submit" className="primary" disabled={busy} data-testid="save-endpoint">
            {t('save')}
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => save({ status: enabled ? 'disabled' : 'enabled' })}
            data-testid="toggle-endpoint"
          >
            {t(enabled ? 'endpointTurnOff' : 'endpointTurnOn')}
          </button>
          <button type="button" onClick={onClose}>
            {t('cancel')}
          </button>
        </div>
      </EndpointForm>
    </OfficeDialog>
  );
}
