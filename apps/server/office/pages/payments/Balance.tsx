/**
 * The balance per currency (`GET /v1/balance`: available, pending, escrow,
 * referral) and the ledger's transactions behind it, newest first, a page at a time.
 */
import { api } from '../../api.ts';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { PageLink } from '../../router.tsx';
import { RowTable } from '../../components/DataTable.tsx';
import { money, useLineWord, when, type Line } from './parts.tsx';

type Amounts = Array<{ amount: number; currency: string }>;
interface Balance {
  available: Amounts;
  pending: Amounts;
  escrow: Amounts;
  referral: Amounts;
}
const BALANCES = ['available', 'pending', 'escrow', 'referral'] as const;

export function BalanceTab() {
  const { t } = useI18n();
  const word = useLineWord();
  const [balance, reload] = useLoad(() => api.get<Balance>('/v1/balance'), 'balance');
  const list = useCursorList<Line>('/v1/transactions');
  return (
    <div className="stack">
      <section className="stack" aria-labelledby="balance-title">
        <h2 id="balance-title">{t('payTabBalance')}</h2>
        {balance.kind === 'loading' && <Loading />}
        {balance.kind === 'failed' && <Failed error={balance.error} onRetry={reload} />}
        {balance.kind === 'done' && (
          <dl className="figures-grid" data-testid="balance">
            {BALANCES.flatMap((name) =>
              // Available is always shown (TZS 0 before the first payment); the others once they hold money.
              (balance.value[name].length === 0 && name === 'available'
                ? [{ amount: 0, currency: 'TZS' }]
                : balance.value[name]
              ).map(({ amount, currency }) => (
                <div className="figure" key={`${name} ${currency}`}>
                  <dt>{word(name)}</dt>
                  <dd data-testid={`balance-${name}-${currency}`}>{money(amount, currency)}</dd>
                </div>
              )),
            )}
          </dl>
        )}
      </section>
      <section className="stack" aria-labelledby="transactions-title">
        <h2 id="transactions-title">{t('payTransactions')}</h2>
        <CursorListView list={list} empty={t('payNoTransactions')}>
          {(lines) => (
            <RowTable
              rows={lines}
              testId="transactions"
              rowTestId="transaction"
              columns={[
                { label: t('payType'), cell: (line) => word(line.type) },
                { label: t('net'), num: true, cell: (line) => money(line.net, line.currency) },
                { label: t('payBalance'), cell: (line) => word(line.balance) },
                { label: t('paySource'), cell: (line) => <Source line={line} /> },
                { label: t('payCreated'), nowrap: true, cell: (line) => when(line.created) },
              ]}
            />
          )}
        </CursorListView>
      </section>
    </div>
  );
}

/** What a line records: a payment or its refund links to the payment's page. */
function Source({ line }: { line: Line }) {
  return line.type === 'payment' || line.type === 'refund' ? (
    <PageLink page="payments" rest={['payments', line.source]}>
      <code>{line.source}</code>
    </PageLink>
  ) : (
    <code>{line.source}</code>
  );
}
