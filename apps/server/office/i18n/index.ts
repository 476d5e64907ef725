/** The back office in Swahili and English (Swahili unless this device chose English). */
import { createI18n, type Language } from '../shared.ts';
import { en, type MessageKey, type Messages } from './en.ts';
import { sw } from './sw.ts';

export type { MessageKey };
export const LANGUAGES: Record<Language, Messages> = { sw, en };
export const { I18nProvider, useI18n } = createI18n(LANGUAGES, 'office.language');
