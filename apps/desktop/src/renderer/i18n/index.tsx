/**
 * Language for the till's screens: Swahili and English, switchable at any
 * time (kept on the device). Also the one money formatter the screens use.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { translator, type Language, type Translate } from './format.ts';

export * from './format.ts';
const STORAGE_KEY = 'till.language';

interface I18n {
  language: Language;
  t: Translate;
  setLanguage: (language: Language) => void;
  toggleLanguage: () => void;
}

const I18nContext = createContext<I18n | null>(null);

function savedLanguage(): Language {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    return saved === 'en' || saved === 'sw' ? saved : 'sw';
  } catch {
    return 'sw';
  }
}

export function I18nProvider({ children, initial }: { children: ReactNode; initial?: Language }) {
  const [language, setLanguageState] = useState<Language>(() => initial ?? savedLanguage());
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  const setLanguage = useCallback((next: Language) => {
    setLanguageState(next);
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // a private window may refuse storage; the choice lasts for this page
    }
  }, []);
  const value = useMemo<I18n>(
    () => ({
      language,
      t: translator(language),
      setLanguage,
      toggleLanguage: () => setLanguage(language === 'sw' ? 'en' : 'sw'),
    }),
    [language, setLanguage],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
