/**
 * An event's sales by tier over time: a chart per tier of the tickets sold
 * each day (the API's `/sales`, days in the event's time zone, a day without
 * sales drawn as nothing), and each tier's and the event's totals.
 */
import { addDays } from '@tz/core/hospitality/stay';
import { api } from '../../api.ts';
import { BarChart } from '../../components/BarChart.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { Facts } from '../../components/Facts.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { formatCount, formatMoney } from '../../shared.ts';
import type { Sales, TicketedEvent } from './model.ts';

/** "2026-11-25" as "25/11": short enough for a phone's chart. */
export const dayMonth = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;

/** Every day from the first sale to the last, so a quiet day shows as a gap. */
function salesDays(sales: Sales): string[] {
  const first = sales.days[0]?.date;
  const last = sales.days.at(-1)?.date;
  if (!first || !last) return [];
  const days = [first];
  while (days.at(-1)! < last) days.push(addDays(days.at(-1)!, 1));
  return days;
}

export function SalesChart({ event }: { event: TicketedEvent }) {
  const { t } = useI18n();
  const [loaded, reload] = useLoad(
    () => api.get<Sales>(`/v1/events/${event.id}/sales`),
    `sales ${event.id} ${event.taken}`,
  );
  return (
    <section className="card stack" aria-labelledby="sales-title" data-testid="sales">
      <h2 id="sales-title">{t('evSales')}</h2>
      {loaded.kind === 'loading' && <Loading />}
      {loaded.kind === 'failed' && <Failed error={loaded.error} onRetry={reload} />}
      {loaded.kind === 'done' && <SalesView sales={loaded.value} />}
    </section>
  );
}

const money = (amount: number) => formatMoney(amount, 'TZS');

function SalesView({ sales }: { sales: Sales }) {
  const { t } = useI18n();
  const days = salesDays(sales);
  const sold = (date: string, tier: string) =>
    sales.days.find((day) => day.date === date)?.tiers.find((row) => row.tier === tier)?.tickets ?? 0;
  const count = (tickets: number) =>
    tickets === 1 ? t('evTicketOne') : t('evTicketCount', { count: formatCount(tickets) });
  return (
    <>
      <p className="muted small">{t('evSalesLead', { zone: sales.time_zone })}</p>
      {days.length === 0 ? (
        <p className="muted" data-testid="no-sales">
          {t('evNoSales')}
        </p>
      ) : (
        <div className="ev-charts">
          {sales.tiers.map((tier) => (
            <div key={tier.tier} data-testid="tier-chart" data-tier={tier.tier}>
              <BarChart
                title={t('evTierPerDay', { tier: tier.name })}
                values={days.map((date) => sold(date, tier.tier))}
                labels={days.map(dayMonth)}
                format={count}
                labelHeading={t('evDay')}
              />
            </div>
          ))}
        </div>
      )}
      <DataTable
        caption={t('evTotal')}
        hideCaption
        columns={[t('evTier'), { label: t('evTickets'), num: true }, { label: t('evGross'), num: true }]}
        testId="sales-totals"
      >
        {sales.tiers.map((tier) => (
          <tr key={tier.tier} data-testid="sales-tier" data-tier={tier.tier}>
            <th scope="row">{tier.name}</th>
            <td className="num" data-testid="sales-tickets">
              {formatCount(tier.tickets)}
            </td>
            <td className="num nowrap">{money(tier.gross)}</td>
          </tr>
        ))}
        <tr className="total">
          <th scope="row">{t('evTotal')}</th>
          <td className="num" data-testid="sales-total-tickets">
            {formatCount(sales.total.tickets)}
          </td>
          <td className="num nowrap">{money(sales.total.gross)}</td>
        </tr>
      </DataTable>
      <Facts
        facts={[
          [t('evPaidOrders'), formatCount(sales.total.orders), { testId: 'sales-orders' }],
          [t('evPromoDiscount'), money(sales.total.discount), { testId: 'sales-discount' }],
          [t('evAmountPaid'), money(sales.total.amount), { testId: 'sales-amount' }],
        ]}
      />
    </>
  );
}
