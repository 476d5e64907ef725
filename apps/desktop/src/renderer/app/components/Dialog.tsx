/** The shared dialog in the till's words, and how a refused command reads to a cashier. */
import type { CommandRefusal } from '../../data/api.ts';
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
  return (
    <p className="message error" title={refusal.message}>
      {t('serverRefused')} {serverCodeText(language, refusal.code, refusal.message)}{' '}
      <code className="refusal-code">{refusal.code}</code>
    </p>
  );
}
