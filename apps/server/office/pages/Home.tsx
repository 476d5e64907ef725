/**
 * Home: today, the last 7 or the last 30 days, as `/v1/overview` (payments)
 * and `/v1/retail` (sales at the tills) answer them, the numbers as the API
 * gives them: volume, fees, net and refunds, by hour and by day, the top
 * products and each store.
 */
import { useState } from 'react';
import { api } from '../api.ts';
import { BarChart } from '../components/BarChart.tsx';
import { useI18n } from '../i18n/index.ts';
import { useLoad, useReadAgainEvery } from '../load.ts';
import { Failed, Loading } from '../components/Status.tsx';
import { formatMoney, formatCount, Segmented } from '../shared.ts';

type Range = 'today' | 'last_7_days' | 'last_30_days';
const DAYS: Record<Range, number> = { today: 1, last_7_days: 7, last_30_days: 30 };

interface PaymentsWindow {
  gross: number;
  fees: number;
  net: number;
  refunds: { count: number; amount: number };
  payments: { paid: number; total: number };
  gross_by_hour: number[];
  gross_by_day: Array<{ date: string; gross: number }>;
}
interface Overview {
  date: string;
  currencies: Array<{ currency: string; balance: { available: number } } & Record<Range, PaymentsWindow>>;
}
interface StoreDay {
  store: string;
  name: string;
  currency: string;
  sales: number;
  refunds: number;
  order_count: number;
  top_products: Array<{
    product: string;
    variant: string | null;
    description: string;
    quantity_milli: number;
    sales: number;
  }>;
  sales_by_hour: number[];
  sales_by_day: Array<{ date: string; sales: number }>;
}
interface RetailOverview {
  date: string;
  stores: StoreDay[];
}

const HOURS = Array.from({ length: 24 }, (_, hour) => `${String(hour).padStart(2, '0')}:00`);
/** "2026-01-15" -> "15/01". */
const dayLabel = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;
const sumSeries = (series: number[][]) =>
  series.reduce(
    (total, values) => total.map((value, i) => value + (values[i] ?? 0)),
    new Array<number>(series[0]?.length ?? 0).fill(0),
  );

/** How often Home reads its numbers again while it is in view (each read is two small queries' worth). */
const HOME_READ_AGAIN_MS = 10_000;

export function Home() {
  const { t } = useI18n();
  const [range, setRange] = useState<Range>('today');
  const [overview, reloadOverview] = useLoad(() => api.get<Overview>('/v1/overview'), 'overview');
  const [retail, reloadRetail] = useLoad(
    () => api.get<RetailOverview>(`/v1/retail?days=${DAYS[range]}`),
    `retail ${range}`,
  );
  // A sale at a till or a payment shows here within seconds, without reloading the page.
  useReadAgainEvery(HOME_READ_AGAIN_MS, () => {
    reloadOverview();
    reloadRetail();
  });
  return (
    <div className="page" data-testid="home">
      <div className="page-head">
        <h1>{t('navHome')}</h1>
        <Segmented
          label={t('period')}
          value={range}
          onChange={setRange}
          options={[
            ['today', t('today')],
            ['last_7_days', t('last7Days')],
            ['last_30_days', t('last30Days')],
          ]}
        />
      </div>
      <section aria-labelledby="payments-heading" className="stack">
        <h2 id="payments-heading">{t('payments')}</h2>
        {overview.kind === 'loading' && <Loading />}
        {overview.kind === 'failed' && <Failed error={overview.error} onRetry={reloadOverview} />}
        {overview.kind === 'done' && <Payments overview={overview.value} range={range} />}
      </section>
      <section aria-labelledby="sales-heading" className="stack">
        <h2 id="sales-heading">{t('tillSales')}</h2>
        {retail.kind === 'loading' && <Loading />}
        {retail.kind === 'failed' && <Failed error={retail.error} onRetry={reloadRetail} />}
        {retail.kind === 'done' && <TillSales retail={retail.value} range={range} />}
      </section>
    </div>
  );
}

function Figure({
  label,
  value,
  testId,
  note,
}: {
  label: string;
  value: string;
  testId?: string;
  note?: string;
}) {
  return (
    <div className="figure">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
      {note && <dd className="muted small">{note}</dd>}
    </div>
  );
}

