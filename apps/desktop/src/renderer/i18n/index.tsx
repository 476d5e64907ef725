/**
 * Language for the till's screens: Swahili and English, switchable at any
 * time (kept on the device). Also the one money formatter the screens use.
 */
import { createI18n } from '../ui/i18n.tsx';
import { LANGUAGES } from './format.ts';

export * from './format.ts';

export const { I18nProvider, useI18n } = createI18n(LANGUAGES, 'till.language');
