/** The API's request log, newest first: each request's time, method, path, status, duration, key and request id, by status, method and path. */
import { TextField } from '../../components/TextField.tsx';
import { useState } from 'react';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { useI18n } from '../../i18n/index.ts';
import { formatDateTime } from '../../shared.ts';

interface RequestLog {
  id: string;
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  api_key: string | null;
  error_code: string | null;
  created: number;
}

const METHODS = ['GET', 'POST', 'PATCH', 'DELETE'];

export function Logs() {
  const { t } = useI18n();
  const [statusClass, setStatusClass] = useState('');
  const [method, setMethod] = useState('');
  const [path, setPath] = useState('');
  const list = useCursorList<RequestLog>('/v1/logs', {
    status_class: statusClass,
    method,
    path: path.trim(),
  });
  return (
    <section className="stack" aria-labelledby="logs-title" data-testid="logs">
      <h2 id="logs-title">{t('logsTitle')}</h2>
      <p className="muted">{t('logsLead')}</p>
      <div className="filters">
        <SelectField
          label={t('logsStatus')}
          value={statusClass}
          onChange={setStatusClass}
          options={[
            ['', t('all')],
            ['2xx', t('logsOk')],
            ['4xx', t('logsRefused')],
            ['5xx', t('logsFailed')],
          ]}
          testId="log-status"
        />
        <SelectField
          label={t('logsMethod')}
          value={method}
          onChange={setMethod}
          options={[['', t('all')], ...METHODS.map((name) => [name, name] as const)]}
        />
        <TextField
          label={t('logsPath')}
          value={path}
          onChange={setPath}
          placeholder="/v1/payments"
          maxLength={500}
          testId="log-path"
        />
      </div>
      <CursorListView list={list} empty={t('logsEmpty')}>
        {(logs) => (
          <DataTable
            caption={t('logsTitle')}
            hideCaption
            testId="log-list"
            columns={[
              { label: t('logsTime') },
              { label: t('logsRequest') },
              { label: t('logsStatus'), num: true },
              { label: t('deliveryDuration'), num: true },
              { label: t('logsKey') },
            ]}
          >
            {logs.map((log) => (
              <tr key={log.id} data-testid="log">
                <td className="nowrap">{formatDateTime(log.created * 1000)}</td>
                <th scope="row" className="wrap">
                  <span className="code">
                    {log.method} {log.path}
                  </span>
                  <br />
                  <span className="muted small code">{log.request_id}</span>
                </th>
                <td className={`num${log.status >= 400 ? ' warn' : ''}`}>
                  {log.status}
                  {log.error_code && <span className="small"> {log.error_code}</span>}
                </td>
                <td className="num">{log.duration_ms} ms</td>
                <td className="code small">
                  {log.api_key === null || log.api_key.startsWith('ses_') ? t('logsSession') : log.api_key}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </CursorListView>
    </section>
  );
}
