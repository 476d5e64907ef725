/** An event's moves on its status (draft -> published -> canceled | ended), each asked for first. */
import { useState } from 'react';
import type { EventStatus } from '@tz/core';
import { api, type List } from '../../api.ts';
import { Actions } from '../../components/Actions.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { PageLink } from '../../router.tsx';
import { EVENT_ERRORS, type EventOrder, type TicketedEvent } from './model.ts';

type Move = Exclude<EventStatus, 'draft'>;

export function EventStatusActions({ event, onChanged }: { event: TicketedEvent; onChanged: () => void }) {
  const { t } = useI18n();
  const [asking, setAsking] = useState<Move | null>(null);
  const moves: Move[] =
    event.status === 'draft' ? ['published'] : event.status === 'published' ? ['ended', 'canceled'] : [];
  return (
    <>
      <Actions
        actions={[
          moves.includes('published') && {
            label: t('evPublish'),
            onClick: () => setAsking('published'),
            testId: 'publish-event',
            className: 'primary',
          },
          moves.includes('ended') && {
            label: t('evEnd'),
            onClick: () => setAsking('ended'),
            testId: 'end-event',
          },
          moves.includes('canceled') && {
            label: t('evCancelEvent'),
            onClick: () => setAsking('canceled'),
            testId: 'cancel-event',
            className: 'ghost danger',
          },
        ]}
      />
      <PageLink page="events" rest={['orders', 'event', event.id]} data-testid="event-orders">
        {t('evSeeOrders')} →
      </PageLink>
      {asking && (
        <MoveDialog event={event} move={asking} onClose={() => setAsking(null)} onChanged={onChanged} />
      )}
    </>
  );
}

function MoveDialog({
  event,
  move,
  onClose,
  onChanged,
}: {
  event: TicketedEvent;
  move: Move;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useI18n();
  // Canceling says how many paid orders it leaves to refund: one page of them is enough to say "100+".
  const [paid] = useLoad(
    () =>
      move === 'canceled'
        ? api.get<List<EventOrder>>(`/v1/events/orders?event=${event.id}&status=paid&limit=100`)
        : Promise.resolve(null),
    `${event.id} ${move}`,
  );
  const paidCount =
    paid.kind === 'done' && paid.value ? `${paid.value.data.length}${paid.value.has_more ? '+' : ''}` : '…';
  const words = {
    published: { title: 'evPublishTitle', lead: t('evPublishLead'), confirm: t('evPublish') },
    ended: { title: 'evEndTitle', lead: t('evEndLead'), confirm: t('evEnd') },
    canceled: {
      title: 'evCancelTitle',
      lead: t('evCancelLead', { paid: paidCount }),
      confirm: t('evCancelConfirm'),
    },
  } as const;
  const chosen = words[move];
  return (
    <ConfirmDialog
      title={t(chosen.title, { name: event.name })}
      lead={chosen.lead}
      confirm={chosen.confirm}
      kind={move === 'canceled' ? 'danger' : 'primary'}
      words={EVENT_ERRORS}
      testId="event-move-dialog"
      confirmTestId="confirm-move"
      onClose={onClose}
      onConfirm={async () => {
        await api.patch(`/v1/events/${event.id}`, { status: move });
        onClose();
        onChanged();
      }}
    />
  );
}