function Payments({ overview, range }: { overview: Overview; range: Range }) {
  const { t } = useI18n();
  const empty: PaymentsWindow = {
    gross: 0,
    fees: 0,
    net: 0,
    refunds: { count: 0, amount: 0 },
    payments: { paid: 0, total: 0 },
    gross_by_hour: new Array<number>(24).fill(0),
    gross_by_day: [],
  };
  const currencies = overview.currencies.length
    ? overview.currencies
    : [{ currency: 'TZS', balance: { available: 0 }, today: empty, last_7_days: empty, last_30_days: empty }];
  return (
    <>
      {currencies.map((entry) => {
        const window = entry[range];
        const money = (amount: number) => formatMoney(amount, entry.currency);
        return (
          <div key={entry.currency} className="stack" data-currency={entry.currency}>
            <dl className="figures-grid">
              <Figure
                label={t('volume')}
                value={money(window.gross)}
                testId={`volume-${entry.currency}`}
                note={t('paymentCount', {
                  paid: formatCount(window.payments.paid),
                  total: formatCount(window.payments.total),
                })}
              />
              <Figure label={t('fees')} value={money(window.fees)} testId={`fees-${entry.currency}`} />
              <Figure label={t('net')} value={money(window.net)} testId={`net-${entry.currency}`} />
              <Figure
                label={t('refunds')}
                value={money(window.refunds.amount)}
                testId={`refunds-${entry.currency}`}
                note={t('refundCount', { count: formatCount(window.refunds.count) })}
              />
            </dl>
            <p className="muted">{t('balanceAvailable', { amount: money(entry.balance.available) })}</p>
            <div className="charts">
              <BarChart
                title={t('paymentsByHour')}
                values={window.gross_by_hour}
                labels={HOURS}
                labelHeading={t('hour')}
                format={money}
                testId="payments-by-hour"
              />
              {range !== 'today' && (
                <BarChart
                  title={t('paymentsByDay')}
                  values={window.gross_by_day.map((day) => day.gross)}
                  labels={window.gross_by_day.map((day) => dayLabel(day.date))}
                  labelHeading={t('day')}
                  format={money}
                  testId="payments-by-day"
                />
              )}
            </div>
          </div>
        );
      })}
    </>
  );
}

function TillSales({ retail, range }: { retail: RetailOverview; range: Range }) {
  const { t } = useI18n();
  if (retail.stores.length === 0) return <p className="muted">{t('noStores')}</p>;
  const currencies = [...new Set(retail.stores.map((store) => store.currency))];
  return (
    <>
      {currencies.map((currency) => {
        const stores = retail.stores.filter((store) => store.currency === currency);
        const money = (amount: number) => formatMoney(amount, currency);
        const total = (pick: (store: StoreDay) => number) =>
          stores.reduce((sum, store) => sum + pick(store), 0);
        const byDay = stores[0]!.sales_by_day.map((day, i) => ({
          date: day.date,
          sales: stores.reduce((sum, store) => sum + (store.sales_by_day[i]?.sales ?? 0), 0),
        }));
        return (
          <div key={currency} className="stack" data-currency={currency}>
            <dl className="figures-grid">
              <Figure label={t('sales')} value={money(total((s) => s.sales))} testId={`sales-${currency}`} />
              <Figure
                label={t('orders')}
                value={formatCount(total((s) => s.order_count))}
                testId={`orders-${currency}`}
              />
              <Figure label={t('refunds')} value={money(total((s) => s.refunds))} />
            </dl>
            <div className="charts">
              <BarChart
                title={t('salesByHour')}
                values={sumSeries(stores.map((store) => store.sales_by_hour))}
                labels={HOURS}
                labelHeading={t('hour')}
                format={money}
                testId="sales-by-hour"
              />
              {range !== 'today' && (
                <BarChart
                  title={t('salesByDay')}
                  values={byDay.map((day) => day.sales)}
                  labels={byDay.map((day) => dayLabel(day.date))}
                  labelHeading={t('day')}
                  format={money}
                  testId="sales-by-day"
                />
              )}
            </div>
            {stores.length > 1 && <StoreTable stores={stores} money={money} />}
            {stores.map((store) => (
              <TopProducts key={store.store} store={store} money={money} named={stores.length > 1} />
            ))}
          </div>
        );
      })}
    </>
  );
}

function StoreTable({ stores, money }: { stores: StoreDay[]; money: (amount: number) => string }) {
  const { t } = useI18n();
  return (
    <div className="table-wrap">
      <table className="table" data-testid="stores">
        <caption>{t('perStore')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('store')}</th>
            <th scope="col" className="num">
              {t('sales')}
            </th>
            <th scope="col" className="num">
              {t('orders')}
            </th>
            <th scope="col" className="num">
              {t('refunds')}
            </th>
          </tr>
        </thead>
        <tbody>
          {stores.map((store) => (
            <tr key={store.store}>
              <th scope="row">{store.name}</th>
              <td className="num">{money(store.sales)}</td>
              <td className="num">{formatCount(store.order_count)}</td>
              <td className="num">{money(store.refunds)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "1.5" kg or "3" pieces: thousandths as people read them. */
const quantity = (milli: number) =>
  milli % 1000 === 0 ? formatCount(milli / 1000) : (milli / 1000).toFixed(3).replace(/0+$/, '');

function TopProducts({
  store,
  money,
  named,
}: {
  store: StoreDay;
  money: (amount: number) => string;
  named: boolean;
}) {
  const { t } = useI18n();
  const caption = named ? `${t('topProducts')}: ${store.name}` : t('topProducts');
  if (store.top_products.length === 0)
    return (
      <p className="muted">
        {caption}: {t('noSales')}
      </p>
    );
  return (
    <div className="table-wrap">
      <table className="table" data-testid="top-products">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('product')}</th>
            <th scope="col" className="num">
              {t('quantity')}
            </th>
            <th scope="col" className="num">
              {t('sales')}
            </th>
          </tr>
        </thead>
        <tbody>
          {store.top_products.map((line) => (
            <tr key={`${line.product} ${line.variant ?? ''}`}>
              <th scope="row">{line.description}</th>
              <td className="num">{quantity(line.quantity_milli)}</td>
              <td className="num">{money(line.sales)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
