/** What the hospitality tabs share: a stay's status, its quote, and a refusal's reservations as links. */
import { useCallback, useState } from 'react';
import { api, ApiError } from '../../api.ts';
import { useAction } from '../../action.ts';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { PageLink } from '../../router.tsx';
import { formatMoney } from '../../shared.ts';
import { dayLabel, HOSPITALITY_ERRORS, STATUS_WORDS, type Quote, type Reservation } from './model.ts';

export function StayStatus({ status }: { status: Reservation['status'] }) {
  const { t } = useI18n();
  return (
    <span className={`badge stay-${status}`} data-status={status} data-testid="stay-status">
      {t(STATUS_WORDS[status])}
    </span>
  );
}

/** A stay's dates as "Tue 1 Dec – Thu 3 Dec". */
export function stayDates(stay: Pick<Reservation, 'arrival' | 'departure'>, language: 'sw' | 'en'): string {
  return stay.arrival && stay.departure
    ? `${dayLabel(stay.arrival, language)} – ${dayLabel(stay.departure, language)}`
    : '';
}

const LEVY_WORDS: Record<Quote['levies'][number]['kind'], MessageKey> = {
  hotel_levy: 'hospHotelLevy',
  tourism_levy: 'hospTourismLevy',
  infrastructure_tax: 'hospInfrastructureTax',
};

/** A quote as the API priced it: each night's rate, the room charge, the levies, VAT and the total. */
export function QuoteView({ quote, testId = 'quote' }: { quote: Quote; testId?: string }) {
  const { t, language } = useI18n();
  const money = (amount: number) => formatMoney(amount, 'TZS');
  return (
    <table className="table hosp-quote" data-testid={testId}>
      <caption className="sr-only">{t('hospQuote')}</caption>
      <tbody>
        {quote.night_lines.map((line) => (
          <tr key={line.date} data-testid="quote-night">
            <th scope="row">{dayLabel(line.date, language)}</th>
            <td className="num">{money(line.rate)}</td>
          </tr>
        ))}
        <tr>
          <th scope="row">
            {quote.nights === 1 ? t('hospRoomChargeOne') : t('hospRoomCharge', { nights: quote.nights })}
          </th>
          <td className="num" data-testid="quote-room-charge">
            {money(quote.room_charge)}
          </td>
        </tr>
        {quote.levies
          .filter((levy) => levy.amount > 0)
          .map((levy) => (
            <tr key={levy.kind} data-testid="quote-levy">
              <th scope="row">{t(LEVY_WORDS[levy.kind])}</th>
              <td className="num">{money(levy.amount)}</td>
            </tr>
          ))}
        <tr>
          <th scope="row">{t('hospVatAt', { rate: quote.vat.rate / 100 })}</th>
          <td className="num" data-testid="quote-vat">
            {money(quote.vat.amount)}
          </td>
        </tr>
        <tr className="total">
          <th scope="row">{t('hospTotal')}</th>
          <td className="num" data-testid="quote-total">
            {money(quote.total)}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

/**
 * An action whose refusal may name reservations in the way (a blackout, an
 * archive): its sentence, and those reservations kept to show as links.
 */
export function useStayAction() {
  const action = useAction(HOSPITALITY_ERRORS);
  const [inTheWay, setInTheWay] = useState<string[]>([]);
  const { run: runAction } = action;
  const run = useCallback(
    (work: () => Promise<void>) =>
      runAction(async () => {
        setInTheWay([]);
        try {
          await work();
        } catch (failure) {
          if (failure instanceof ApiError && failure.code === 'reservations_in_the_way')
            setInTheWay((failure.details.reservations ?? '').split(', ').filter(Boolean));
          throw failure;
        }
      }),
    [runAction],
  );
  return { ...action, run, inTheWay };
}

/** The reservations a refusal named, each a link with its guest and dates (the first ten). */
export function InTheWay({ ids }: { ids: string[] }) {
  const shown = ids.slice(0, 10);
  if (shown.length === 0) return null;
  return (
    <ul className="hosp-in-the-way" data-testid="in-the-way">
      {shown.map((id) => (
        <InTheWayLink key={id} id={id} />
      ))}
    </ul>
  );
}

function InTheWayLink({ id }: { id: string }) {
  const { language } = useI18n();
  const [loaded] = useLoad(() => api.get<Reservation>(`/v1/hospitality/reservations/${id}`), id);
  const stay = loaded.kind === 'done' ? loaded.value : null;
  return (
    <li>
      <PageLink page="hospitality" rest={['reservations', id]}>
        {stay ? `${stay.guest.name}, ${stayDates(stay, language)}` : id}
      </PageLink>
    </li>
  );
}
