/**
 * Invoices: the list (by status), a new one, and one invoice with its lines
 * and totals; a draft is edited, finalised or sent, and an issued invoice has
 * its PDF (in the page's language) and the customer's page to pay it.
 */
import { SelectField } from '../../components/SelectField.tsx';
import { useState } from 'react';
import { api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { PageLink } from '../../router.tsx';
import { formatCount, Message } from '../../shared.ts';
import { InvoiceForm } from './InvoiceForm.tsx';
import { Facts } from '../../components/Facts.tsx';
import { RowTable } from '../../components/DataTable.tsx';
import { money, StatusBadge, STATUS_WORDS, when, type Invoice } from './parts.tsx';

const STATUSES = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const;

export function InvoicesTab({ id, action }: { id: string | undefined; action: string | undefined }) {
  if (id === 'new') return <InvoiceForm />;
  if (id) return <InvoiceDetail key={`${id} ${action ?? ''}`} id={id} editing={action === 'edit'} />;
  return <InvoiceList />;
}

function InvoiceList() {
  const { t } = useI18n();
  const [status, setStatus] = useState('');
  const list = useCursorList<Invoice>('/v1/invoices', { status });
  return (
    <section className="stack" aria-labelledby="invoices-title">
      <h2 id="invoices-title" className="sr-only">
        {t('payTabInvoices')}
      </h2>
      <div className="row spread">
        <SelectField
          label={t('payStatus')}
          value={status}
          onChange={setStatus}
          options={[['', t('payAll')], ...STATUSES.map((name) => [name, t(STATUS_WORDS[name]!)] as const)]}
          testId="invoice-status"
        />
        <PageLink
          page="payments"
          rest={['invoices', 'new']}
          className="button primary"
          data-testid="new-invoice"
        >
          {t('payNewInvoice')}
        </PageLink>
      </div>
      <CursorListView list={list} empty={t('payNoInvoices')}>
        {(invoices) => (
          <RowTable
            rows={invoices}
            testId="invoice-list"
            rowTestId="invoice"
            columns={[
              {
                label: t('payNumber'),
                cell: (invoice) => (
                  <PageLink page="payments" rest={['invoices', invoice.id]}>
                    {invoice.number ?? t('payDraft')}
                  </PageLink>
                ),
              },
              { label: t('payStatus'), cell: (invoice) => <StatusBadge status={invoice.status} /> },
              { label: t('payTotal'), num: true, cell: (invoice) => money(invoice.total, invoice.currency) },
              {
                label: t('payDue'),
                num: true,
                cell: (invoice) => money(invoice.amount_due, invoice.currency),
              },
              { label: t('payDueDate'), nowrap: true, cell: (invoice) => when(invoice.due_date) },
            ]}
          />
        )}
      </CursorListView>
    </section>
  );
}

function InvoiceDetail({ id, editing }: { id: string; editing: boolean }) {
  const { t, language } = useI18n();
  const path = `/v1/invoices/${encodeURIComponent(id)}`;
  const [loaded, reload] = useLoad(() => api.get<Invoice>(path), `invoice ${id}`);
  const { busy, error, run } = useAction();
  const act = (what: 'finalize' | 'send') =>
    void run(async () => {
      await api.post(`${path}/${what}`);
      reload();
    });
  return (
    <section className="stack" data-testid="invoice-detail" aria-labelledby="invoice-title">
      <p>
        <PageLink page="payments" rest={['invoices']}>
          ← {t('payBackToInvoices')}
        </PageLink>
      </p>
      {loaded.kind === 'loading' && <Loading />}
      {loaded.kind === 'failed' && <Failed error={loaded.error} onRetry={reload} />}
      {loaded.kind === 'done' && editing && loaded.value.status === 'draft' && (
        <InvoiceForm invoice={loaded.value} />
      )}
      {loaded.kind === 'done' && !(editing && loaded.value.status === 'draft') && (
        <div className="card stack">
          <div className="till-head">
            <h2 id="invoice-title">{loaded.value.number ?? t('payDraft')}</h2>
            <StatusBadge status={loaded.value.status} />
          </div>
          <Summary invoice={loaded.value} />
          <RowTable
            rows={loaded.value.lines.map((line, index) => ({ ...line, id: String(index) }))}
            testId="invoice-lines"
            caption={t('payInvoiceLines')}
            columns={[
              { label: t('payDescription'), cell: (line) => line.description },
              { label: t('quantity'), num: true, cell: (line) => formatCount(line.quantity) },
              { label: t('payUnitPrice'), num: true, cell: (line) => money(line.unit_amount) },
              { label: t('amount'), num: true, cell: (line) => money(line.amount) },
            ]}
          />
          <Message text={error} />
          <div className="row">
            {loaded.value.status === 'draft' && (
              <>
                <PageLink
                  page="payments"
                  rest={['invoices', id, 'edit']}
                  className="button"
                  data-testid="edit-invoice"
                >
                  {t('payEdit')}
                </PageLink>
                <button type="button" disabled={busy} onClick={() => act('finalize')} data-testid="finalize">
                  {t('payFinalize')}
                </button>
              </>
            )}
            {(loaded.value.status === 'draft' || loaded.value.status === 'open') && (
              <button
                type="button"
                className="primary"
                disabled={busy}
                onClick={() => act('send')}
                data-testid="send"
              >
                {t('paySend')}
              </button>
            )}
            {loaded.value.status !== 'draft' && (
              <a
                className="button"
                href={`${path}/pdf?lang=${language}`}
                target="_blank"
                rel="noreferrer"
                data-testid="pdf"
              >
                {t('payPdf')}
              </a>
            )}
            {loaded.value.hosted_invoice_url && (
              <a
                className="button"
                href={loaded.value.hosted_invoice_url}
                target="_blank"
                rel="noreferrer"
                data-testid="hosted"
              >
                {t('payHosted')}
              </a>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

function Summary({ invoice }: { invoice: Invoice }) {
  const { t } = useI18n();
  const amount = (value: number) => money(value, invoice.currency);
  return (
    <Facts
      facts={[
        [t('payTotal'), amount(invoice.total), { testId: 'invoice-total' }],
        [t('payVat'), amount(invoice.tax)],
        [t('payDue'), amount(invoice.amount_due)],
        [t('payDueDate'), when(invoice.due_date)],
        [t('paySentAt'), when(invoice.sent_at)],
        [
          t('payCustomer'),
          <PageLink page="payments" rest={['customers', invoice.customer]}>
            {invoice.customer}
          </PageLink>,
        ],
        ...(invoice.memo ? [[t('payMemo'), invoice.memo] as [string, string]] : []),
      ]}
    />
  );
}
