/**
 * Payouts: sending money from the available balance to a mobile number (the
 * amount as the person types it, "12,500"), and the payouts made, newest first.
 */
import { TextField } from '../../components/TextField.tsx';
import { typedAmount } from '../../amount.ts';
import { useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { useI18n } from '../../i18n/index.ts';
import { Message } from '../../shared.ts';
import { RowTable } from '../../components/DataTable.tsx';
import { money, NETWORK_NAMES, PhoneField, phoneText, StatusBadge, when } from './parts.tsx';

interface Payout {
  id: string;
  amount: number;
  currency: string;
  status: 'pending' | 'paid' | 'failed';
  destination:
    | { type: 'mobile_money'; phone: string; network: string | null }
    | { type: 'bank'; bank_name: string; account_number: string };
  description: string | null;
  failure_message: string | null;
  created: number;
}

export function PayoutsTab() {
  const { t } = useI18n();
  const list = useCursorList<Payout>('/v1/payouts');
  return (
    <div className="stack">
      <NewPayout onCreated={list.reload} />
      <section className="stack" aria-labelledby="payouts-title">
        <h2 id="payouts-title">{t('payPayoutsMade')}</h2>
        <CursorListView list={list} empty={t('payNoPayouts')}>
          {(payouts) => <PayoutTable payouts={payouts} />}
        </CursorListView>
      </section>
    </div>
  );
}

function NewPayout({ onCreated }: { onCreated: () => void }) {
  const { t } = useI18n();
  const [amount, setAmount] = useState('');
  const [phone, setPhone] = useState('');
  const [description, setDescription] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSent(null);
    void run(async () => {
      const payout = await api.post<Payout>('/v1/payouts', {
        amount: typedAmount(amount),
        currency: 'TZS',
        destination: { type: 'mobile_money', phone },
        ...(description.trim() ? { description: description.trim() } : {}),
      });
      setAmount('');
      setPhone('');
      setDescription('');
      setSent(t('payPayoutSent', { amount: money(payout.amount, payout.currency) }));
      onCreated();
    });
  };
  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="new-payout">
      <h2 id="new-payout">{t('payNewPayout')}</h2>
      <p className="muted">{t('payNewPayoutLead')}</p>
      <div className="form-row">
        <TextField
          label={t('payAmountTzs')}
          value={amount}
          onChange={setAmount}
          inputMode="numeric"
          autoComplete="off"
          placeholder="12,500"
          required
          testId="payout-amount"
        />
        <PhoneField
          value={phone}
          onChange={(event) => setPhone(event.target.value)}
          required
          testId="payout-phone"
        />
        <TextField
          label={t('payDescriptionOptional')}
          value={description}
          onChange={setDescription}
          maxLength={500}
          testId="payout-description"
        />
        <button type="submit" className="primary" disabled={busy} data-testid="create-payout">
          {t('paySendPayout')}
        </button>
      </div>
      <Message text={error} />
      {sent && (
        <p className="ok" role="status" data-testid="payout-sent">
          {sent}
        </p>
      )}
    </form>
  );
}

function PayoutTable({ payouts }: { payouts: Payout[] }) {
  const { t } = useI18n();
  return (
    <RowTable
      rows={payouts}
      testId="payout-list"
      rowTestId="payout"
      columns={[
        { label: t('amount'), num: true, cell: (payout) => money(payout.amount, payout.currency) },
        { label: t('payStatus'), cell: (payout) => <StatusBadge status={payout.status} /> },
        { label: t('payRecipient'), nowrap: true, cell: (payout) => recipient(payout.destination) },
        {
          label: t('payDescription'),
          cell: (payout) => payout.failure_message ?? payout.description ?? '—',
        },
        { label: t('payCreated'), nowrap: true, cell: (payout) => when(payout.created) },
      ]}
    />
  );
}

const recipient = (to: Payout['destination']) =>
  to.type === 'mobile_money'
    ? `${phoneText(to.phone)}${to.network ? ` · ${NETWORK_NAMES[to.network]}` : ''}`
    : `${to.bank_name} ${to.account_number}`;
