/** The till's words for people: its messages in Swahili and English over the shared formatters. */
import { interpolate, type Language, type Params } from '../ui/format.ts';
import { en, type MessageKey, type Messages } from './en.ts';
import { sw } from './sw.ts';

export * from '../ui/format.ts';
export const LANGUAGES: Record<Language, Messages> = { sw, en };

export type Translate = (key: MessageKey, params?: Params) => string;

export function translator(language: Language): Translate {
  const messages = LANGUAGES[language];
  return (key, params) => interpolate(messages[key], params);
}
