/** `?` or F1: the shortcuts of the screen the cashier is on and the till's, in the cashier's language. */
import { useI18n } from '../i18n/index.tsx';
import { Dialog, Kbd } from './components/Dialog.tsx';
import { helpShortcuts } from './keyboard/shortcuts.ts';

export function HelpOverlay({
  atDesk,
  hasDesk,
  atDoor = false,
  hasDoor = false,
  onClose,
}: {
  atDesk: boolean;
  hasDesk: boolean;
  atDoor?: boolean;
  hasDoor?: boolean;
  onClose: () => void;
}) {
  const { t } = useI18n();
  return (
    <Dialog title={t('helpTitle')} onClose={onClose} wide testId="help">
      <dl className="shortcuts">
        {helpShortcuts({ atDesk, hasDesk, atDoor, hasDoor }).map((shortcut) => (
          <div key={shortcut.keys} className="shortcut">
            <dt>
              {/* On the desk or the door its keys are the screen's own: "F2", not "Desk: F2". */}
              <Kbd>{shortcut.keys.replace(/^(Desk|Door): /, '')}</Kbd>
            </dt>
            <dd>{t(shortcut.what)}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
