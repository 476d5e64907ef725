/** The back office in Swahili and English (language.tsx says which, until this browser chooses). */
import { createI18n, type Language } from '../shared.ts';
import { en, type MessageKey, type Messages } from './en.ts';
import { sw } from './sw.ts';

export type { MessageKey };
export const LANGUAGES: Record<Language, Messages> = { sw, en };
/** Where this browser keeps its choice of language. */
export const LANGUAGE_KEY = 'office.language';
export const { I18nProvider, useI18n } = createI18n(LANGUAGES, LANGUAGE_KEY);
