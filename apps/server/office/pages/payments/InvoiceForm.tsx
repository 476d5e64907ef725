/**
 * A new invoice, or a draft's edit: the customer, the lines (what, how many,
 * the price as people type it, VAT included), the days until due and a memo.
 */
import { TextField } from '../../components/TextField.tsx';
import { useState, type FormEvent } from 'react';
import { api, type List } from '../../api.ts';
import { useAction } from '../../action.ts';
import { Failed, Loading } from '../../components/Status.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { navigate } from '../../router.tsx';
import { formatCount, Message } from '../../shared.ts';
import { typedAmount } from '../../amount.ts';
import { type Invoice } from './parts.tsx';

interface LineDraft {
  key: number;
  description: string;
  quantity: string;
  price: string;
}
let nextKey = 0;
const blankLine = (): LineDraft => ({ key: nextKey++, description: '', quantity: '1', price: '' });

export function InvoiceForm({ invoice }: { invoice?: Invoice }) {
  const { t } = useI18n();
  const [customers] = useLoad(
    () => api.get<List<{ id: string; name: string | null; email: string | null }>>('/v1/customers?limit=100'),
    'invoice customers',
  );
  const [customer, setCustomer] = useState(invoice?.customer ?? '');
  const [lines, setLines] = useState<LineDraft[]>(() =>
    invoice && invoice.lines.length > 0
      ? invoice.lines.map((line) => ({
          key: nextKey++,
          description: line.description,
          quantity: String(line.quantity),
          price: formatCount(line.unit_amount),
        }))
      : [blankLine()],
  );
  const [days, setDays] = useState('30');
  const [memo, setMemo] = useState(invoice?.memo ?? '');
  const { busy, error, run } = useAction();
  const change = (key: number, field: keyof Omit<LineDraft, 'key'>, value: string) =>
    setLines((old) => old.map((line) => (line.key === key ? { ...line, [field]: value } : line)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const body = {
        lines: lines.map((line) => ({
          description: line.description,
          quantity: Number(line.quantity),
          unit_amount: typedAmount(line.price, 'unit_amount'),
        })),
        memo,
        ...(invoice ? {} : { customer, currency: 'TZS', days_until_due: Number(days) }),
      };
      const saved = invoice
        ? await api.post<Invoice>(`/v1/invoices/${encodeURIComponent(invoice.id)}`, body)
        : await api.post<Invoice>('/v1/invoices', body);
      navigate('payments', ['invoices', saved.id]);
    });
  };
  if (customers.kind === 'loading') return <Loading />;
  if (customers.kind === 'failed') return <Failed error={customers.error} onRetry={() => undefined} />;
  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="invoice-form" data-testid="invoice-form">
      <h2 id="invoice-form">{invoice ? t('payEditDraft') : t('payNewInvoice')}</h2>
      {!invoice && (
        <div className="form-row">
          <label>
            {t('payCustomer')}
            <select
              value={customer}
              onChange={(event) => setCustomer(event.target.value)}
              required
              data-testid="invoice-customer"
            >
              <option value="">{t('payChooseCustomer')}</option>
              {customers.value.data.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name ?? c.email ?? c.id}
                </option>
              ))}
            </select>
          </label>
          <TextField
            label={t('payDaysUntilDue')}
            value={days}
            onChange={setDays}
            type="number"
            min={1}
            max={3650}
            testId="invoice-days"
          />
        </div>
      )}
      <fieldset className="stack invoice-lines">
        <legend>{t('payInvoiceLines')}</legend>
        {lines.map((line, index) => (
          <div className="form-row" key={line.key} data-testid="invoice-line">
            <label>
              {t('payLineDescription', { n: index + 1 })}
              <input
                value={line.description}
                onChange={(event) => change(line.key, 'description', event.target.value)}
                required
                data-testid="line-description"
              />
            </label>
            <label className="narrow">
              {t('quantity')}
              <input
                type="number"
                min={1}
                value={line.quantity}
                onChange={(event) => change(line.key, 'quantity', event.target.value)}
                required
                data-testid="line-quantity"
              />
            </label>
            <label className="narrow">
              {t('payUnitPrice')}
              <input
                inputMode="numeric"
                placeholder="12,500"
                value={line.price}
                onChange={(event) => change(line.key, 'price', event.target.value)}
                required
                data-testid="line-price"
              />
            </label>
            {lines.length > 1 && (
              <button
                type="button"
                className="ghost"
                onClick={() => setLines((old) => old.filter((l) => l.key !== line.key))}
              >
                {t('payRemoveLine', { n: index + 1 })}
              </button>
            )}
          </div>
        ))}
        <div>
          <button
            type="button"
            onClick={() => setLines((old) => [...old, blankLine()])}
            data-testid="add-line"
          >
            {t('payAddLine')}
          </button>
        </div>
      </fieldset>
      <label>
        {t('payMemo')}
        <textarea value={memo} onChange={(event) => setMemo(event.target.value)} rows={2} maxLength={2000} />
      </label>
      <Message text={error} />
      <div className="row">
        <button type="submit" className="primary" disabled={busy} data-testid="save-invoice">
          {t('paySaveDraft')}
        </button>
      </div>
    </form>
  );
}
