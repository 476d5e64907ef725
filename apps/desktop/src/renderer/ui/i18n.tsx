/**
 * Swahili and English for a page's screens, switchable at any time and kept
 * on the device: one provider and hook per app, over that app's messages.
 * Swahili unless the device chose English.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { interpolate, type Language, type Params } from './format.ts';

export interface I18n<Key extends string> {
  language: Language;
  t: (key: Key, params?: Params) => string;
  setLanguage: (language: Language) => void;
  toggleLanguage: () => void;
}

function savedLanguage(storageKey: string): Language {
  try {
    const saved = localStorage.getItem(storageKey);
    return saved === 'en' || saved === 'sw' ? saved : 'sw';
  } catch {
    return 'sw';
  }
}

/** The provider and hook of one app's messages; `storageKey` keeps the device's choice. */
export function createI18n<Key extends string>(
  languages: Record<Language, Record<Key, string>>,
  storageKey: string,
) {
  const Context = createContext<I18n<Key> | null>(null);

  function I18nProvider({ children, initial }: { children: ReactNode; initial?: Language }) {
    const [language, setLanguageState] = useState<Language>(() => initial ?? savedLanguage(storageKey));
    useEffect(() => {
      document.documentElement.lang = language;
    }, [language]);
    const setLanguage = useCallback((next: Language) => {
      setLanguageState(next);
      try {
        localStorage.setItem(storageKey, next);
      } catch {
        // a private window may refuse storage; the choice lasts for this page
      }
    }, []);
    const value = useMemo<I18n<Key>>(() => {
      const messages = languages[language];
      return {
        language,
        t: (key, params) => interpolate(messages[key], params),
        setLanguage,
        toggleLanguage: () => setLanguage(language === 'sw' ? 'en' : 'sw'),
      };
    }, [language, setLanguage]);
    return <Context.Provider value={value}>{children}</Context.Provider>;
  }

  function useI18n(): I18n<Key> {
    const value = useContext(Context);
    if (!value) throw new Error('useI18n outside I18nProvider');
    return value;
  }

  return { I18nProvider, useI18n };
}
