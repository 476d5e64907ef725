/** When a stay is, in the desk's words: its dates, or a day-use stay's day and hours. */
import { shopDate } from '@tz/core';
import type { DeskStay } from '../../../data/api.ts';
import { formatTime, type useI18n } from '../../../i18n/index.tsx';

export function stayWhen(
  t: ReturnType<typeof useI18n>['t'],
  stay: Pick<DeskStay, 'arrival' | 'departure' | 'hours'>,
): string {
  return stay.hours
    ? t('deskDayUseHours', {
        date: shopDate(stay.arrival),
        from: formatTime(stay.hours.startsAt * 1000),
        to: formatTime(stay.hours.endsAt * 1000),
      })
    : t('deskStayDates', { arrival: shopDate(stay.arrival), departure: shopDate(stay.departure) });
}
