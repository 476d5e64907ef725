/** A section still to come: says so, and where the API reference is meanwhile. */
import { useI18n, type MessageKey } from '../i18n/index.ts';

export function Coming({ title }: { title: MessageKey }) {
  const { t } = useI18n();
  return (
    <div className="page" data-testid="coming">
      <div className="page-head">
        <h1>{t(title)}</h1>
      </div>
      <p className="card">
        {t('coming')} <a href="/docs">{t('apiDocs')}</a>
      </p>
    </div>
  );
}
