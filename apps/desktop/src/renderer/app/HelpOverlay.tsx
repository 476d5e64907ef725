/** `?` or F1: every shortcut, in the cashier's language. */
import { useI18n } from '../i18n/index.tsx';
import { Dialog, Kbd } from './components/Dialog.tsx';
import { SHORTCUTS } from './keyboard/shortcuts.ts';

export function HelpOverlay({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  return (
    <Dialog title={t('helpTitle')} onClose={onClose} wide testId="help">
      <dl className="shortcuts">
        {SHORTCUTS.map((shortcut) => (
          <div key={shortcut.keys} className="shortcut">
            <dt>
              <Kbd>{shortcut.keys}</Kbd>
            </dt>
            <dd>{t(shortcut.what)}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
