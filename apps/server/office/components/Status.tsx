/** What a page shows while it reads, and when a read failed (in words, with a way to try again). */
import { errorText } from '../errors.ts';
import { useI18n } from '../i18n/index.ts';
import { Message } from '../shared.ts';

export function Loading() {
  const { t } = useI18n();
  return (
    <p className="muted" role="status">
      {t('loading')}
    </p>
  );
}

export function Failed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t, language } = useI18n();
  return (
    <div className="stack">
      <Message text={errorText(t, error, language)} />
      <div>
        <button type="button" onClick={onRetry}>
          {t('retry')}
        </button>
      </div>
    </div>
  );
}
