/**
 * Asks before a change (revoke, roll, delete, remove): the change runs on
 * confirming, its refusal shown in words; `children` holds the change's
 * choices, if any.
 */
import type { ReactNode } from 'react';
import { useAction } from '../action.ts';
import type { ErrorWords } from '../errors.ts';
import { useI18n } from '../i18n/index.ts';
import { Message } from '../shared.ts';
import { OfficeDialog } from './OfficeDialog.tsx';

export function ConfirmDialog({
  title,
  lead,
  confirm,
  onConfirm,
  onClose,
  words,
  kind = 'danger',
  testId = 'confirm-dialog',
  confirmTestId = 'confirm',
  children,
}: {
  title: string;
  lead: string;
  /** The confirming button's words. */
  confirm: string;
  /** The change; the dialog closes itself only through `onClose`, which the caller calls when done. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
  words?: ErrorWords;
  /** `primary` for a change that keeps things working (a roll), `danger` for one that stops them. */
  kind?: 'danger' | 'primary';
  testId?: string;
  /** The confirming button's test id. */
  confirmTestId?: string;
  children?: ReactNode;
}) {
  const { t } = useI18n();
  const { busy, error, run } = useAction(words);
  return (
    <OfficeDialog title={title} onClose={onClose} testId={testId}>
      <div className="stack">
        <p>{lead}</p>
        {children}
        <Message text={error} />
        <div className="row">
          <button
            type="button"
            className={kind}
            onClick={() => void run(onConfirm)}
            disabled={busy}
            data-testid={confirmTestId}
          >
            {confirm}
          </button>
          <button type="button" onClick={onClose}>
            {t('cancel')}
          </button>
        </div>
      </div>
    </OfficeDialog>
  );
}
