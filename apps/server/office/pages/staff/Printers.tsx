/**
 * Printers and print jobs: each printer with its till, address and status as
 * its till last reported; adding a network printer to a till; a test print
 * and what became of it; the print jobs, newest first, by status.
 */
import { TextField } from '../../components/TextField.tsx';
import { useState, type FormEvent } from 'react';
import type { PrinterStatus, PrintJobFailureReason, PrintJobStatus } from '@tz/core';
import { allPages, api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { Actions } from '../../components/Actions.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { Facts } from '../../components/Facts.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import type { ErrorWords } from '../../errors.ts';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { formatDateTime, Message } from '../../shared.ts';
import type { Till } from '../Tills.tsx';

interface Printer {
  id: string;
  till: string;
  name: string;
  connection: string;
  paper_width: 58 | 80;
  status: PrinterStatus;
  status_since: number | null;
}

interface PrintJob {
  id: string;
  printer: string;
  order: string | null;
  text: string | null;
  status: PrintJobStatus;
  failure_reason: PrintJobFailureReason | null;
  created: number;
  completed_at: number | null;
}

const PRINTER_STATUS_WORDS: Record<PrinterStatus, MessageKey> = {
  unknown: 'printerUnknown',
  ready: 'printerReady',
  offline: 'printerOffline',
  paper_out: 'printerPaperOut',
  cover_open: 'printerCoverOpen',
  error: 'printerError',
};
const JOB_STATUS_WORDS: Record<PrintJobStatus, MessageKey> = {
  pending: 'jobPending',
  printed: 'jobPrinted',
  failed: 'jobFailed',
};
const JOB_FAILURE_WORDS: Record<PrintJobFailureReason, MessageKey> = {
  offline: 'printerOffline',
  paper_out: 'printerPaperOut',
  cover_open: 'printerCoverOpen',
  timeout: 'jobTimeout',
  till_revoked: 'jobTillRevoked',
};
const BADGE: Record<PrinterStatus | PrintJobStatus, string> = {
  unknown: '',
  ready: 'status-active',
  offline: 'status-failed',
  paper_out: 'status-pending',
  cover_open: 'status-pending',
  error: 'status-failed',
  pending: 'status-pending',
  printed: 'status-succeeded',
  failed: 'status-failed',
};
const PRINTER_WORDS: ErrorWords = {
  fields: {
    till: 'printerTill',
    name: 'printerName',
    connection: 'printerAddress',
    paper_width: 'printerPaper',
  },
};

const working = (till: Till) => till.status !== 'revoked' && till.status !== 'retired';

export function Printers() {
  const { t } = useI18n();
  const [tills, reloadTills] = useLoad(() => allPages<Till>('/v1/tills'), 'tills');
  return (
    <div className="page" data-testid="printers">
      <div className="page-head">
        <h1>{t('printersTitle')}</h1>
      </div>
      <p className="muted">{t('printersLead')}</p>
      {tills.kind === 'loading' && <Loading />}
      {tills.kind === 'failed' && <Failed error={tills.error} onRetry={reloadTills} />}
      {tills.kind === 'done' && <PrinterList tills={tills.value} />}
    </div>
  );
}

function PrinterList({ tills }: { tills: Till[] }) {
  const { t } = useI18n();
  const printers = useCursorList<Printer>('/v1/printers');
  const [jobStatus, setJobStatus] = useState<'' | PrintJobStatus>('');
  const jobs = useCursorList<PrintJob>('/v1/print-jobs', { status: jobStatus });
  const [deleting, setDeleting] = useState<Printer | null>(null);
  const { error, run } = useAction();
  const tillName = (id: string) => tills.find((till) => till.id === id)?.name ?? id;
  const printed = printers.loaded.kind === 'done' ? printers.loaded.value.data : [];
  const printerName = (id: string) => printed.find((printer) => printer.id === id)?.name ?? id;
  const testPrint = (printer: Printer) =>
    void run(async () => {
      await api.post('/v1/print', {
        printer: printer.id,
        text: t('printerTestText', { name: printer.name }),
      });
      jobs.reload();
    });
  const open = tills.filter(working);
  return (
    <>
      {open.length === 0 ? (
        <p className="card">{t('printersNoTill')}</p>
      ) : (
        <NewPrinter tills={open} onCreated={printers.reload} />
      )}
      <Message text={error} />
      <CursorListView list={printers} empty={t('printersEmpty')}>
        {(rows) => (
          <ul className="cards" data-testid="printer-list">
            {rows.map((printer) => (
              <li key={printer.id} className="card" data-testid="printer" data-printer={printer.id}>
                <div className="card-head">
                  <h3>{printer.name}</h3>
                  <span className={`badge ${BADGE[printer.status]}`}>
                    {t(PRINTER_STATUS_WORDS[printer.status])}
                  </span>
                </div>
                <Facts
                  facts={[
                    [t('printerTill'), tillName(printer.till)],
                    [t('printerAddress'), printer.connection, { className: 'code' }],
                    [t('printerPaper'), `${printer.paper_width} mm`],
                    printer.status_since !== null && [
                      t('printerSince'),
                      formatDateTime(printer.status_since * 1000),
                    ],
                  ]}
                />
                <Actions
                  actions={[
                    { label: t('printerTest'), onClick: () => testPrint(printer), testId: 'test-print' },
                    {
                      label: t('printerDelete'),
                      onClick: () => setDeleting(printer),
                      testId: 'delete-printer',
                      className: 'ghost danger',
                    },
                  ]}
                />
              </li>
            ))}
          </ul>
        )}
      </CursorListView>
      <section className="stack" aria-labelledby="jobs-title">
        <div className="page-head">
          <h2 id="jobs-title">{t('jobsTitle')}</h2>
          <button type="button" onClick={jobs.reload} data-testid="refresh-jobs">
            {t('refresh')}
          </button>
        </div>
        <div className="filters">
          <SelectField<'' | PrintJobStatus>
            label={t('jobStatus')}
            value={jobStatus}
            onChange={setJobStatus}
            options={[
              ['', t('all')],
              ['pending', t('jobPending')],
              ['printed', t('jobPrinted')],
              ['failed', t('jobFailed')],
            ]}
          />
        </div>
        <CursorListView list={jobs} empty={t('jobsEmpty')}>
          {(rows) => (
            <DataTable
              caption={t('jobsTitle')}
              hideCaption
              testId="job-list"
              columns={[
                { label: t('created') },
                { label: t('printerName') },
                { label: t('jobWhat') },
                { label: t('jobStatus') },
              ]}
            >
              {rows.map((job) => (
                <tr key={job.id} data-testid="job" data-job={job.id}>
                  <td className="nowrap">{formatDateTime(job.created * 1000)}</td>
                  <th scope="row">{printerName(job.printer)}</th>
                  <td className="wrap">{job.order ? t('jobReceipt') : (job.text ?? '').split('\n')[0]}</td>
                  <td>
                    <span className={`badge ${BADGE[job.status]}`} data-testid="job-status">
                      {t(JOB_STATUS_WORDS[job.status])}
                    </span>
                    {job.failure_reason && (
                      <span className="small warn"> {t(JOB_FAILURE_WORDS[job.failure_reason])}</span>
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </CursorListView>
      </section>
      {deleting && (
        <ConfirmDialog
          title={t('printerDeleteTitle', { name: deleting.name })}
          lead={t('printerDeleteLead')}
          confirm={t('printerDelete')}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await api.delete(`/v1/printers/${deleting.id}`);
            setDeleting(null);
            printers.reload();
            jobs.reload();
          }}
        />
      )}
    </>
  );
}

function NewPrinter({ tills, onCreated }: { tills: Till[]; onCreated: () => void }) {
  const { t } = useI18n();
  const [till, setTill] = useState(tills[0]!.id);
  const [name, setName] = useState('');
  const [host, setHost] = useState('');
  const [port, setPort] = useState('9100');
  const [paper, setPaper] = useState<'80' | '58'>('80');
  const { busy, error, run } = useAction(PRINTER_WORDS);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api.post('/v1/printers', {
        till,
        name: name.trim(),
        connection: `tcp://${host.trim()}:${port.trim() || '9100'}`,
        paper_width: Number(paper),
      });
      setName('');
      setHost('');
      onCreated();
    });
  };
  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="new-printer">
      <h2 id="new-printer">{t('printerNew')}</h2>
      <div className="form-row">
        <SelectField
          label={t('printerTill')}
          value={till}
          onChange={setTill}
          options={tills.map((one) => [one.id, one.name] as const)}
          testId="printer-till"
        />
        <TextField
          label={t('printerName')}
          value={name}
          onChange={setName}
          required
          maxLength={100}
          testId="printer-name"
        />
      </div>
      <div className="form-row">
        <TextField
          label={t('printerHost')}
          value={host}
          onChange={setHost}
          required
          placeholder="192.168.1.50"
          inputMode="decimal"
          testId="printer-host"
        />
        <label>
          {t('printerPort')}
          <input
            value={port}
            inputMode="numeric"
            maxLength={5}
            onChange={(event) => setPort(event.target.value.replace(/\D/g, ''))}
            data-testid="printer-port"
          />
        </label>
        <SelectField<'80' | '58'>
          label={t('printerPaper')}
          value={paper}
          onChange={setPaper}
          options={[
            ['80', '80 mm'],
            ['58', '58 mm'],
          ]}
        />
        <button type="submit" className="primary" disabled={busy} data-testid="create-printer">
          {t('printerCreate')}
        </button>
      </div>
      <p className="muted small">{t('printerHostLead')}</p>
      <Message text={error} />
    </form>
  );
}
