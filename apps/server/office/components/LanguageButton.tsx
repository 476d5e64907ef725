/** The language switch: it reads "English" in Swahili and "Kiswahili" in English, as on the till. */
import { useI18n } from '../i18n/index.ts';

export function LanguageButton() {
  const { t, language, toggleLanguage } = useI18n();
  return (
    <button
      type="button"
      className="bar-button"
      onClick={toggleLanguage}
      lang={language === 'sw' ? 'en' : 'sw'}
      data-testid="language"
    >
      {t('switchLanguage')}
    </button>
  );
}
