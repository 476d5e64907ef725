/** The shared dialog in the till's words, and how a refused command reads to a cashier. */
import type { CommandRefusal, RoomChargeRefused } from '../../data/api.ts';
import { serverCodeText } from '../../i18n/code-words.ts';
import { useI18n } from '../../i18n/index.tsx';
import { Dialog as SharedDialog, type DialogProps } from '../../ui/Dialog.tsx';

export { Kbd, Message } from '../../ui/Dialog.tsx';

export function Dialog(props: DialogProps) {
  const { t } = useI18n();
  return <SharedDialog {...props} closeLabel={t('close')} />;
}

/**
 * Why the server refused a command, in the cashier's words; the server's own
 * words (naming the field) in the tooltip, and the code for support.
 */
export function ServerRefusal({ refusal }: { refusal: CommandRefusal }) {
  const { t, language } = useI18n();
  const charge = refusal.roomCharge;
  return (
    <p className="message error" title={refusal.message} data-testid="server-refusal">
      {t('serverRefused')}{' '}
      {charge
        ? t('roomChargeRefused', { room: charge.room, guest: charge.guest ?? '', why: t(WHY[whyOf(charge)]) })
        : serverCodeText(language, refusal.code, refusal.message)}{' '}
      <code className="refusal-code">{refusal.code}</code>
    </p>
  );
}

/** Why a room would not take a charge, by the stay's state the server named. */
const WHY = {
  checked_out: 'roomChargeWhy_checked_out',
  not_in: 'roomChargeWhy_not_in',
  canceled: 'roomChargeWhy_canceled',
  no_show: 'roomChargeWhy_no_show',
  closed: 'roomChargeWhy_closed',
  unknown: 'roomChargeWhy_unknown',
} as const;

function whyOf({ status }: RoomChargeRefused): keyof typeof WHY {
  switch (status) {
    case null:
      return 'unknown';
    case 'pending':
    case 'confirmed':
      return 'not_in';
    // Still in, but the folio is closed.
    case 'checked_in':
      return 'closed';
    default:
      return status;
  }
}
