/** What the events pages share: a status as a coloured badge, a time of the event, the organizer's events. */
import type { EventOrderStatus, EventStatus, TicketStatus } from '@tz/core';
import { allPages } from '../../api.ts';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { formatDateTime } from '../../shared.ts';
import { EVENT_STATUS_WORDS, ORDER_STATUS_WORDS, TICKET_STATUS_WORDS, type TicketedEvent } from './model.ts';

export function EventBadge({ status }: { status: EventStatus }) {
  const { t } = useI18n();
  return (
    <span className={`badge ev-${status}`} data-status={status} data-testid="event-status">
      {t(EVENT_STATUS_WORDS[status])}
    </span>
  );
}

export function OrderBadge({ status }: { status: EventOrderStatus }) {
  const { t } = useI18n();
  return (
    <span className={`badge ev-${status}`} data-status={status} data-testid="order-status">
      {t(ORDER_STATUS_WORDS[status])}
    </span>
  );
}

export function TicketBadge({ status }: { status: TicketStatus }) {
  const { t } = useI18n();
  return (
    <span className={`badge ev-${status}`} data-status={status} data-testid="ticket-status">
      {t(TICKET_STATUS_WORDS[status])}
    </span>
  );
}

/** A time of the event, or "Open" where a window has no end. */
export function EventTime({ seconds }: { seconds: number | null }) {
  const { t } = useI18n();
  return <>{seconds === null ? t('evWindowOpen') : formatDateTime(seconds * 1000)}</>;
}

/** The organizer's events, for naming an order's event and its tiers (an organizer has tens, not thousands). */
export function useEvents() {
  const [loaded] = useLoad(() => allPages<TicketedEvent>('/v1/events'), 'events');
  return loaded.kind === 'done' ? loaded.value : [];
}
