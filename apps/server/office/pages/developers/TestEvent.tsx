/**
 * A test event: a synthetic event of a chosen type, with the data given, sent
 * to the test-mode endpoints that receive it (no money moves). Test mode only.
 */
import { useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { SelectField } from '../../components/SelectField.tsx';
import type { ErrorWords } from '../../errors.ts';
import { useI18n } from '../../i18n/index.ts';
import { PageLink } from '../../router.tsx';
import { useSignedIn } from '../../session.tsx';
import { Message } from '../../shared.ts';
import { useEventTypes } from './event-types.ts';

const WORDS: ErrorWords = {
  codes: { test_mode_only: 'testEventLiveMode' },
  fields: { type: 'testEventType', data: 'testEventData' },
};

export function TestEvent() {
  const { t } = useI18n();
  const session = useSignedIn();
  const types = useEventTypes();
  const [type, setType] = useState('payment.succeeded');
  const [data, setData] = useState('{\n  "id": "pay_test"\n}');
  const [sent, setSent] = useState<string | null>(null);
  const [badJson, setBadJson] = useState(false);
  const { busy, error, run } = useAction(WORDS);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSent(null);
    let object: unknown;
    try {
      object = data.trim() === '' ? {} : JSON.parse(data);
    } catch {
      object = null;
    }
    const isObject = typeof object === 'object' && object !== null && !Array.isArray(object);
    setBadJson(!isObject);
    if (!isObject) return;
    void run(async () => {
      const created = await api.post<{ id: string }>('/v1/webhook-events/test', { type, data: object });
      setSent(created.id);
    });
  };
  return (
    <section className="stack" aria-labelledby="test-event-title" data-testid="test-event">
      <h2 id="test-event-title">{t('testEventTitle')}</h2>
      <p className="muted">{t('testEventLead')}</p>
      {session.livemode ? (
        <p className="card warn" data-testid="test-event-live">
          {t('testEventLiveMode')}
        </p>
      ) : (
        <form className="card stack" onSubmit={submit}>
          <SelectField
            label={t('testEventType')}
            value={type}
            onChange={setType}
            options={(types.length > 0 ? types : [type]).map((name) => [name, name] as const)}
            testId="test-event-type"
          />
          <label>
            {t('testEventData')}
            <textarea
              rows={6}
              className="code"
              value={data}
              onChange={(event) => setData(event.target.value)}
              aria-invalid={badJson}
              aria-describedby={badJson ? 'test-event-json' : undefined}
              data-testid="test-event-data"
            />
          </label>
          {badJson && (
            <p id="test-event-json" className="message error" role="alert">
              {t('testEventBadJson')}
            </p>
          )}
          <Message text={error} />
          {sent && (
            <p className="message ok" role="status" data-testid="test-event-sent">
              {t('testEventSent', { id: sent })}{' '}
              <PageLink page="developers" rest={['deliveries']}>
                {t('deliveriesTitle')}
              </PageLink>
            </p>
          )}
          <div>
            <button type="submit" className="primary" disabled={busy} data-testid="send-test-event">
              {t('testEventSend')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
