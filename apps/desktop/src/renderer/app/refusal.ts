/** A store refusal (or any failure) in the cashier's language. */
import type { RefusalCode, TillRefusal } from '../data/api.ts';
import { codeText } from '../i18n/code-words.ts';
import { formatTime, type Language } from '../i18n/index.tsx';

function isRefusal(error: unknown): error is TillRefusal {
  return error instanceof Error && error.name === 'TillRefusal' && 'code' in error;
}

export function refusalCode(error: unknown): RefusalCode | null {
  return isRefusal(error) ? error.code : null;
}

export function refusalText(language: Language, error: unknown): string {
  if (!isRefusal(error)) {
    return codeText(language, 'unknown', { message: error instanceof Error ? error.message : String(error) });
  }
  const { details } = error;
  const until = typeof details.until === 'number' ? formatTime(details.until) : '';
  return codeText(language, error.code, { count: details.count ?? '', time: until });
}
