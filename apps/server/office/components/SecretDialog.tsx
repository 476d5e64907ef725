/**
 * A secret (an API key, a webhook's signing secret) shown the one time the
 * server sends it: a read-only field to select and a copy button. The page
 * keeps it nowhere else; once the dialog closes it is gone, and the lists show
 * it masked.
 */
import { useRef, useState } from 'react';
import { useI18n } from '../i18n/index.ts';
import { OfficeDialog } from './OfficeDialog.tsx';

export function SecretDialog({
  title,
  label,
  secret,
  onClose,
}: {
  title: string;
  /** What the secret is, as its field's label. */
  label: string;
  secret: string;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
    } catch {
      // No clipboard API on plain HTTP (a shop's LAN): copy the selected field instead.
      field.current?.select();
      document.execCommand('copy');
    }
    setCopied(true);
  };
  return (
    <OfficeDialog title={title} onClose={onClose} testId="secret-dialog">
      <div className="stack">
        <p className="warn strong">{t('secretOnce')}</p>
        <label>
          {label}
          <input
            ref={field}
            readOnly
            value={secret}
            className="secret-field"
            data-testid="secret"
            onFocus={(event) => event.target.select()}
          />
        </label>
        <div className="row">
          <button type="button" className="primary" onClick={() => void copy()} data-testid="copy-secret">
            {t('secretCopy')}
          </button>
          <button type="button" onClick={onClose} data-testid="secret-done">
            {t('secretDone')}
          </button>
          <span role="status" className="muted">
            {copied ? t('secretCopied') : ''}
          </span>
        </div>
      </div>
    </OfficeDialog>
  );
}
