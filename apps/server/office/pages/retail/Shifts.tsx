/** Shifts: each till's, newest first; a shift at `/office/retail/shifts/<id>` with its Z report. */
import { allPages, api } from '../../api.ts';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { PageLink } from '../../router.tsx';
import { formatCount, formatDateTime, formatMoney } from '../../shared.ts';

interface ReportLine {
  method: 'cash' | 'mobile_money' | 'card';
  sales: number;
  refunds: number;
  float: number;
  pay_ins: number;
  pay_outs: number;
  /** Absent from a report kept before the front desk's cash was counted. */
  desk?: number;
  expected: number;
  counted: number | null;
  difference: number | null;
}
interface Shift {
  id: string;
  till: string;
  cashier: string;
  status: 'open' | 'closed';
  currency: string;
  opened_at: number;
  closed_at: number | null;
  report: {
    order_count: number;
    voided_count: number;
    sales_total: number;
    refunds_total: number;
    expected_total: number;
    counted_total: number | null;
    difference_total: number | null;
    lines: ReportLine[];
  } | null;
}
/** The Z report's columns per tender, in the order the till prints them. */
const LINE_COLUMNS = [
  ['float', 'float'],
  ['sales', 'salesTotal'],
  ['refunds', 'refundsTotal'],
  ['pay_ins', 'payIns'],
  ['pay_outs', 'payOuts'],
  ['desk', 'deskCash'],
  ['expected', 'expected'],
  ['counted', 'counted'],
  ['difference', 'difference'],
] as const satisfies ReadonlyArray<readonly [keyof ReportLine, MessageKey]>;

interface Named {
  id: string;
  name: string;
}

function useNames() {
  const [names] = useLoad(
    () => Promise.all([allPages<Named>('/v1/tills'), allPages<Named>('/v1/employees')]),
    'shift-names',
  );
  const [tills, cashiers] = names.kind === 'done' ? names.value : [[], []];
  return {
    till: (id: string) => tills.find((n) => n.id === id)?.name ?? id,
    cashier: (id: string) => cashiers.find((n) => n.id === id)?.name ?? id,
  };
}

export function Shifts({ id }: { id: string | undefined }) {
  return id ? <ShiftReport id={id} /> : <ShiftList />;
}

function ShiftList() {
  const { t } = useI18n();
  const list = useCursorList<Shift>('/v1/retail/shifts');
  const names = useNames();
  return (
    <CursorListView list={list} empty={t('noShifts')}>
      {(rows) => (
        <DataTable
          testId="shift-list"
          className="retail-table"
          columns={[
            t('opened'),
            t('till'),
            t('cashier'),
            t('closedAt'),
            { label: t('difference'), num: true },
          ]}
        >
          {rows.map((shift) => (
            <tr key={shift.id} data-testid="shift">
              <th scope="row">
                <PageLink page="retail" rest={['shifts', shift.id]}>
                  {formatDateTime(shift.opened_at * 1000)}
                </PageLink>
              </th>
              <td>{names.till(shift.till)}</td>
              <td>{names.cashier(shift.cashier)}</td>
              <td>{shift.closed_at === null ? t('shiftOpen') : formatDateTime(shift.closed_at * 1000)}</td>
              <td className="num">
                {shift.report?.difference_total == null
                  ? ''
                  : formatMoney(shift.report.difference_total, shift.currency)}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </CursorListView>
  );
}

function ShiftReport({ id }: { id: string }) {
  const { t } = useI18n();
  const [loaded, reload] = useLoad(() => api.get<Shift>(`/v1/retail/shifts/${encodeURIComponent(id)}`), id);
  const names = useNames();
  if (loaded.kind === 'loading') return <Loading />;
  if (loaded.kind === 'failed') return <Failed error={loaded.error} onRetry={reload} />;
  const shift = loaded.value;
  const money = (amount: number | null) => (amount === null ? '' : formatMoney(amount, shift.currency));
  const report = shift.report;
  return (
    <div className="card stack" data-testid="shift-report">
      <div className="page-head">
        <h2>
          {t('zReport')} · {names.till(shift.till)}
        </h2>
        <PageLink page="retail" rest={['shifts']}>
          {t('backToShifts')}
        </PageLink>
      </div>
      <dl className="facts">
        <div>
          <dt>{t('cashier')}</dt>
          <dd>{names.cashier(shift.cashier)}</dd>
        </div>
        <div>
          <dt>{t('opened')}</dt>
          <dd>{formatDateTime(shift.opened_at * 1000)}</dd>
        </div>
        <div>
          <dt>{t('closedAt')}</dt>
          <dd>{shift.closed_at === null ? t('shiftOpen') : formatDateTime(shift.closed_at * 1000)}</dd>
        </div>
      </dl>
      {!report ? (
        <p className="muted">{t('noReport')}</p>
      ) : (
        <>
          <dl className="facts">
            <div>
              <dt>{t('salesCount')}</dt>
              <dd>{formatCount(report.order_count)}</dd>
            </div>
            <div>
              <dt>{t('voidedCount')}</dt>
              <dd>{formatCount(report.voided_count)}</dd>
            </div>
            <div>
              <dt>{t('salesTotal')}</dt>
              <dd>{money(report.sales_total)}</dd>
            </div>
            <div>
              <dt>{t('refundsTotal')}</dt>
              <dd>{money(report.refunds_total)}</dd>
            </div>
          </dl>
          <DataTable
            caption={t('zReport')}
            className="retail-table"
            columns={[t('method'), ...LINE_COLUMNS.map(([, word]) => ({ label: t(word), num: true }))]}
          >
            {report.lines.map((line) => (
              <tr key={line.method}>
                <th scope="row">{t(`method_${line.method}` as MessageKey)}</th>
                {LINE_COLUMNS.map(([field]) => (
                  <td className="num" key={field}>
                    {money(line[field] === undefined ? 0 : line[field])}
                  </td>
                ))}
              </tr>
            ))}
            <tr>
              <th scope="row">{t('total')}</th>
              <td colSpan={5} />
              <td className="num">{money(report.expected_total)}</td>
              <td className="num">{money(report.counted_total)}</td>
              <td className="num">{money(report.difference_total)}</td>
            </tr>
          </DataTable>
        </>
      )}
    </div>
  );
}
